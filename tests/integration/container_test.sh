#!/usr/bin/env bash
# SPDX-License-Identifier: Apache-2.0
# The containers' commands, run outside a container (docker/README.md), so
# that a Dockerfile whose command no longer fits the programs fails here even
# where no container engine is installed:
#  - memstored with the ENTRYPOINT and CMD of docker/memstored/Dockerfile,
#    read from the file; only the binary's path, the port (a free one instead
#    of 3260) and the volume's path (a scratch directory) are replaced. It
#    must serve the image, answer a libiscsi client, and stop with status 0
#    on SIGTERM (docker stop).
#  - docker/tcmu/entrypoint.sh in a mount and PID namespace of its own (its
#    system bus must not meet the host's): it starts the private bus, which
#    answers, and hands its arguments to tcmu-runner (here --version; the
#    backstore path needs LIO, which the VM test covers: scripts/vm-test
#    starts tcmu-runner with this same entrypoint).
#  - each image's run stage installs every shared library of the binary it
#    copies in (container_libs.py: ldd, dpkg -S, apt-cache depends): memstored
#    for docker/memstored, and handler_memstore.so for docker/tcmu when given.
# Usage: container_test.sh MEMSTORED [HANDLER_SO]
set -euo pipefail
source "$(dirname "$0")/lib.sh"
repo=$(cd "$(dirname "$0")/../.." && pwd)
memstored=$1
handler=${2:-}

# --- the images' run-time libraries ---------------------------------------------
python3 "$repo/tests/integration/container_libs.py" "$repo/docker/memstored/Dockerfile" \
  "$memstored" || fail "docker/memstored: a library is missing from the image"
if [ -n "$handler" ]; then
  python3 "$repo/tests/integration/container_libs.py" "$repo/docker/tcmu/Dockerfile" \
    "$handler" || fail "docker/tcmu: a library is missing from the image"
fi

# --- docker/memstored --------------------------------------------------------
# The exec form's JSON arrays, one argument a line.
json_args() {
  sed -n "s/^$1 \\(\\[.*\\]\\)$/\\1/p" "$repo/docker/memstored/Dockerfile" |
    python3 -c 'import json, sys; print("\n".join(json.load(sys.stdin)))'
}
mapfile -t entry < <(json_args ENTRYPOINT)
mapfile -t cmd < <(json_args CMD)
[ "${#entry[@]}" -gt 0 ] && [ "${#cmd[@]}" -gt 0 ] || fail "no ENTRYPOINT or CMD in docker/memstored/Dockerfile"
port=$(python3 -c 'import socket; s=socket.socket(); s.bind(("127.0.0.1", 0)); print(s.getsockname()[1])')
args=()
for a in "${entry[@]:1}" "${cmd[@]}"; do
  a=${a//:3260/:$port}
  args+=("${a//\/var\/lib\/memstore/$work/volume}")
done
mkdir -p "$work/volume"
log=$work/memstored.log
echo "docker/memstored: memstored ${args[*]}"
"$memstored" "${args[@]}" >"$log" 2>&1 &
pid=$!
for _ in $(seq 1 100); do
  grep -q "serving .* on 0.0.0.0:$port" "$log" && break
  kill -0 "$pid" 2>/dev/null || fail "memstored exited"
  sleep 0.05
done
grep -q "serving .* on 0.0.0.0:$port" "$log" || fail "memstored does not serve 0.0.0.0:$port"
ls "$work"/volume/*.img >/dev/null 2>&1 || fail "no image in the volume: $(ls -la "$work/volume")"
out=$(iscsi-inq "iscsi://127.0.0.1:$port/iqn.2026-11.org.memstore:g2/0") || fail "iscsi-inq: $out"
grep -q "Product:MEMStore G2" <<<"$out" || fail "inquiry: $out"
kill -TERM "$pid"
wait "$pid" || fail "memstored exited with status $? on SIGTERM"
pid=""
echo "docker/memstored: served $(basename "$work"/volume/*.img), stopped with status 0"

# --- docker/tcmu/entrypoint.sh -------------------------------------------------
# /run (the bus socket) and /var/lib/dbus (dbus-uuidgen --ensure) are
# private tmpfs mounts; the PID namespace ends the bus with the test.
out=$(unshare --mount --pid --fork --mount-proc sh -c '
  set -e
  mount -t tmpfs tmpfs /run
  mount -t tmpfs tmpfs /var/lib/dbus
  # tcmu-runner --version exits with status 1; the entrypoint got that far
  # only if the bus started (it runs with set -e).
  version=$(sh "$1" --version || true)
  echo "$version"
  dbus-send --system --print-reply --dest=org.freedesktop.DBus /org/freedesktop/DBus \
    org.freedesktop.DBus.GetId >/dev/null
  echo "private bus answers"
' entrypoint "$repo/docker/tcmu/entrypoint.sh" 2>&1) || fail "docker/tcmu/entrypoint.sh: $out"
grep -q "tcmu-runner" <<<"$out" && grep -q "private bus answers" <<<"$out" ||
  fail "docker/tcmu/entrypoint.sh: $out"
echo "docker/tcmu: entrypoint.sh: $(tr '\n' ' ' <<<"$out")"
echo "ok"
