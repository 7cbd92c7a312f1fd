#!/usr/bin/env bash
# SPDX-License-Identifier: Apache-2.0
# Integration test: a target with a MEMStore LUN (g2) beside a rotating-disk
# LUN (atlas10k, docs/memstored.md "Disk LUNs"), read by real libiscsi
# clients: VPD B1h gives the disk's rotation rate and the MEMStore's "not
# reported"; READ CAPACITY(16) the disk's capacity; random reads on the disk
# are delivered at the disk model's times (never early, bench/timing-report)
# and take a disk's milliseconds, where the MEMStore's take under one.
# Usage: disk_lun_test.sh MEMSTORED ISCSI_LOAD TIMING_REPORT
set -euo pipefail
source "$(dirname "$0")/lib.sh"
memstored=$1 load=$2 report=$3
target=iqn.2026-11.org.memstore:mixed
cat >"$work/mixed.toml" <<EOF
[[target]]
name = "$target"
[[target.lun]]
id = 0
device = "g2"
backing = "memory"
[[target.lun]]
id = 1
device = "atlas10k"
backing = "memory"
EOF
start_memstored "$memstored" 1 --config "$work/mixed.toml" --listen 127.0.0.1:0 \
  --completion-log "$work/completions.csv"
portal=iscsi://127.0.0.1:${ports[0]}
mems=$portal/$target/0
disk=$portal/$target/1
grep -q "LUN 1 of $target opened: atlas10k (17966953 blocks), backing memory" "$log" ||
  fail "no LUN-opened line for the disk"

# VPD B1h (SBC-3 §6.6.2): MEDIUM ROTATION RATE. iscsi-inq reads -c in decimal (177 = B1h).
out=$(iscsi-inq -e 1 -c 177 "$disk") || fail "iscsi-inq B1h, disk"
grep -q "Medium Rotation Rate:10025RPM" <<<"$out" || fail "disk B1h: $out"
out=$(iscsi-inq -e 1 -c 177 "$mems") || fail "iscsi-inq B1h, MEMStore"
grep -q "Medium Rotation Rate:0RPM" <<<"$out" || fail "MEMStore B1h: $out"

# Capacity: the preset's 17,966,953 blocks of 512 bytes.
out=$(iscsi-readcapacity16 "$disk") || fail "iscsi-readcapacity16"
grep -q "RETURNED LOGICAL BLOCK ADDRESS:17966952" <<<"$out" || fail "disk capacity: $out"

# Random 4 KB reads, one at a time, on each LUN.
"$load" --pattern randread --qd 1 --count 200 --csv "$work/disk.csv" "$disk" ||
  fail "iscsi-load on the disk"
"$load" --pattern randread --qd 1 --count 200 --seed 2 --csv "$work/mems.csv" "$mems" ||
  fail "iscsi-load on the MEMStore"
kill "$pid"; wait "$pid" || true; pid=
echo "disk LUN, QD1 random read:"
"$report" "$work/completions.csv" "$work/disk.csv" || fail "disk timing"
# The modeled service times (completion log column 7, by LUN in column 2):
# an Atlas 10K's random 4 KB read is a seek plus latency, about 8.5 ms on
# average (docs/disk-models.md); a G2's well under 1 ms.
mean_ms() {
  awk -F, -v lun="$1" '$2 == lun { s += $7; n++ } END { if (n) printf "%.3f", s / n / 1e6 }' \
    "$work/completions.csv"
}
disk_ms=$(mean_ms 1) mems_ms=$(mean_ms 0)
echo "mean modeled service: disk $disk_ms ms, MEMStore $mems_ms ms"
awk -v d="$disk_ms" -v m="$mems_ms" 'BEGIN { exit !(d > 4 && d < 20 && m > 0 && m < 1.5) }' ||
  fail "disk $disk_ms ms, MEMStore $mems_ms ms: not a disk's and a MEMStore's"
echo "ok"
