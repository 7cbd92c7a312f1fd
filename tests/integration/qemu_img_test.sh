#!/usr/bin/env bash
# SPDX-License-Identifier: Apache-2.0
# Integration test: QEMU's iscsi:// block driver against memstored. An image
# goes into the LUN with qemu-img convert and comes back out byte-identical;
# qemu-io writes and verifies patterns.
# Usage: qemu_img_test.sh MEMSTORED
set -euo pipefail
source "$(dirname "$0")/lib.sh"
# A small G2-like device (100 cylinders: 270,000 blocks, 138 MB) keeps the
# full read-back short.
cat >"$work/memstored.toml" <<TOML
[[target]]
name = "iqn.2026-11.org.memstore:qemu"
portals = ["127.0.0.1:0"]
[[target.lun]]
backing = "memory"
timing = "off"
set = ["region_bits_x = 100"]
TOML
start_memstored "$1" 1 --config "$work/memstored.toml"
port=${ports[0]}
lun=iscsi://127.0.0.1:$port/iqn.2026-11.org.memstore:qemu/0

size=$((270000 * 512))
head -c 16M /dev/urandom >"$work/in.raw"
truncate -s "$size" "$work/in.raw"
qemu-img convert -n -f raw -O raw "$work/in.raw" "$lun" || fail "qemu-img convert into the LUN"
qemu-img convert -f raw -O raw "$lun" "$work/out.raw" 2>"$work/convert.err" || fail "qemu-img convert out of the LUN"
[ "$(stat -c %s "$work/out.raw")" = "$size" ] || fail "image size $(stat -c %s "$work/out.raw") != $size"
cmp "$work/in.raw" "$work/out.raw" || fail "round trip differs"
echo "qemu-img convert: $size bytes in and out, identical"

qemu-io -f raw -c "write -P 0x5a 1048576 65536" -c "read -P 0x5a 1048576 65536" \
  -c "write -P 0xa5 12345600 4096" -c "read -P 0xa5 12345600 4096" "$lun" >"$work/io.out" ||
  fail "qemu-io: $(cat "$work/io.out")"
grep -q "Pattern verification failed" "$work/io.out" && fail "qemu-io pattern: $(cat "$work/io.out")"
echo "ok"
