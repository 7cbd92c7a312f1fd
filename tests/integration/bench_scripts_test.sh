#!/usr/bin/env bash
# Runs bench/timing-fidelity and bench/throughput-vs-tgt at a tiny scale and
# checks their tables: every row present, no early delivery, tgt compared.
# Usage: bench_scripts_test.sh SOURCE_DIR BUILD_DIR
set -euo pipefail
src=$1
export MEMSTORE_BUILD_DIR=$2 NO_BUILD=1
out=$(mktemp -d)
trap 'rm -rf "$out"' EXIT

COUNT=300 WORKLOADS=randread-qd1,randwrite-qd8 COMPENSATION_US=auto \
  "$src/bench/timing-fidelity" "$out/timing" >"$out/timing.md"
cat "$out/timing.md"
grep -q '^| randread-qd1 | 300 |' "$out/timing.md"
grep -q '^| randwrite-qd8 | 300 |' "$out/timing.md"

if ! command -v tgtd >/dev/null || [ "$(id -u)" != 0 ]; then
  echo "tgtd or root missing: the comparison with tgt is not run"
  exit 0
fi
SCALE=0.01 DIGESTS=off ONLY='rand read 4 KB QD32 x1' \
  "$src/bench/throughput-vs-tgt" "$out/throughput" >"$out/throughput.md"
cat "$out/throughput.md"
grep -q '^| rand read 4 KB QD32 x1 | [0-9]' "$out/throughput.md"
grep -q 'memstored, file store, digests off: RSS' "$out/throughput.md"
echo ok
