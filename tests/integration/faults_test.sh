#!/usr/bin/env bash
# SPDX-License-Identifier: Apache-2.0
# Fault injection from a real initiator: memstored with one rule per LUN
# ([[target.lun.fault]], docs/faults.md), checked by faults_client (libiscsi)
# for each action's status and sense; run twice, the seeded rule fires on
# the same commands both times. Through the control socket (memsctl admin):
# the statistics count the faults fired, and a rule added at run time fails
# libiscsi's READ CAPACITY(16) until it is removed; SIGHUP applies a rule
# changed in the file and names what needs a restart; a LUN added and
# removed at run time. The Prometheus metrics count the same faults.
# Usage: faults_test.sh MEMSTORED FAULTS_CLIENT MEMSCTL
set -euo pipefail
source "$(dirname "$0")/lib.sh"
memstored=$1 client=$2 memsctl=$3
export MEMSTORED_CONTROL_SOCKET=$work/control.sock

lun() {  # lun ID RULE...: an in-memory LUN with one fault rule
  local id=$1
  shift
  printf '[[target.lun]]\nid = %s\nbacking = "memory"\nfault_seed = 5\n[[target.lun.fault]]\n' "$id"
  printf '%s\n' "$@"
}
{
  printf '[daemon]\ncontrol_socket = "%s"\nmetrics = "127.0.0.1:0"\n' "$MEMSTORED_CONTROL_SOCKET"
  printf '[[target]]\nname = "iqn.2026-11.org.memstore:faults"\nportals = ["127.0.0.1:0"]\n'
  lun 0 'op = "read"' 'lba = [1000, 1007]' 'action = "medium-error"'
  lun 1 'op = "write"' 'action = "sense"' 'sense = [4, 0x44, 0]'
  lun 2 'op = "read"' 'action = "delay"' 'delay_ms = 250'
  lun 3 'op = "read"' 'action = "timeout"'
  lun 4 'op = "write"' 'action = "busy"'
  lun 5 'op = "write"' 'action = "task-set-full"'
  lun 6 'op = "write"' 'action = "reservation-conflict"'
  lun 7 'op = 0x25' 'once = true' 'action = "unit-attention"' 'ua = "capacity-changed"'
  lun 8 'op = "write"' 'action = "space-exhausted"'
  lun 9 'action = "failed-tip"' 'tip = 3'
  lun 10 'action = "media-region"' 'x = [0, 0]' 'y = [0, 0]'
  lun 11 'op = "read"' 'probability = 0.3' 'action = "busy"'
  lun 12 'op = "read"' 'probability = 0.3' 'action = "busy"'
  lun 13 'op = "write"' 'once = true' 'action = "drop-connection"'
  lun 14 'action = "slow-seek"' 'x = [0, 2499]' 'y = [0, 26]' 'factor = 100'
  lun 15 'op = "write"' 'lba = [2000, 2999]' 'action = "withhold-r2t"'
} >"$work/faults.toml"

