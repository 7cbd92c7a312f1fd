# Sourced by scripts/test: runs the test command's stages and prints, when
# the run ends (passed or not), one table of each stage's wall time and the
# total, so that CI's log shows which stage grew.
#   stage NAME COMMAND...   runs COMMAND; a failure ends the run
#   stage_note TEXT         a line printed under the table
stage_rows=()
stage_notes=()
stage_t0=$SECONDS

stage() {
  local name=$1 t0=$SECONDS status=ok
  shift
  echo "== stage: $name"
  "$@" || status="FAILED (exit $?)"
  stage_rows+=("$(printf '| %-44s | %6d | %s |' "$name" $((SECONDS - t0)) "$status")")
  [ "$status" = ok ] || exit 1
}

stage_note() {
  stage_notes+=("$1")
}

stage_table() {
  echo
  echo "== where the time went (wall seconds)"
  printf '| %-44s | %6s | %s |\n' stage s result
  printf '|%s|%s|%s|\n' "$(printf -- '-%.0s' {1..46})" "--------" "--------"
  printf '%s\n' "${stage_rows[@]}"
  printf '| %-44s | %6d |  |\n' "total" $((SECONDS - stage_t0))
  if [ "${#stage_notes[@]}" -gt 0 ]; then printf '%s\n' "${stage_notes[@]}"; fi
}
trap stage_table EXIT
