#!/usr/bin/env bash
# SPDX-License-Identifier: Apache-2.0
# Integration test of the host library and memsctl against a running
# memstored: geometry and equivalence classes from mode page 20h equal the
# device model's (memsim) on G2 and on a small device with micropositioning
# and a conflict group; batch write -> batch read round trips; invalid batches
# print the sense in words; stats and set; CHAP in the URL; the C API example.
# Usage: host_test.sh MEMSTORED MEMSCTL MEMSIM HOST_C_EXAMPLE HOST_CPP_EXAMPLE
set -euo pipefail
source "$(dirname "$0")/lib.sh"
memstored=$1 memsctl=$2 memsim=$3 cexample=$4 cppexample=$5
command -v jq >/dev/null || { echo "jq is needed (scripts/install-deps)"; exit 1; }

# The small device: N = 12, p = 4, Sx = 200, Sy = 5, M = 3, G = 3. One file
# for memstored and memsim: its keys only validate together.
cat >"$work/small.toml" <<TOML
tips = 768
active_tips = 256
region_bits_x = 200
region_bits_y = 460
micropositioning = 3
conflict_group = 3
TOML
small_sim=(--config "$work/small.toml")

cat >"$work/memstored.toml" <<TOML
[daemon]
control_initiators = ["iqn.2026-11.org.memstore:memsctl"]   # memsctl's default name

[[target]]
name = "iqn.2026-11.org.memstore:host"
portals = ["127.0.0.1:0"]
[[target.lun]]
id = 0
backing = "memory"
timing = "off"
[[target.lun]]
id = 1
backing = "memory"
timing = "off"
device_config = "$work/small.toml"

[[target]]
name = "iqn.2026-11.org.memstore:chap"
portals = ["127.0.0.1:0"]
[target.chap]
user = "alice"
secret = "alice-secret-123"
[[target.lun]]
backing = "memory"
timing = "off"
TOML
start_memstored "$memstored" 2 --config "$work/memstored.toml"
url=iscsi://127.0.0.1:${ports[0]}/iqn.2026-11.org.memstore:host
g2=$url/0
small=$url/1

ms() { "$memsctl" "$@"; }
# expect_fail STATUS WORDS CMD...: CMD exits with STATUS and says WORDS on stderr.
expect_fail() {
  local want=$1 words=$2 rc=0
  shift 2
  "$@" >"$work/out.txt" 2>"$work/err.txt" || rc=$?
  [ "$rc" = "$want" ] || fail "$* exited $rc, not $want: $(cat "$work/err.txt")"
  grep -qF -- "$words" "$work/err.txt" || fail "$*: '$words' not in: $(cat "$work/err.txt")"
}
check() {  # check FILE JQ-EXPRESSION WHAT
  jq -e "$2" "$1" >/dev/null || fail "$3: $(cat "$1")"
}

# --- info: geometry from page 20h equals the model's -----------------------
ms info "$g2" --json >"$work/info.json" || fail "memsctl info"
check "$work/info.json" '.memstore and .capacity.blocks == 6750000 and .capacity.block_size == 512
  and .geometry.p == 10 and .geometry.N == 100 and .geometry.ST == 270 and .geometry.SC == 2700
  and .physics.tips == 6400 and .control.timing == "off" and .control.scheduler == "fcfs"' "info --json (G2)"
"$memsim" geometry --device g2 --json >"$work/sim-g2.json"
ms info "$small" --json >"$work/info-small.json" || fail "memsctl info (small)"
"$memsim" geometry --device g2 "${small_sim[@]}" --json >"$work/sim-small.json"
for key in p N Sx Sy M Nx Ny ST SC sleds conflict_group bidirectional; do
  [ "$(jq ".geometry.$key" "$work/info.json")" = "$(jq ".$key" "$work/sim-g2.json")" ] ||
    fail "G2 geometry $key differs from memsim's"
  [ "$(jq ".geometry.$key" "$work/info-small.json")" = "$(jq ".$key" "$work/sim-small.json")" ] ||
    fail "small geometry $key differs from memsim's"
done
check "$work/info-small.json" '.geometry.M == 3 and .geometry.conflict_group == 3' "small device"
ms info "$g2" | grep -q "p  = 10 (level of parallelism)" || fail "info text"
echo "info: geometry of both LUNs equals memsim geometry"

# --- equiv / ensemble / conflict: the library equals the model ------------
for lbn in 0 33 269 270 2699 2700 3000123 4444444 6749999; do
  a=$(ms equiv "$g2" "$lbn" --json | jq -c .equivalence_class)
  b=$("$memsim" equiv --device g2 --lbn "$lbn" --json | jq -c .equivalence_class)
  [ "$a" = "$b" ] || fail "G2 equivalence class of $lbn: memsctl $a, memsim $b"
