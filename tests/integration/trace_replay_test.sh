#!/usr/bin/env bash
# SPDX-License-Identifier: Apache-2.0
# Live equals offline: a LUN's requests captured through the control socket
# (memsctl admin trace start/stop) and replayed by memsim with the command
# the capture's header gives get, command by command, the modeled response
# times the live LUN logged (--completion-log), because the model is
# deterministic (docs/memstored.md, "Traces"). SPTF reorders the queue, so
# equal times also mean the same order of service. The same replay with
# FCFS must differ: the comparison can fail.
# Usage: trace_replay_test.sh MEMSTORED MEMSCTL MEMSIM ISCSI_LOAD REPLAY_COMPARE
set -euo pipefail
source "$(dirname "$0")/lib.sh"
memstored=$1 memsctl=$2 memsim=$3 load=$4 compare=$5
sock=$work/control.sock
start_memstored "$memstored" 1 --listen 127.0.0.1:0 --backing memory --timing realtime \
  --scheduler sptf --control-socket "$sock" --completion-log "$work/completions.csv"
lun=iscsi://127.0.0.1:${ports[0]}/iqn.2026-11.org.memstore:g2/0
admin() { "$memsctl" admin --socket "$sock" "$@"; }

# Before any media command: the device is idle at its start, as memsim's is.
admin trace start --lun 0 --file "$work/cap.trace" >"$work/start.json" ||
  fail "trace start"
grep -q '"replay": "memsim replay --device g2 .* --scheduler sptf --absolute-times' \
  "$work/start.json" || fail "trace start's reply has no replay command: $(cat "$work/start.json")"
admin trace start --lun 0 --file "$work/other.trace" 2>"$work/again.err" &&
  fail "a second trace start was taken"
grep -q "already" "$work/again.err" || fail "second start: $(cat "$work/again.err")"

# Writes and reads at once, 8 and 4 in flight: the queue holds several
# requests for SPTF to choose among.
"$load" --pattern randwrite --qd 8 --count 1500 --seed 3 "$lun" >/dev/null &
writer=$!
"$load" --pattern randread --qd 4 --count 1500 --seed 4 "$lun" >/dev/null ||
  fail "iscsi-load reads"
wait "$writer" || fail "iscsi-load writes"

admin trace stop --lun 0 >"$work/stop.json" || fail "trace stop"
python3 - "$work/stop.json" <<'EOF' || fail "trace stop: $(cat "$work/stop.json")"
import json, sys
r = json.load(open(sys.argv[1]))
assert r["requests"] >= 3000, r
assert r["batches_skipped"] == 0, r
EOF
admin trace stop --lun 0 2>/dev/null && fail "trace stop without a capture was taken"
kill "$pid"
wait "$pid" || true
pid=

# The header's command, as the daemon wrote it.
replay=$(sed -n 's/^# replay: memsim replay //p' "$work/cap.trace")
[ -n "$replay" ] || fail "the capture has no replay line: $(head -3 "$work/cap.trace")"
replay=${replay% --completions FILE.csv}
# The header's command is quoted for a shell: eval gives its words back.
eval "\"\$memsim\" replay $replay --completions \"\$work/memsim.csv\"" >/dev/null ||
  fail "memsim replay"
"$compare" "$work/completions.csv" "$work/memsim.csv" --require-exact ||
  fail "the live LUN and memsim differ"

eval "\"\$memsim\" replay ${replay/--scheduler sptf/--scheduler fcfs} \
  --completions \"\$work/fcfs.csv\"" >/dev/null || fail "memsim replay fcfs"
"$compare" "$work/completions.csv" "$work/fcfs.csv" --require-exact >/dev/null 2>&1 &&
  fail "an FCFS replay matched an SPTF LUN: the comparison cannot fail"
echo "ok"