for run in 1 2; do
  start_memstored "$memstored" 1 --config "$work/faults.toml"
  MEMSTORE_FAULTS_TARGET="iscsi://127.0.0.1:${ports[0]}/iqn.2026-11.org.memstore:faults" \
    MEMSTORE_FAULTS_PATTERN="$work/pattern$run" "$client" || fail "faults_client, run $run"
  if [ "$run" = 1 ]; then
    url="iscsi://127.0.0.1:${ports[0]}/iqn.2026-11.org.memstore:faults/4"
    fired=$("$memsctl" admin stats --lun 0 | python3 -c 'import json,sys; print(json.load(sys.stdin)["faults_fired"])')
    [ "$fired" = 2 ] || fail "LUN 0's statistics count $fired faults fired, not 2"
    # The same count in the Prometheus text metrics.
    metrics_port=$(sed -n 's|.*metrics on http://127.0.0.1:\([0-9]*\)/metrics|\1|p' "$log")
    python3 -c 'import sys, urllib.request; print(urllib.request.urlopen(sys.argv[1], timeout=10).read().decode())' \
      "http://127.0.0.1:$metrics_port/metrics" >"$work/metrics" || fail "GET /metrics"
    grep -q '^memstore_faults_fired_total{target="iqn.2026-11.org.memstore:faults",lun="0"} 2$' "$work/metrics" ||
      fail "metrics: $(grep faults_fired "$work/metrics")"
    grep -q '^memstore_commands_total{target="iqn.2026-11.org.memstore:faults",lun="11"} ' "$work/metrics" ||
      fail "metrics: no commands_total for LUN 11"
    dropped=$("$memsctl" admin stats --lun 13 | python3 -c 'import json,sys; print(json.load(sys.stdin)["faults_fired"])')
    [ "$dropped" = 1 ] || fail "LUN 13 (drop-connection) fired $dropped times, not once"
    iscsi-readcapacity16 "$url" >/dev/null || fail "READ CAPACITY(16) before the rule"
    "$memsctl" admin fault-add --lun 4 \
      --rule '{"op": 158, "action": "sense", "sense": [5, 36, 0]}' >"$work/added" ||
      fail "fault-add: $(cat "$work/added")"
    id=$(python3 -c 'import json,sys; print(json.load(open(sys.argv[1]))["id"])' "$work/added")
    if iscsi-readcapacity16 "$url" >/dev/null 2>&1; then fail "the rule added at run time did not fire"; fi
    grep -q 'control socket: {"id":1,"jsonrpc":"2.0","method":"fault-add","params":{"lun":4,"rule":{' "$log" ||
      fail "the rule added through the control socket is not in the daemon's log"
    "$memsctl" admin fault-remove --lun 4 --id "$id" >/dev/null || fail "fault-remove"
    iscsi-readcapacity16 "$url" >/dev/null || fail "READ CAPACITY(16) after the rule was removed"
    # A failed tip through the host library: page 20h lists LUN 9's tip 3,
    # and its block LBN 3 is equivalent to itself alone.
    tip_url="iscsi://127.0.0.1:${ports[0]}/iqn.2026-11.org.memstore:faults/9"
    "$memsctl" info --json "$tip_url" | python3 -c 'import json,sys; t=json.load(sys.stdin)["geometry"]["failed_tips"]; sys.exit(t != [{"sled": 0, "tip": 3, "spared": False}])' ||
      fail "memsctl info does not list LUN 9's failed tip 3"
    "$memsctl" equiv --json "$tip_url" 3 | python3 -c 'import json,sys; sys.exit(json.load(sys.stdin)["equivalence_class"] != [3])' ||
      fail "memsctl equiv 3 on LUN 9: $("$memsctl" equiv --json "$tip_url" 3 | head -c 300)"
    # SIGHUP: LUN 4's rule changed in the file applies live, and a device
    # change is named as needing a restart.
    cp "$work/faults.toml" "$work/faults.orig"
    python3 - "$work/faults.toml" <<'PY'
import sys
p = sys.argv[1]
s = open(p).read()
s = s.replace('id = 4\nbacking = "memory"\nfault_seed = 5\n[[target.lun.fault]]\nop = "write"',
              'id = 4\nbacking = "memory"\nfault_seed = 5\n[[target.lun.fault]]\nop = "read"')
