#!/usr/bin/env bash
# SPDX-License-Identifier: Apache-2.0
# Timing fidelity test: memstored in realtime mode logs, per completion, the
# model's prediction and the actual delivery time (--completion-log);
# iscsi-load (libiscsi) times every command from the client. bench/timing-report
# joins the two: no delivery may be early, no client may see a command finish
# sooner than the model's service time, and the lateness stays within the
# bounds docs/memstored.md documents for a shared 2-core CI machine (p99 5 ms
# at QD1, 10 ms at QD8: loose, because other processes take the CPU; the
# figures measured on a quiet machine are in docs/memstored.md).
# Usage: timing_test.sh MEMSTORED ISCSI_LOAD TIMING_REPORT
set -euo pipefail
source "$(dirname "$0")/lib.sh"
memstored=$1 load=$2 report=$3
start_memstored "$memstored" 1 --listen 127.0.0.1:0 --backing memory --timing realtime \
  --completion-log "$work/completions.csv"
lun=iscsi://127.0.0.1:${ports[0]}/iqn.2026-11.org.memstore:g2/0

# Random 4 KB reads, one at a time: client latency against the model's service time.
"$load" --pattern randread --qd 1 --count 2000 --warmup 20 --csv "$work/qd1.csv" "$lun" ||
  fail "iscsi-load QD1"
# Random 4 KB writes, 8 in flight: the device queues and the scheduler orders them.
"$load" --pattern randwrite --qd 8 --count 2000 --seed 2 --csv "$work/qd8.csv" "$lun" ||
  fail "iscsi-load QD8"
kill "$pid"; wait "$pid" || true; pid=
echo "QD1 random read:"
"$report" "$work/completions.csv" "$work/qd1.csv" --max-p99-late-us 5000 --max-p99-overhead-us 6000 ||
  fail "timing, QD1"
# At QD8 the client latency includes queueing the target models; the join
# checks it all the same (service_ns is modeled completion - arrival).
echo "QD8 random write:"
"$report" "$work/completions.csv" "$work/qd8.csv" --max-p99-late-us 10000 ||
  fail "timing, QD8"
echo "ok"