done
for lbn in 0 1 5 59 60 107 1000 5555 6000 11999; do
  a=$(ms equiv "$small" "$lbn" --json | jq -c .equivalence_class)
  b=$("$memsim" equiv --device g2 "${small_sim[@]}" --lbn "$lbn" --json | jq -c .equivalence_class)
  [ "$a" = "$b" ] || fail "small equivalence class of $lbn: memsctl $a, memsim $b"
  a=$(ms equiv "$small" "$lbn" --micropositioning 1 --json | jq -c .equivalence_class)
  b=$("$memsim" equiv --device g2 "${small_sim[@]}" --lbn "$lbn" --micropositioning 1 --json |
      jq -c .equivalence_class)
  [ "$a" = "$b" ] || fail "small equivalence class of $lbn with M = 1 differs"
done
[ "$(ms equiv "$small" 6000 --json | jq '.equivalence_class | length')" = 84 ] ||
  fail "|E| away from the edges should be (2M + 1) N = 84"
ms ensemble "$g2" 300 --json >"$work/ens.json"
check "$work/ens.json" '.first == 270 and .last == 539 and .blocks == 270' "ensemble --json"
ms conflict "$small" 0 1 --json >"$work/c.json"
check "$work/c.json" '.conflicting == true' "squares 0 and 1 share a conflict group"
ms conflict "$small" 0 3 --json >"$work/c.json"
check "$work/c.json" '.conflicting == false' "squares 0 and 3 are in different groups"
expect_fail 2 "LBN 6750000 is beyond the device (LBNs 0..6749999)" ms equiv "$g2" 6750000
echo "equiv, ensemble, conflict: equal to the model on G2 and the small device"

# --- batches ----------------------------------------------------------------
head -c $((4 * 512)) /dev/urandom >"$work/a.bin"
head -c 512 /dev/urandom >"$work/b.bin"
ms batch "$g2" --write 1000:4@"$work/a.bin" --write 500000:1@"$work/b.bin" --fua --json \
  >"$work/w.json" || fail "batch write"
check "$work/w.json" '.descriptors[0].op == "write" and .blocks == 5 and .media_steps >= 1
  and .service_us > 0' "batch write --json"
ms batch "$g2" --read 1000:4@"$work/a.out" --read 500000:1@"$work/b.out" --json >"$work/r.json" ||
  fail "batch read"
check "$work/r.json" '.read_bytes == 2560 and .descriptors[1].file != null' "batch read --json"
cmp "$work/a.bin" "$work/a.out" || fail "batch read returned other data than the batch wrote"
cmp "$work/b.bin" "$work/b.out" || fail "batch read returned other data than the batch wrote (2)"
ms batch "$g2" --read 1000:4 --read 500000:1 --output "$work/all.out" >/dev/null
cat "$work/a.bin" "$work/b.bin" | cmp - "$work/all.out" || fail "--output is not the reads in order"
# Command-line order is descriptor order: the read sees the write before it.
ms batch "$small" --write 10:1@"$work/b.bin" --read 10:1@"$work/c.out" >/dev/null
cmp "$work/b.bin" "$work/c.out" || fail "read after write in one batch"
echo "batch: write then read round-trips the data"

# p members of one equivalence class: one media step, even STRICT.
reads=()
for l in $(ms equiv "$g2" 3000123 --json | jq -r '.equivalence_class[0:10][]'); do
  reads+=(--read "$l:1")
done
ms batch "$g2" "${reads[@]}" --strict --json >"$work/p.json" || fail "parallel STRICT batch"
check "$work/p.json" '.media_steps == 1 and .host_parallel_accessible' "parallel batch"
ms batch "$small" --read 0:3 --json >"$work/g.json"
check "$work/g.json" '.media_steps == 3 and (.host_parallel_accessible | not)' \
  "a conflict group of 3 squares needs 3 steps"

# Invalid batches: the device's sense, in words.
expect_fail 1 "ILLEGAL REQUEST: BATCH NOT PARALLEL-ACCESSIBLE" \
  ms batch "$g2" --read 0:1 --read 3000000:1 --strict
grep -qF "(26h/80h)" "$work/err.txt" || fail "the vendor ASC/ASCQ is not shown"
expect_fail 1 "BATCH NOT PARALLEL-ACCESSIBLE" ms batch "$g2" --read 0:1 --read 3000000:1 --strict --json
check "$work/out.txt" '.error.kind == "check condition" and .error.sense.key_name == "ILLEGAL REQUEST"
  and .error.sense.asc == "26h" and .error.sense.ascq == "80h"' "error --json"
head -c 2048 /dev/zero >"$work/z4.bin"
expect_fail 1 "INVALID FIELD IN PARAMETER LIST (26h/00h) at parameter list byte 28 (descriptor 1 (write LBA 102, 1 blocks), LBA)" \
  ms batch "$g2" --write 100:4@"$work/z4.bin" --write 102:1@"$work/b.bin"