s = s.replace('id = 5\nbacking = "memory"\n', 'id = 5\nbacking = "memory"\ndevice = "g3"\n')
open(p, "w").write(s)
PY
    kill -HUP "$pid"
    for _ in $(seq 1 50); do grep -q "reload (SIGHUP)" "$log" && break; sleep 0.1; done
    grep -q "reload (SIGHUP): 1 LUN(s) changed live, 1 change(s) need a restart" "$log" ||
      fail "SIGHUP: no reload line"
    grep -q "LUN 5: device: changed; restart to apply" "$log" || fail "SIGHUP: device change not named"
    "$memsctl" admin faults --lun 4 | grep -q '"op": "read"' || fail "SIGHUP: LUN 4's rule unchanged"
    cp "$work/faults.orig" "$work/faults.toml"
    # A LUN added and removed at run time (docs/memstored.md): it serves at
    # once, the metrics count it, and once removed it is gone; a reload
    # afterwards finds only the LUNs that exist.
    new_url="iscsi://127.0.0.1:${ports[0]}/iqn.2026-11.org.memstore:faults/20"
    "$memsctl" admin lun-add --config '{"id": 20, "backing": "memory", "timing": "off"}' \
      >"$work/lun-add" || fail "lun-add: $(cat "$work/lun-add")"
    iscsi-readcapacity16 "$new_url" >/dev/null || fail "READ CAPACITY(16) of the added LUN 20"
    # Into a file first: grep -q ending the pipe early would fail it (pipefail).
    python3 -c 'import sys, urllib.request; print(urllib.request.urlopen(sys.argv[1], timeout=10).read().decode())' \
      "http://127.0.0.1:$metrics_port/metrics" >"$work/metrics-added" || fail "GET /metrics after lun-add"
    grep -q 'memstore_commands_total{target="iqn.2026-11.org.memstore:faults",lun="20"}' "$work/metrics-added" ||
      fail "metrics: no line for the added LUN 20"
    "$memsctl" admin lun-remove --lun 20 >/dev/null || fail "lun-remove"
    if iscsi-readcapacity16 "$new_url" >/dev/null 2>&1; then fail "LUN 20 still answers after lun-remove"; fi
    grep -q "LUN 20 of iqn.2026-11.org.memstore:faults removed: its commands ended, flushed" "$log" ||
      fail "the removal is not in the daemon's log"
    kill -HUP "$pid"
    for _ in $(seq 1 50); do [ "$(grep -c "reload (SIGHUP)" "$log")" -ge 2 ] && break; sleep 0.1; done
    iscsi-readcapacity16 "$url" >/dev/null || fail "LUN 4 after the second reload"
    # A target added and removed at run time, on the first target's portal.
    added="iqn.2026-11.org.memstore:added"
    added_url="iscsi://127.0.0.1:${ports[0]}/$added/1"
    "$memsctl" admin target-add --config "{\"name\": \"$added\", \"portals\": [\"127.0.0.1:${ports[0]}\"],
      \"lun\": [{\"id\": 1, \"backing\": \"memory\", \"timing\": \"off\"}]}" >"$work/target-add" ||
      fail "target-add: $(cat "$work/target-add")"
    iscsi-readcapacity16 "$added_url" >/dev/null || fail "READ CAPACITY(16) of the added target's LUN 1"
    iscsi-ls "iscsi://127.0.0.1:${ports[0]}" >"$work/discovered" 2>&1 || fail "iscsi-ls: $(cat "$work/discovered")"
    grep -q "$added" "$work/discovered" || fail "discovery does not list the added target: $(cat "$work/discovered")"
    "$memsctl" admin target-remove --target "$added" >/dev/null || fail "target-remove"
    if iscsi-readcapacity16 "$added_url" >/dev/null 2>&1; then fail "the removed target still answers"; fi
    iscsi-ls "iscsi://127.0.0.1:${ports[0]}" >"$work/discovered" 2>&1 || fail "iscsi-ls after removal"
    if grep -q "$added" "$work/discovered"; then fail "discovery still lists the removed target"; fi
    iscsi-readcapacity16 "$url" >/dev/null || fail "the configured target after target-remove"
    grep -q "LUN 1 of $added removed: its commands ended, flushed" "$log" ||
      fail "the removed target's LUN is not retired in the daemon's log"
  fi
  kill "$pid"
  wait "$pid" || true
  pid=
done
cmp -s "$work/pattern1" "$work/pattern2" ||
  fail "the seeded rule fired differently: $(cat "$work/pattern1") vs $(cat "$work/pattern2")"
echo "ok: $(cat "$work/pattern1")"
