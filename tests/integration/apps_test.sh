#!/usr/bin/env bash
# SPDX-License-Identifier: Apache-2.0
# Integration test of the thesis' two applications (docs/applications.md)
# against a running memstored (timing off) and on the simulated device:
#  - memstore-scan reads all of a small device, with free blocks beside every
#    foreground request, each batch the foreground's own media steps (one per
#    row it crosses), for M = 0 and M = 2; the
#    simulated run of the same seed costs the same modeled time;
#  - memstore-capsule loads a table in all three layouts (row-major,
#    vertical, capsules), verifies every block it reads, the capsule layout's
#    single-attribute scan beats the row-major one and its record reads beat
#    the vertical one, and the simulated run costs the same per query;
#  - bad arguments are refused with exit status 2.
# Usage: apps_test.sh MEMSTORED MEMSTORE_SCAN MEMSTORE_CAPSULE
set -euo pipefail
source "$(dirname "$0")/lib.sh"
memstored=$1 scan=$2 capsule=$3
command -v jq >/dev/null || { echo "jq is needed (scripts/install-deps)"; exit 1; }

# A small device: p = 10, N = 40 (Ny = 4), Sx = 100, Sy = 5: 20,000 blocks.
# The idle timeout is off so that a host-side pause never spins the sled
# down: then memstored and the model see the same service times.
small() {
  cat <<TOML
tips = 2560
active_tips = 640
region_bits_x = 100
region_bits_y = 460
micropositioning = $1
[power]
idle_timeout_ns = -1
TOML
}
small 0 >"$work/small.toml"
small 2 >"$work/small-m2.toml"

cat >"$work/memstored.toml" <<TOML
[[target]]
name = "iqn.2026-11.org.memstore:apps"
portals = ["127.0.0.1:0"]
[[target.lun]]
id = 0
backing = "memory"
timing = "off"
device_config = "$work/small.toml"
[[target.lun]]
id = 1
backing = "memory"
timing = "off"
device_config = "$work/small-m2.toml"
[[target.lun]]
id = 2
backing = "memory"
timing = "off"
device_config = "$work/small.toml"
TOML
start_memstored "$memstored" 1 --config "$work/memstored.toml"
url=iscsi://127.0.0.1:${ports[0]}/iqn.2026-11.org.memstore:apps

check() {  # check FILE JQ-EXPRESSION WHAT
  jq -e "$2" "$1" >/dev/null || fail "$3: $(head -c 3000 "$1")"
}
same() {  # same FILE-A FILE-B JQ-EXPRESSION WHAT
  local a b
  a=$(jq -c "$3" "$1") b=$(jq -c "$3" "$2")
  [ "$a" = "$b" ] || fail "$4: memstored $a, simulated $b"
}

# --- free-block scan (§6.3.6) ----------------------------------------------
for m in 0 2; do
  lun=$([ $m = 0 ] && echo 0 || echo 1)
  config=$work/$([ $m = 0 ] && echo small || echo small-m2).toml
  "$scan" --target "$url/$lun" --seed 5 --json >"$work/scan-dev-$m.json" || fail "memstore-scan M=$m"
  check "$work/scan-dev-$m.json" ".complete and .percent_read == 100 and .blocks_read == 20000
    and .geometry.p == 10 and .geometry.M == $m
    and .mean_free_blocks_per_request > 0 and .mean_free_blocks_per_request <= 12
    and .samples[1].free_blocks > 2 * .samples[1].requests
    and .media_steps == .foreground_accesses and .foreground_accesses > .requests
    and .free_blocks + .foreground_new_blocks == 20000
    and .modeled_time_s > 0 and .samples[-1].percent == 100" "scan against memstored, M=$m"
  "$scan" --sim --config "$config" --seed 5 --json >"$work/scan-sim-$m.json" ||
    fail "memstore-scan --sim M=$m"
  same "$work/scan-dev-$m.json" "$work/scan-sim-$m.json" \
    '[.requests, .free_blocks, .media_steps, .modeled_us_reported]' "scan M=$m (requests, free, steps, µs)"
