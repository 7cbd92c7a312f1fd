#!/usr/bin/env bash
# SPDX-License-Identifier: Apache-2.0
# A volatile LUN live and through its write log (docs/crash-consistency.md):
# memstored with durability = "volatile" and write_log, QEMU's iSCSI driver
# writing with and without a flush between; a power cut through memsctl
# loses exactly the unflushed writes and says so, and so do a cut by a
# fault rule (with an off time that refuses logins) and memstored's stop;
# then memstore-crash
# lists, replays and cuts the log, and a cut after the last write keeps
# exactly what the flush made durable.
# Usage: crash_states_test.sh MEMSTORED MEMSTORE_CRASH MEMSCTL
set -euo pipefail
source "$(dirname "$0")/lib.sh"
memstored=$1 crash=$2 memsctl=$3

cat >"$work/memstored.toml" <<TOML
[daemon]
control_socket = "$work/control.sock"
[[target]]
name = "iqn.2026-11.org.memstore:crash"
portals = ["127.0.0.1:0"]
[[target.lun]]
id = 0
backing = "memory"
timing = "off"
durability = "volatile"
write_log = "$work/w.log"
TOML
start_memstored "$memstored" 1 --config "$work/memstored.toml"
url="iscsi://127.0.0.1:${ports[0]}/iqn.2026-11.org.memstore:crash/0"
# Plain WRITE(10)s around one SYNCHRONIZE CACHE(10), and no flush at the end
# (which QEMU's driver would send on closing).
PYTHONPATH="$(dirname "$0")" python3 - "${ports[0]}" <<'PY' || fail "the writes failed"
import struct, sys
import iscsi_raw as r
s = r.Session(int(sys.argv[1]), bytes([0x80, 0, 0, 0x51, 0, 0]), target="iqn.2026-11.org.memstore:crash")
def run(cdb, data=b""):
    for _ in range(3):  # the unit attention of a new nexus first
        t = s.command(cdb, data=data)
        if t.status == r.GOOD:
            return
    raise SystemExit(f"status {t.status:#x} for {cdb.hex()}")
write = lambda lba, blocks, byte: run(struct.pack(">BBIBHB", 0x2A, 0, lba, 0, blocks, 0),
                                      bytes([byte]) * blocks * 512)
write(0, 16, 0x11)
run(bytes([0x35]) + bytes(9))
write(128, 16, 0x22)
write(0, 8, 0x33)
s.close()
PY
# The power cut: the two writes after the flush were volatile.
"$memsctl" admin power-cut --socket "$work/control.sock" --lun 0 --policy drop-all --seed 7 \
  >"$work/cut.json" || fail "power-cut: $(cat "$work/cut.json")"
python3 - "$work/cut.json" <<'PY' || fail "power-cut reply: $(cat "$work/cut.json")"
import json, sys
r = json.load(open(sys.argv[1]))
assert r["policy"] == "drop-all" and r["seed"] == 7 and r["flushes"] == 1, r
assert r["writes_volatile"] == 2 and r["blocks_lost"] == 24 and r["blocks_kept"] == 0, r
assert [(w["lba"], w["blocks"], w["outcome"]) for w in r["writes"]] == [(128, 16, "lost"), (0, 8, "lost")], r
PY
grep -q "power cut (the control socket): policy drop-all, seed 7, after 1 flushes: 2 volatile writes, 24 blocks lost" "$log" ||
  fail "the power cut is not in the log"
# After it, what the flush made durable; nothing of the lost writes. (The
# initiator first gets the unit attention of the power on, which QEMU retries.)
qemu-io -f raw -c "read -P 0x11 0 8k" -c "read -P 0 64k 8k" "$url" >"$work/after" 2>&1 ||
  fail "after the cut: $(cat "$work/after")"
if grep -qi "pattern verification failed\|error" "$work/after"; then fail "$(cat "$work/after")"; fi

# A fault rule cuts the power as the next write arrives, off for 2 s: that
# write is never answered (its session ends), logins are refused with
# 0301h meanwhile, and the log lists the volatile write the cut took.
"$memsctl" admin fault-add --socket "$work/control.sock" --lun 0 \
  --rule '{"op": "write", "lba": [300, 300], "once": true, "action": "power-cut", "off_ms": 2000}' \
  >"$work/rule.json" || fail "fault-add: $(cat "$work/rule.json")"
PYTHONPATH="$(dirname "$0")" python3 - "${ports[0]}" <<'PY' || fail "the fault rule's cut"
import struct, sys, time
import iscsi_raw as r
port = int(sys.argv[1])
target = "iqn.2026-11.org.memstore:crash"
s = r.Session(port, bytes([0x80, 0, 0, 0x52, 0, 0]), target=target)
def run(cdb, data=b""):
    for _ in range(3):
        t = s.command(cdb, data=data)
        if t.status == r.GOOD:
            return
    raise SystemExit(f"status {t.status:#x} for {cdb.hex()}")
wcdb = lambda lba, blocks: struct.pack(">BBIBHB", 0x2A, 0, lba, 0, blocks, 0)
run(wcdb(256, 8), bytes([0x44]) * 8 * 512)  # volatile
cut = time.monotonic()
try:
    t = s.command(wcdb(300, 1), data=bytes([0x55]) * 512)
    raise SystemExit(f"the write the power went under was answered: {t.status:#x}")
