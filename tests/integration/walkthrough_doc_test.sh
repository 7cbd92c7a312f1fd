#!/usr/bin/env bash
# SPDX-License-Identifier: Apache-2.0
# docs/walkthrough.md, run as written: every ```sh block of the page, in
# order, in an empty directory, with memstored and memsctl from the build on
# the PATH and port 3260 replaced by a free one. Any command that fails fails
# the test (qemu-io's `read -P` fails on data it did not expect).
#
# Usage: walkthrough_doc_test.sh DOC MEMSTORED MEMSCTL
set -euo pipefail
doc=$1
memstored=$2
memsctl=$3
work=$(mktemp -d)
cleanup() {
  # Whatever the page started and did not stop, when a step failed.
  pkill -f "^$memstored --config memstored.toml" 2>/dev/null || true
  rm -rf "$work"
}
trap cleanup EXIT
port=$(python3 -c 'import socket; s = socket.socket(); s.bind(("127.0.0.1", 0)); print(s.getsockname()[1])')
script=$work/walkthrough.sh
{
  echo "set -euo pipefail"
  echo "export PATH=$(dirname "$memstored"):$(dirname "$memsctl"):\$PATH"
  awk '/^```sh$/ {on = 1; next} /^```/ {on = 0} on' "$doc" | sed "s/3260/$port/g"
} >"$script"
if [ "$(grep -c . "$script")" -lt 20 ]; then
  echo "walkthrough_doc: too few commands found in $doc" >&2
  exit 1
fi
cd "$work"
bash "$script" >"$work/out.txt" 2>&1 || { cat "$work/out.txt"; echo "walkthrough_doc: a step failed" >&2; exit 1; }
grep -q '"lun": 1' "$work/out.txt" || { cat "$work/out.txt"; echo "walkthrough_doc: LUN 1 not listed after the restart" >&2; exit 1; }
echo "walkthrough_doc: every command of $doc ran"
