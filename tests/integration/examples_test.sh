#!/usr/bin/env bash
# SPDX-License-Identifier: Apache-2.0
# The examples start clean: memstored on examples/minimal.toml as it is, and
# on examples/memstored.toml (every key) with only its service paths and
# ports moved into a scratch directory, serves its LUNs to a plain iscsi-ls
# (no CHAP, no ACL) and reads LUN 0 without a fault.
# Usage: examples_test.sh MEMSTORED SOURCE_DIR
set -euo pipefail
source "$(dirname "$0")/lib.sh"
memstored=$1 src=$2

served() {  # served TARGET LUNS: iscsi-ls lists TARGET with LUNS LUNs; LUN 0 reads
  local url="iscsi://127.0.0.1:${ports[0]}"
  iscsi-ls -s "$url" >"$work/ls" 2>&1 || fail "iscsi-ls: $(cat "$work/ls")"
  grep -q "Target:$1 " "$work/ls" || fail "iscsi-ls does not list $1: $(cat "$work/ls")"
  [ "$(grep "Lun:" "$work/ls" | sort -u | wc -l)" = "$2" ] || fail "iscsi-ls lists not $2 LUNs: $(cat "$work/ls")"
  iscsi-readcapacity16 "$url/$1/0" >/dev/null || fail "READ CAPACITY(16) of LUN 0"
  # A 1 MiB read from LBA 0 through QEMU's iSCSI driver: no fault fires.
  qemu-io -f raw -c "read 0 1M" "$url/$1/0" >"$work/io" 2>&1 ||
    fail "qemu-io read of LUN 0: $(cat "$work/io")"
  if grep -qi "error" "$work/io"; then fail "qemu-io: $(cat "$work/io")"; fi
}

# The minimal example as it is, but for its port (3260 may be taken here).
sed 's|127.0.0.1:3260|127.0.0.1:0|' "$src/examples/minimal.toml" >"$work/minimal.toml"
cmp -s <(sed 's|127.0.0.1:0|127.0.0.1:3260|' "$work/minimal.toml") "$src/examples/minimal.toml" ||
  fail "the minimal example changed beyond its port"
start_memstored "$memstored" 1 --config "$work/minimal.toml"
served iqn.2026-11.org.memstore:g2 1
kill "$pid"
wait "$pid" || true
pid=
echo "minimal.toml: served as it is"

# The every-key reference, its service paths and ports moved.
mkdir -p "$work/state"
sed -e "s|/var/lib/memstore|$work/state|g" -e "s|/run/memstored/control.sock|$work/control.sock|" \
  -e "s|/usr/share/doc/memstore/examples/|$src/examples/|" -e 's|127.0.0.1:9464|127.0.0.1:0|' \
  -e 's|127.0.0.1:3260|127.0.0.1:0|' -e 's|\[::1\]:3260|[::1]:0|' \
  "$src/examples/memstored.toml" >"$work/every-key.toml"
start_memstored "$memstored" 1 --config "$work/every-key.toml"
served iqn.2026-11.org.memstore:g2 3
# Its IPv6 portal is logged as `portals` writes it, in brackets.
grep -q 'serving iqn.2026-11.org.memstore:g2 on \[::1\]:[0-9]*$' "$log" ||
  fail "the IPv6 portal is not logged as [::1]:PORT"
echo "memstored.toml: served with its paths and ports moved"
echo "ok"
