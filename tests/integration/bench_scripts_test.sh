#!/usr/bin/env bash
# SPDX-License-Identifier: Apache-2.0
# Runs bench/timing-fidelity, bench/isolation, bench/lun-scale and
# bench/throughput-vs-tgt at a tiny scale and checks their tables: every row
# present, no early delivery, LUN A's WRITE SAME and SYNCHRONIZE CACHE streams
# ran, tgt compared over two rounds with both clients, and the JSON holds
# every round and step; that the realtime scripts ran cyclictest beside memstored
# (a row per point in their second table, one alone phase); and that
# bench/read-ceiling's patch still applies.
# Usage: bench_scripts_test.sh SOURCE_DIR BUILD_DIR
set -euo pipefail
src=$1
export MEMSTORE_BUILD_DIR=$2 NO_BUILD=1
# Two free ports in a row (memstored's, and tgt's next to it), so that runs of
# this test in two checkouts at once do not meet on the scripts' default ports.
BENCH_PORT=$(python3 - <<'PY'
import random, socket
# Below 32768: tgtd takes the port as its management socket's number too, and
# refuses larger ones.
for _ in range(100):
    port = random.randrange(20000, 32000)
    try:
        with socket.socket() as a, socket.socket() as b:
            a.bind(("127.0.0.1", port))
            b.bind(("127.0.0.1", port + 1))
    except OSError:
        continue
    print(port)
    break
PY
)
export BENCH_PORT
# cyclictest alone for 1 s per round (bench/rtprobe.py), not the default 2.
export PROBE_ALONE_S=1
out=$(mktemp -d)
trap 'rm -rf "$out"' EXIT

COUNT=300 WORKLOADS=randread-qd1,randwrite-qd8 COMPENSATION_US=auto \
  "$src/bench/timing-fidelity" "$out/timing" >"$out/timing.md"
cat "$out/timing.md"
grep -q '^| randread-qd1 | 300 |' "$out/timing.md"
grep -q '^| randwrite-qd8 | 300 |' "$out/timing.md"
# Against cyclictest: memstored's, cyclictest's and the excess's three percentiles per
# workload, no early delivery, and the alone phase.
for w in randread-qd1 randwrite-qd8; do
  grep -Eq "^\| $w \| 1 \| [-0-9.]+ / [-0-9.]+ / [-0-9.]+ \| [0-9.]+ / [0-9.]+ / [0-9.]+ \| .* \| 0 \| [0-9]+ \| [0-9.]+ \| (met|\*\*missed|—)" \
    "$out/timing.md"
done
grep -Eq '^\| 1 \| [0-9]+ / [0-9]+ / [0-9]+ / [0-9]+ \| [1-9][0-9]* \|' "$out/timing.md"

# Isolation: 8 MiB WRITE SAMEs (0.2 s of the model each) instead of 512 MiB,
# with 1 and 2 threads, B alone and with A busy.
THREADS=1,2 COUNT=300 WS_BLOCKS=16384 "$src/bench/isolation" "$out/isolation" >"$out/isolation.md"
cat "$out/isolation.md"
grep -q '^- command: `.*WS_BLOCKS=16384' "$out/isolation.md"
for threads in 1 2; do
  grep -Eq "^\| $threads \| idle \| 300 \| .* \| 0 \| .* \| — \|$" "$out/isolation.md"
  grep -Eq "^\| $threads \| [1-9][0-9]* × 8 MiB WRITE SAME .* / [1-9][0-9]* SYNC CACHE \| 300 \| .* \| 0 \| .* \| (met|missed) \|$" \
    "$out/isolation.md"
  for a in idle busy; do
    grep -q "^| threads $threads, A $a | 1 | " "$out/isolation.md"
  done
done
python3 - "$out/isolation/isolation.json" <<'PY'
import json, sys
d = json.load(open(sys.argv[1]))
assert [(r["threads"], r["a_busy"]) for r in d["runs"]] == \
    [(1, False), (1, True), (2, False), (2, True)], d["runs"]
for r in d["runs"]:
    assert r["b_client"]["failed"] == 0 and r["b_report"]["joined"] == 300
    assert r["steal_ms_per_s"] >= 0 and r["cyclictest_us"]["count"] > 0
    if r["a_busy"]:
        ws, sync = r["a_clients"]["writesame"], r["a_clients"]["sync"]
        assert ws["failed"] == 0 and sync["failed"] == 0 and ws["bs"] == 16384 * 512
        assert r["a_late_us"]["count"] >= ws["count"] + sync["count"]
PY

# LUN scaling: 1 and 3 memory-backed LUNs for 1 s each, with 1 and 2 threads.
THREADS=1,2 LUNS=1,3 DURATION=1 "$src/bench/lun-scale" "$out/lun-scale" >"$out/lun-scale.md"
cat "$out/lun-scale.md"
for threads in 1 2; do
  for luns in 1 3; do
    grep -Eq "^\| $threads \| $luns \| [0-9]+ \| [0-9]+ / [0-9]+ \| .* \| 0 \| [0-9.]+ \| [0-9.]+ \| [0-9]+ \| (met|missed) \|$" \
      "$out/lun-scale.md"
  done
  grep -q "^- threads $threads: the largest LUN count with p99 ≤ 20 µs is " "$out/lun-scale.md"
  grep -q "^| threads $threads, 3 LUNs | 1 | " "$out/lun-scale.md"
done
python3 - "$out/lun-scale/lun-scale.json" <<'PY'
import json, sys
d = json.load(open(sys.argv[1]))
assert [(s["threads"], s["luns"]) for s in d["steps"]] == [(1, 1), (1, 3), (2, 1), (2, 3)]
for s in d["steps"]:
    assert len(s["clients"]) == s["luns"] and s["failed_commands"] == 0
    assert s["steal_ms_per_s"] >= 0
    assert s["iops_per_lun_min"] > 0 and s["late_us"]["count"] > 0
    assert s["cyclictest_us"]["count"] > 0 and s["round"] == 1
assert len(d["cyclictest"]) == 4 and len(d["cyclictest_alone"]) == 1
PY

# The same with one target per LUN (LAYOUT=targets): each client reaches its
# own target's LUN (one with a wrong URL fails its login, and the step with it).
LAYOUT=targets THREADS=2 LUNS=3 DURATION=1 "$src/bench/lun-scale" "$out/lun-scale-targets" \
  >"$out/lun-scale-targets.md"
python3 - "$out/lun-scale-targets/lun-scale.json" <<'PY'
import json, sys
d = json.load(open(sys.argv[1]))
[s] = d["steps"]
assert s["luns"] == 3 and len(s["clients"]) == 3 and s["failed_commands"] == 0
assert s["iops_per_lun_min"] > 0 and s["late_us"]["count"] > 0
PY

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
# The client's CPU time was counted (it did work) and the CPUs' use is a share.
# The target's CPU time comes in 10 ms ticks (/proc/PID/stat), and these runs
# last tens of ms on a fast day (1,000 commands at 140,000/s), so one tick
# more can read above 100%; a share of one CPU counted as of all would read
# twice that.
assert all(r["client_cpu_s_per_100k"] > 0 and 0 < r["cpus_busy"] <= 1.5 for r in d["runs"])
assert len(d["summary"]) == want // 2
PY

# bench/read-ceiling builds memstored with its patch applied; the patch must
# still apply to the source it ships with (checked where that is a git
# checkout, as CI's clone is).
if git -C "$src" rev-parse --git-dir >/dev/null 2>&1; then
  git -C "$src" apply --check "$src/bench/read-ceiling.patch"
fi
echo ok
