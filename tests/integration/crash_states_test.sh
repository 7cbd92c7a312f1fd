#!/usr/bin/env bash
# A volatile LUN's write log through memstore-crash: memstored with
# durability = "volatile" and write_log, QEMU's iSCSI driver writing with
# and without a flush between, then the log listed, replayed and cut into
# crash states (docs/crash-consistency.md). What a cut after the last write
# may keep is exactly what the flush made durable.
# Usage: crash_states_test.sh MEMSTORED MEMSTORE_CRASH
set -euo pipefail
source "$(dirname "$0")/lib.sh"
memstored=$1 crash=$2

cat >"$work/memstored.toml" <<TOML
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
# -t writeback: plain WRITEs (no FUA) and SYNCHRONIZE CACHE on flush.
qemu-io -t writeback -f raw -c "write -P 0x11 0 8k" -c "flush" -c "write -P 0x22 64k 8k" \
  -c "write -P 0x33 0 4k" "$url" >"$work/io" 2>&1 || fail "qemu-io: $(cat "$work/io")"
kill "$pid"
wait "$pid" || true
pid=

byte_at() { od -An -tx1 -j "$2" -N1 "$1" | tr -d ' '; }

"$crash" list "$work/w.log" >"$work/list" || fail "list: $(cat "$work/list")"
grep -q "^0 mark memstore blocks 6750000$" "$work/list" || fail "no size mark: $(cat "$work/list")"
for line in "1 write 0+16" "2 flush" "3 write 128+16" "4 write 0+8"; do
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
