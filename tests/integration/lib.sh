# SPDX-License-Identifier: Apache-2.0
# Shared by the integration tests: start memstored in a scratch directory,
# wait for it to log its bound ports, and stop it on exit.
#   start_memstored MEMSTORED NPORTS ARGS...   sets $work, $log, $pid, ${ports[@]}
#   fail MESSAGE                               prints the daemon log and exits 1

start_memstored() {
  local memstored=$1 nports=$2
  shift 2
  # A new file for each start: the daemon's own redirection truncates it
  # only once it runs, and a reused one still shows the last daemon's
  # ports to the loop below until then.
  log=$(mktemp "$work/memstored.XXXXXX.log")
  "$memstored" "$@" >"$log" 2>&1 &
  pid=$!
  ports=()
  for _ in $(seq 1 100); do
    mapfile -t ports < <(sed -n 's/.*serving .* on 127\.0\.0\.1:\([0-9]*\)$/\1/p' "$log")
    [ "${#ports[@]}" = "$nports" ] && return 0
    sleep 0.05
  done
  echo "memstored did not start:"
  cat "$log"
  exit 1
}

fail() {
  echo "FAIL: $*"
  [ -n "${log:-}" ] && cat "$log"
  exit 1
}

work=$(mktemp -d /tmp/memstore-integration-XXXXXX)
cleanup() {
  [ -n "${pid:-}" ] && { kill "$pid" 2>/dev/null || true; wait "$pid" 2>/dev/null || true; }
  rm -rf "$work"
}
trap cleanup EXIT
