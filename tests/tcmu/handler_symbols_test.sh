#!/usr/bin/env bash
# SPDX-License-Identifier: Apache-2.0
# handler_memstore.so exports handler_init and nothing else, and every symbol
# it leaves undefined is either found in its shared-library dependencies or
# exported by the tcmu-runner executable to its handlers.
# Usage: handler_symbols_test.sh HANDLER.so TCMU_INCLUDE_DIR
#   (scripts/fetch-tcmu-headers puts tcmu-runner's main-syms.txt beside the headers)
set -euo pipefail
so=$1
runner_syms=$(tr -d ' \t{};' <"$2/main-syms.txt")
exported=$(nm -D --defined-only "$so" | awk '$2 ~ /^[TDBRVW]$/ {print $3}' | sort)
[ "$exported" = "handler_init" ] || { echo "FAIL: exports: $exported"; exit 1; }

# Undefined tcmur_* symbols must be among what tcmu-runner exports.
missing=()
for s in $(nm -D --undefined-only "$so" | awk '{print $2}' | sed 's/@.*//'); do
  case $s in
    tcmur_*|tcmu_notify_*|tcmu_event_name)
      grep -qx "$s" <<<"$runner_syms" || missing+=("$s") ;;
  esac
done
[ ${#missing[@]} -eq 0 ] || { echo "FAIL: not exported by tcmu-runner: ${missing[*]}"; exit 1; }

# Everything else resolves: ldd -r reports unresolved symbols other than tcmu-runner's.
unresolved=$(ldd -r "$so" 2>&1 | sed -n 's/^undefined symbol: \([^ 	]*\).*/\1/p' |
             grep -vE '^(tcmur_|tcmu_notify_|tcmu_event_name)' || true)
[ -z "$unresolved" ] || { echo "FAIL: unresolved: $unresolved"; exit 1; }
echo "ok: exports handler_init; needs $(nm -D --undefined-only "$so" | grep -c tcmur_) tcmu-runner symbols"
