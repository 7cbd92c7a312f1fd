#!/usr/bin/env bash
# SPDX-License-Identifier: Apache-2.0
# libiscsi's iscsi-test-cu conformance suite, in full, against memstored:
# every suite (one client process each, as scripts/conformance runs them)
# must end with no failed test. Two exceptions, both explained in
# docs/conformance.md:
#   - Sanitize is left out: its BlockEraseReserved test keeps the client
#     spinning forever;
#   - iSCSIdatasn's DataSN = -1 sub-case is sent, after libiscsi's automatic
#     reconnect, as immediate data (no Data-Out, so no DataSN to refuse): the
#     suite must fail exactly that one of its four assertions.
# Usage: conformance_test.sh MEMSTORED
set -euo pipefail
source "$(dirname "$0")/lib.sh"
start_memstored "$1" 1 --listen 127.0.0.1:0 --backing memory --timing off
lun=iscsi://127.0.0.1:${ports[0]}/iqn.2026-11.org.memstore:g2/0

total=0 passed=0 skipped=0
for suite in $(iscsi-test-cu -l 2>/dev/null | grep -E '^ALL\.[A-Za-z0-9]+$' | grep -v Sanitize); do
  out=$(timeout 120 iscsi-test-cu --dataloss -t "$suite.*" "$lun" 2>&1) || true
  tests=$(grep -E '^ +tests ' <<<"$out" | tr -s ' ') || fail "$suite: no summary
$out"
  asserts=$(grep -E '^ +asserts ' <<<"$out" | tr -s ' ' || true)
  read -r _ n ran ok failed _ <<<"$tests"
  skips=$(grep -cE '^ +Test: .*\.\.\. +\[SKIPPED\]' <<<"$out" || true)
  if [ "$suite" = ALL.iSCSIdatasn ]; then
    [ "$asserts" = " asserts 4 4 3 1 n/a" ] || fail "$suite: expected 3 of 4 assertions: $asserts
$out"
  elif [ "$failed" != 0 ] || [ "$ran" != "$n" ]; then
    fail "$suite: $tests
$out"
  fi
  total=$((total + n)); passed=$((passed + ok - skips)); skipped=$((skipped + skips))
done
echo "iscsi-test-cu: $total tests, $passed passed, $skipped skipped (features not implemented), 1 known failure"
echo "ok"
