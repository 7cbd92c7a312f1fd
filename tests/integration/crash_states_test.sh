#!/usr/bin/env bash
# A volatile LUN live and through its write log (docs/crash-consistency.md):
# memstored with durability = "volatile" and write_log, QEMU's iSCSI driver
# writing with and without a flush between; a power cut through memsctl
# loses exactly the unflushed writes and says so; then memstore-crash
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
grep -q "power-cut" "$log" || fail "the power cut is not in the log"
# After it, what the flush made durable; nothing of the lost writes. (The
# initiator first gets the unit attention of the power on, which QEMU retries.)
qemu-io -f raw -c "read -P 0x11 0 8k" -c "read -P 0 64k 8k" "$url" >"$work/after" 2>&1 ||
  fail "after the cut: $(cat "$work/after")"
if grep -qi "pattern verification failed\|error" "$work/after"; then fail "$(cat "$work/after")"; fi
kill "$pid"
wait "$pid" || true
pid=

byte_at() { od -An -tx1 -j "$2" -N1 "$1" | tr -d ' '; }

"$crash" list "$work/w.log" >"$work/list" || fail "list: $(cat "$work/list")"
grep -q "^0 mark memstore blocks 6750000$" "$work/list" || fail "no size mark: $(cat "$work/list")"
for line in "1 write 0+16" "2 flush" "3 write 128+16" "4 write 0+8" "5 mark power-cut drop-all seed 7"; do
  grep -qx "$line" "$work/list" || fail "list lacks '$line': $(cat "$work/list")"
done

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