expect_fail 2 "beyond the device's last block 6749999" ms batch "$g2" --read 6749999:2
expect_fail 2 "--read 12x:4: LBN '12x' is not a number" ms batch "$g2" --read 12x:4
expect_fail 2 "--write 5:1: expected LBN:COUNT@FILE" ms batch "$g2" --write 5:1
expect_fail 2 "holds 2048 bytes; 1 blocks of 512 bytes need 512" \
  ms batch "$g2" --write 5:1@"$work/z4.bin"
expect_fail 2 "give at least one --read" ms batch "$g2"
echo "batch: STRICT, overlap, range and syntax errors reported in words"

# --- stats and set ----------------------------------------------------------
ms stats "$g2" --json >"$work/stats.json" || fail "stats"
check "$work/stats.json" '(.power.time_ms | keys | length) == 5 and .power.energy_uj.seek >= 0
  and .positioning.transfer.count >= 1 and .positioning.seek_x.mean_ns >= 0
  and .positioning.queue_depth.max >= 0' "stats --json"
ms stats "$g2" | grep -q "positioning (log page 31h)" || fail "stats text"
ms set "$small" --scheduler sptf --timing scaled --scale 2 --json >"$work/set.json" || fail "set"
check "$work/set.json" '.before.scheduler == "fcfs" and .after.scheduler == "sptf"
  and .after.timing == "scaled" and .after.scale == 2' "set --json"
ms info "$small" --json | jq -e '.control.scheduler == "sptf"' >/dev/null || fail "set did not stick"
ms set "$small" --timing off --scheduler fcfs >/dev/null || fail "set back"
expect_fail 2 "--scheduler 'nope' is not one of fcfs, clook, sstf, sptf, asptf, sdf, zsptf" \
  ms set "$small" --scheduler nope
expect_fail 2 "nothing to set" ms set "$small"
expect_fail 2 "--timing 'slow' must be realtime, scaled or off" ms set "$small" --timing slow
# Page 22h changes the timing of the whole LUN: only control_initiators may.
expect_fail 1 "ACCESS DENIED - NO ACCESS RIGHTS" \
  ms set "$small" --initiator iqn.2026-11.org.example:guest --timing scaled --scale 4
ms info "$small" --json | jq -e '.control.timing == "off"' >/dev/null || fail "a refused set stuck"
grep -q "MODE SELECT of control page 22h refused to iqn.2026-11.org.example:guest" "$log" ||
  fail "the refused MODE SELECT is not in the log"
echo "stats and set: log pages 30h/31h and page 22h through MODE SELECT, for control initiators only"

# --- transports and logins --------------------------------------------------
chap=iscsi://127.0.0.1:${ports[1]}/iqn.2026-11.org.memstore:chap/0
ms info "iscsi://alice%alice-secret-123@${chap#iscsi://}" --json >/dev/null || fail "CHAP in the URL"
expect_fail 1 "cannot log in" ms info "iscsi://alice%wrong-secret-00@${chap#iscsi://}"
expect_fail 1 "cannot" ms info "iscsi://127.0.0.1:1/iqn.2026-11.org.memstore:none/0"
expect_fail 2 "is not an iSCSI URL" ms info "iscsi://"
# A URL that cannot be used is named without its passwords.
expect_fail 2 "'iscsi://alice%***@127.0.0.1?target_user=t&target_password=***' is not an iSCSI URL" \
  ms info "iscsi://alice%url-secret-1@127.0.0.1?target_user=t&target_password=url-secret-2"
if grep -q "url-secret" "$work/err.txt"; then fail "a password in memsctl's error: $(cat "$work/err.txt")"; fi
expect_fail 2 "neither an iSCSI URL" ms info disk0
echo "transports: CHAP from the URL, refused logins and bad targets named"

# --- the C and C++ examples --------------------------------------------------------
"$cexample" "$g2" 3000123 >"$work/c-example.txt" || { cat "$work/c-example.txt"; fail "C example (G2)"; }
grep -q "read data matches" "$work/c-example.txt" || fail "C example output"
grep -q "1 media step" "$work/c-example.txt" || fail "C example: p blocks of E should take one step"
"$cexample" "$small" 6000 >"$work/c-example.txt" || { cat "$work/c-example.txt"; fail "C example (small)"; }
"$cppexample" "$small" 6000 >"$work/cpp-example.txt" || fail "C++ example: $(cat "$work/cpp-example.txt")"
grep -q "read 4 blocks of E(6000) in 1 media step" "$work/cpp-example.txt" || fail "C++ example output"
echo "C and C++ examples: equivalence class, conflicts and batches"
echo "ok"
