#!/usr/bin/env bash
# Runs bench/timing-fidelity and bench/throughput-vs-tgt at a tiny scale and
# checks their tables: every row present, no early delivery, tgt compared over
# two rounds with both clients, and the JSON holds every round.
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
# Two rounds of one random-read workload and the scattered first writes, with
# both clients when qemu-img has its iscsi driver (qemu-block-extra).
clients=iscsi-load
if command -v qemu-img >/dev/null && qemu-img --help | grep -q 'Supported formats:.* iscsi '; then
  clients=iscsi-load,qemu-img
fi
SCALE=0.01 ROUNDS=2 RANGE_MIB=16 CLIENTS=$clients ONLY='rand read 4 KB QD32 x1|scattered' \
  "$src/bench/throughput-vs-tgt" "$out/throughput" >"$out/throughput.md"
cat "$out/throughput.md"
grep -q '^- command: `.*ROUNDS=2' "$out/throughput.md"
for client in ${clients//,/ }; do
  for workload in 'rand read 4 KB QD32 x1' 'scattered first write 4 KB QD32'; do
    for target in memstored-mem memstored-file; do
      grep -Eq "^\| $workload \| $client \| $target \| [0-9]+ \| [0-9]+–[0-9]+ \| .* \| [0-9.]+ \|$" \
        "$out/throughput.md"
    done
    grep -Eq "^\| $workload \| $client \| tgt \| [0-9]+ \| [0-9]+–[0-9]+ \| .* \| — \|$" \
      "$out/throughput.md"
  done
done
grep -q 'memstored, file store, digests off: RSS' "$out/throughput.md"
# Every round's numbers in the JSON: 2 rounds x clients x 3 targets x 2 workloads.
python3 - "$out/throughput/throughput.json" "$clients" <<'PY'
import json, sys
d = json.load(open(sys.argv[1]))
want = 2 * len(sys.argv[2].split(",")) * 3 * 2
assert len(d["runs"]) == want, (len(d["runs"]), want)
assert all(r["iops"] > 0 and r["round"] in (1, 2) for r in d["runs"])
assert len(d["summary"]) == want // 2
PY
echo ok