done
check "$work/scan-dev-2.json" ".requests < $(jq .requests "$work/scan-dev-0.json")" \
  "micropositioning should finish in fewer requests"
# The text report, and the baseline without background reads.
"$scan" --sim --config "$work/small.toml" --max-requests 300 >"$work/scan.txt" || fail "text report"
grep -q "free blocks per foreground request" "$work/scan.txt" || fail "text report: $(cat "$work/scan.txt")"
"$scan" --sim --config "$work/small.toml" --max-requests 300 --no-background --json >"$work/nobg.json"
check "$work/nobg.json" '.free_blocks == 0 and (.complete | not)' "no background"

# --- capsule table (§6.3.7) ------------------------------------------------
capsule_args=(--records 20000 --attributes 8,16,8 --short-scans 10 --random-reads 50 --verify --json)
"$capsule" --target "$url/2" "${capsule_args[@]}" >"$work/cap-dev.json" || fail "memstore-capsule"
check "$work/cap-dev.json" '.verified and .layouts.capsule.capsule_blocks == 4
  and .layouts.capsule.records_per_capsule == 64 and (.runs | length) == 18
  and all(.runs[] | select(.query != "load"); .verified_blocks == .blocks and .blocks > 0)' "capsule against memstored"
time_of() { jq "[.runs[] | select(.layout == \"$2\" and .query == \"$3\")][0].modeled_time_s" "$1"; }
for q in "a1 scan" "a1+a2 scan"; do
  n=$(time_of "$work/cap-dev.json" normal "$q") c=$(time_of "$work/cap-dev.json" capsule "$q")
  jq -en "$c < $n" >/dev/null || fail "$q: capsule $c s is not faster than normal $n s"
done
# A whole record: one page row-major, one capsule, but a page in each of the
# vertical layout's three attribute runs.
q="random record reads (50)"
v=$(time_of "$work/cap-dev.json" vertical "$q") c=$(time_of "$work/cap-dev.json" capsule "$q")
jq -en "$c < $v" >/dev/null || fail "$q: capsule $c s is not faster than vertical $v s"
"$capsule" --sim --config "$work/small.toml" "${capsule_args[@]}" >"$work/cap-sim.json" ||
  fail "memstore-capsule --sim"
same "$work/cap-dev.json" "$work/cap-sim.json" '[.runs[] | [.layout, .query, .modeled_us_reported, .media_steps]]' \
  "capsule queries (modeled µs, steps)"
"$capsule" --sim --config "$work/small.toml" --records 20000 --attributes 8,16,8 \
  --short-scans 5 --random-reads 5 >"$work/cap.txt" || fail "capsule text report"
grep -q "capsule/normal" "$work/cap.txt" || fail "capsule text report: $(cat "$work/cap.txt")"

# --- refusals ----------------------------------------------------------------
expect_usage() {  # expect_usage WORDS CMD...
  local words=$1 rc=0
  shift
  "$@" >"$work/out.txt" 2>"$work/err.txt" || rc=$?
  [ "$rc" = 2 ] || fail "$* exited $rc, not 2: $(cat "$work/err.txt")"
  grep -qF -- "$words" "$work/err.txt" || fail "$*: '$words' not in: $(cat "$work/err.txt")"
}
expect_usage "excludes" "$scan" --sim --target "$url/0"
expect_usage "--target URL or --sim" "$scan"
expect_usage "does not fit the device's 20000 blocks" "$scan" --sim --config "$work/small.toml" \
  --request-kb 20000
expect_usage "one parallel access" "$capsule" --sim --config "$work/small.toml" --records 1000 \
  --attributes 8,16,8,8
expect_usage "the device has 20000" "$capsule" --sim --config "$work/small.toml"
expect_usage "fit on the device" "$capsule" --sim --config "$work/small.toml" --records 20000000 \
  --attributes 1,1 --layout capsule
expect_usage "active_tips" "$capsule" --sim --set active_tips=650
echo "apps: all checks passed"
