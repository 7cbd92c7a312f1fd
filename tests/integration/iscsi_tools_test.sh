#!/usr/bin/env bash
# SPDX-License-Identifier: Apache-2.0
# Integration test: memstored on an ephemeral loopback port, driven by real
# libiscsi clients (iscsi-ls discovery, iscsi-inq, iscsi-readcapacity16).
# Usage: iscsi_tools_test.sh MEMSTORED
set -euo pipefail
source "$(dirname "$0")/lib.sh"
start_memstored "$1" 1 --listen 127.0.0.1:0 --backing memory --timing off
port=${ports[0]}
portal=iscsi://127.0.0.1:$port
lun=$portal/iqn.2026-11.org.memstore:g2/0

# Discovery (SendTargets) and a login to the LUN.
out=$(iscsi-ls -s "$portal") || fail "iscsi-ls"
grep -q "Target:iqn.2026-11.org.memstore:g2 Portal:127.0.0.1:$port,1" <<<"$out" || fail "discovery: $out"
grep -q "Lun:0 *Type:DIRECT_ACCESS" <<<"$out" || fail "LUN listing: $out"

# Standard INQUIRY and the Block Limits page.
out=$(iscsi-inq "$lun") || fail "iscsi-inq"
grep -q "Peripheral Device Type:DIRECT_ACCESS" <<<"$out" || fail "inquiry: $out"
out=$(iscsi-inq -e 1 -c 0 "$lun") || fail "iscsi-inq VPD 00h"
grep -q "Page:0xb0 BLOCK_LIMITS" <<<"$out" || fail "supported VPD pages: $out"

# Capacity: G2 has 6,750,000 blocks of 512 bytes.
out=$(iscsi-readcapacity16 "$lun") || fail "iscsi-readcapacity16"
grep -q "RETURNED LOGICAL BLOCK ADDRESS:6749999" <<<"$out" || fail "capacity: $out"
grep -q "LOGICAL BLOCK LENGTH IN BYTES:512" <<<"$out" || fail "block size: $out"

# The operator's log (docs/memstored.md, "Logging"): the LUN opened; one
# login line per session, naming the initiator and the target; a logout line
# for each tool that logs out (iscsi-inq twice, iscsi-readcapacity16), and a
# dropped connection for iscsi-ls, whose LUN listing closes its session
# without one; after SIGTERM the LUN closed and flushed. Discovery sessions
# log nothing.
target=iqn.2026-11.org.memstore:g2
who="initiator iqn.2007-10.com.github:sahlberg:libiscsi:iscsi-[a-z0-9]* isid 0x[0-9a-f]\{12\} from 127.0.0.1:[0-9]*, target $target, session [0-9]*"
grep -q "LUN 0 of $target opened: g2 (6750000 blocks), backing memory" "$log" || fail "no LUN-opened line"
logins=$(grep -c "login: $who$" "$log" || true)
logouts=$(grep -c "logout: $who: session closed$" "$log" || true)
drops=$(grep "connection dropped: $who: closed without a logout$" "$log" || true)
[ "$logins" = 4 ] && [ "$logouts" = 3 ] && [ "$(grep -c . <<<"$drops")" = 1 ] &&
  grep -q "libiscsi:iscsi-ls " <<<"$drops" ||
  fail "$logins login and $logouts logout lines (4 and 3 expected), dropped: $drops"
kill -TERM "$pid"
wait "$pid" || fail "memstored exited with status $? on SIGTERM"
pid=""
grep -q "LUN 0 of $target closed, flushed: deliveries: " "$log" || fail "no LUN-closed line"

# The conformance suites run in full in conformance_test.sh.
echo "ok"
