# SPDX-License-Identifier: Apache-2.0
# Sourced by scripts/test: runs the test command's stages and prints, when
# the run ends (passed or not), one table of each stage's wall time and the
# total, so that CI's log shows which stage grew.
#   stage NAME COMMAND...       runs COMMAND; a failure ends the run
#   stage_begin NAME COMMAND... starts COMMAND in the background, its output
#                               kept until stage_end (one at a time)
#   stage_end                   waits for it, prints its output; a failure
#                               ends the run
#   stage_bg_running            true while that background stage runs
stage_rows=()
stage_t0=$SECONDS
stage_bg_pid="" stage_bg_name="" stage_bg_t0=0 stage_bg_log=""

stage_row() {  # NAME SECONDS STATUS
  stage_rows+=("$(printf '| %-44s | %6d | %s |' "$1" "$2" "$3")")
}

stage() {
  local name=$1 t0=$SECONDS status=ok
  shift
  echo "== stage: $name"
  "$@" || status="FAILED (exit $?)"
  stage_row "$name" $((SECONDS - t0)) "$status"
  [ "$status" = ok ] || exit 1
}

stage_begin() {
  stage_bg_name=$1
  shift
  stage_bg_log=$(mktemp "${TMPDIR:-/tmp}/memstore-stage.XXXXXX")
  stage_bg_t0=$SECONDS
  echo "== stage (in the background, its output at its end): $stage_bg_name"
  # A session of its own, so that a failed run can stop it and its children
  # (QEMU under the VM tests) as one process group. Its end time goes in
  # $log.end: its row shows when it ended, not when stage_end waited.
  setsid bash -c '"$@"; rc=$?; date +%s >"$0.end"; exit $rc' "$stage_bg_log" "$@" \
    >"$stage_bg_log" 2>&1 &
  stage_bg_pid=$!
  stage_bg_epoch=$(date +%s)
}

# True while the background stage is still running.
stage_bg_running() {
  [ -n "$stage_bg_pid" ] && [ ! -s "$stage_bg_log.end" ] && kill -0 "$stage_bg_pid" 2>/dev/null
}

stage_end() {
  [ -n "$stage_bg_pid" ] || return 0
  local status=ok pid=$stage_bg_pid
  stage_bg_pid=""
  wait "$pid" || status="FAILED (exit $?)"
  echo "== stage (background) done: $stage_bg_name"
  cat "$stage_bg_log"
  local took=$((SECONDS - stage_bg_t0))
  [ -s "$stage_bg_log.end" ] && took=$(($(cat "$stage_bg_log.end") - stage_bg_epoch))
  rm -f "$stage_bg_log" "$stage_bg_log.end"
  stage_row "$stage_bg_name (beside the above)" "$took" "$status"
  [ "$status" = ok ] || exit 1
}

stage_table() {
  local rc=$?
  # A run that failed with a stage still in the background stops it.
  if [ -n "$stage_bg_pid" ]; then
    kill -- -"$stage_bg_pid" 2>/dev/null || true
    wait "$stage_bg_pid" 2>/dev/null || true
    echo "== stage (background) stopped: $stage_bg_name; its output:"
    cat "$stage_bg_log"
    rm -f "$stage_bg_log" "$stage_bg_log.end"
    stage_row "$stage_bg_name" $((SECONDS - stage_bg_t0)) "stopped"
  fi
  echo
  echo "== where the time went (wall seconds)"
  printf '| %-44s | %6s | %s |\n' stage s result
  printf '|%s|%s|%s|\n' "$(printf -- '-%.0s' {1..46})" "--------" "--------"
  printf '%s\n' "${stage_rows[@]}"
  printf '| %-44s | %6d | %s |\n' "total" $((SECONDS - stage_t0)) "$([ "$rc" = 0 ] && echo passed || echo FAILED)"
}
trap stage_table EXIT
