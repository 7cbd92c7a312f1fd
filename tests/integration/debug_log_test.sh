#!/usr/bin/env bash
# SPDX-License-Identifier: Apache-2.0
# log_level = "debug" tells what happened: each connection accepted, each
# Login Request and Response with its keys (CHAP_R as ***), the parameters a
# session runs with, each fault that fires, each control request; and still
# no secret. At info level none of these; a reload turns debug on.
# Usage: debug_log_test.sh MEMSTORED MEMSCTL
set -euo pipefail
source "$(dirname "$0")/lib.sh"
export MEMSTORED_CONTROL_SOCKET=$work/control.sock
cat >"$work/memstored.toml" <<TOML
[daemon]
log_level = "info"
control_socket = "$MEMSTORED_CONTROL_SOCKET"
[[target]]
name = "iqn.2026-11.org.memstore:debug"
portals = ["127.0.0.1:0"]
[target.chap]
user = "dora"
secret = "dora-secret-1234"
[[target.lun]]
backing = "memory"
timing = "off"
[[target.lun.fault]]
op = "read"
lba = [0, 7]
action = "medium-error"
TOML
start_memstored "$1" 1 --config "$work/memstored.toml"
url="iscsi://dora%dora-secret-1234@127.0.0.1:${ports[0]}/iqn.2026-11.org.memstore:debug/0"
iscsi-inq "$url" >/dev/null || fail "iscsi-inq with CHAP"
if grep -q '\[debug\]' "$log"; then fail "debug lines at log_level info"; fi
sed -i 's/^log_level = "info"/log_level = "debug"/' "$work/memstored.toml"
kill -HUP "$pid"
for _ in $(seq 1 50); do grep -q "reload (SIGHUP)" "$log" && break; sleep 0.1; done
iscsi-inq "$url" >/dev/null || fail "iscsi-inq with CHAP after the reload"
if qemu-io -f raw -c "read 0 4k" "$url" >"$work/io" 2>&1 && ! grep -qi error "$work/io"; then
  fail "the READ of LBA 0 did not fail: $(cat "$work/io")"
fi
"$2" admin luns >/dev/null || fail "memsctl admin luns"
expect() {  # a line may reach the log a little after its client is done: wait up to 5 s
  for _ in $(seq 1 50); do
    grep -q "$1" "$log" && return 0
    sleep 0.1
  done
  fail "no debug line: $1"
}
expect '\[debug\] connection accepted from 127.0.0.1:[0-9]*$'
expect "\[debug\] login request: initiator iqn.* from 127.0.0.1:[0-9]*: stage 0 -> 1 (transit), .*InitiatorName="
expect "\[debug\] login request: .*CHAP_N=dora, CHAP_R=\*\*\*"
expect "\[debug\] login response: .*CHAP_A=5"
expect "\[debug\] negotiated: initiator iqn.* from 127.0.0.1:[0-9]*: SessionType=Normal, HeaderDigest=.*, MaxBurstLength=[0-9]*"
expect "\[debug\] LUN 0 of iqn.2026-11.org.memstore:debug: fault rule 1 (medium-error) fired on operation 0x28 at LBA 0 from iqn"
expect '\[debug\] control socket request: {"id":1,"jsonrpc":"2.0","method":"luns","params":{}} -> {"id":1,"jsonrpc":"2.0","result":{"luns":\[{'
grep -q "dora-secret-1234" "$log" && fail "the CHAP secret is in the debug log"
[ -n "${SHOW:-}" ] && grep "\[debug\]" "$log"
echo "ok: $(grep -c '\[debug\]' "$log") debug lines, no secret"