except r.ProtocolError:
    pass  # the connection ended with no answer
try:
    r.Session(port, bytes([0x80, 0, 0, 0x53, 0, 0]), target=target)
    raise SystemExit("a login while the power is off was accepted")
except r.LoginRefused as e:
    assert e.status == (3, 1), e.status
    assert time.monotonic() - cut < 2.0, "the refusal came after the off time"
time.sleep(max(0.0, cut + 2.2 - time.monotonic()))
r.Session(port, bytes([0x80, 0, 0, 0x54, 0, 0]), target=target).close()
PY
grep -Eq "power cut \(fault rule [0-9]+\): policy drop-all, seed 1, after [0-9]+ flushes: 1 volatile writes, 8 blocks lost" "$log" ||
  fail "the fault rule's cut is not in the log: $(grep -i 'power' "$log")"
grep -Eq "write [0-9]+ \(LBA 256, 8 blocks, after flush [0-9]+\): lost; kept none; lost 256\+8" "$log" ||
  fail "the lost write is not in the log"
qemu-io -f raw -c "read -P 0 128k 4k" -c "read -P 0 150k 512" "$url" >"$work/after2" 2>&1 ||
  fail "after the fault's cut: $(cat "$work/after2")"
if grep -qi "pattern verification failed\|error" "$work/after2"; then fail "$(cat "$work/after2")"; fi

# Stopped, memstored switches the LUN off: a write nobody flushed is lost,
# and the log says which.
PYTHONPATH="$(dirname "$0")" python3 - "${ports[0]}" <<'PY' || fail "the last write failed"
import struct, sys
import iscsi_raw as r
s = r.Session(int(sys.argv[1]), bytes([0x80, 0, 0, 0x55, 0, 0]), target="iqn.2026-11.org.memstore:crash")
for _ in range(3):
    t = s.command(struct.pack(">BBIBHB", 0x2A, 0, 512, 0, 4, 0), data=bytes([0x66]) * 4 * 512)
    if t.status == r.GOOD:
        break
else:
    raise SystemExit(f"status {t.status:#x}")
s.close()
PY
kill "$pid"
wait "$pid" || true
pid=
grep -Eq "switched off \(memstored stopping\): policy drop-all, seed 0, after [0-9]+ flushes: 1 volatile writes, 4 blocks lost" "$log" ||
  fail "the stop's loss is not in the log: $(tail -5 "$log")"
grep -Eq "\(LBA 512, 4 blocks, after flush [0-9]+\): lost" "$log" || fail "the stop's lost write is not named"

byte_at() { od -An -tx1 -j "$2" -N1 "$1" | tr -d ' '; }

"$crash" list "$work/w.log" >"$work/list" || fail "list: $(cat "$work/list")"
grep -q "^0 mark memstore blocks 6750000$" "$work/list" || fail "no size mark: $(cat "$work/list")"
for line in "1 write 0+16" "2 flush" "3 write 128+16" "4 write 0+8" "5 mark power-cut drop-all seed 7"; do
  grep -qx "$line" "$work/list" || fail "list lacks '$line': $(cat "$work/list")"
done
# Then the fault rule's cut and the stop (QEMU's flushes on closing may come between).
grep -A99 "^5 mark" "$work/list" | sed 's/^[0-9]* //' | grep -v '^flush$' | tr '\n' '|' >"$work/later"
[ "$(cat "$work/later")" = "mark power-cut drop-all seed 7|write 256+8|mark power-cut drop-all seed 1|write 512+4|mark power-cut drop-all seed 0|" ] ||
  fail "list after the first cut: $(cat "$work/list")"

"$crash" replay "$work/w.log" --out "$work/all.img" >/dev/null
[ "$(byte_at "$work/all.img" 0)" = 33 ] && [ "$(byte_at "$work/all.img" 4096)" = 11 ] &&
  [ "$(byte_at "$work/all.img" 65536)" = 22 ] || fail "replay: not the data written"

# A cut after entry 4 (both later writes volatile): the flushed data only.
"$crash" states "$work/w.log" --at writes --out-dir "$work/states" >"$work/states.txt"
grep -q "state-5.img: cut after 5 of [0-9]* entries, 2 volatile writes, 24 blocks lost" \
  "$work/states.txt" || fail "states: $(cat "$work/states.txt")"
[ "$(byte_at "$work/states/state-5.img" 0)" = 11 ] &&
  [ "$(byte_at "$work/states/state-5.img" 65536)" = 00 ] || fail "state-5: not the durable data"
# Every cut at a flush loses nothing.
"$crash" states "$work/w.log" --out-dir "$work/flushes" >"$work/flushes.txt"
! grep -v " 0 blocks lost" "$work/flushes.txt" | grep -q "blocks lost" ||
  fail "a cut at a flush lost blocks: $(cat "$work/flushes.txt")"
# Usage errors name the option.
if "$crash" states "$work/w.log" --out-dir "$work/x" --at sometimes 2>"$work/err"; then
  fail "--at sometimes was taken"
fi
grep -q -- "--at: must be flushes, writes or random:N" "$work/err" || fail "$(cat "$work/err")"
echo ok
