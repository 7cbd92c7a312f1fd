#!/usr/bin/env bash
# SPDX-License-Identifier: Apache-2.0
# Renders each manual page given with man(1) and groff's warnings on, and
# fails on any warning, or on a page whose NAME section does not name it.
# Exits 77 (skipped) when man is not installed.
set -euo pipefail
if ! command -v man >/dev/null; then
  echo "man is not installed: skipped"
  exit 77
fi
status=0
for page in "$@"; do
  name=$(basename "$page")
  name=${name%.*}
  warnings=$(LC_ALL=C.UTF-8 MANWIDTH=80 man --warnings -E UTF-8 -l "$page" 2>&1 >/dev/null) || {
    echo "$page: man failed"
    status=1
  }
  if [ -n "$warnings" ]; then
    echo "$page: warnings:"
    echo "$warnings"
    status=1
  fi
  rendered=$(LC_ALL=C.UTF-8 MANWIDTH=80 man -E UTF-8 -l "$page" 2>/dev/null)
  if ! grep -A1 '^NAME' <<<"$rendered" | grep -q "^ *$name - "; then
    echo "$page: NAME does not name $name"
    status=1
  fi
  if grep -q '@[A-Z_]*@' "$page"; then
    echo "$page: an unfilled @VARIABLE@"
    status=1
  fi
done
exit $status
