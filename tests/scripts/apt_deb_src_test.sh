#!/usr/bin/env bash
# SPDX-License-Identifier: Apache-2.0
# scripts/apt-deb-src on made-up apt configurations (APT_SOURCES_ROOT): the
# deb-src entries it derives, and those it must leave out.
set -euo pipefail
script=$1
root=$(mktemp -d "${TMPDIR:-/tmp}/apt-deb-src.XXXXXX")
trap 'rm -rf "$root"' EXIT
fail=0
check() {  # NAME EXPECTED ACTUAL
  if [ "$2" != "$3" ]; then
    echo "$1: expected"
    echo "$2"
    echo "got"
    echo "$3"
    fail=1
  fi
}

# 1. deb822, as bookworm installs it: the release's stanza is copied with
#    Types: deb-src; the security archive and a third-party one are not.
mkdir -p "$root/a/etc/apt/sources.list.d"
cat >"$root/a/etc/apt/sources.list.d/debian.sources" <<'S'
Types: deb
# a comment inside the stanza
URIs: http://mirror.example/debian
Suites: bookworm bookworm-updates
Components: main contrib
Signed-By: /usr/share/keyrings/debian-archive-keyring.gpg

Types: deb
URIs: http://security.example/debian-security
Suites: bookworm-security
Components: main
S
cat >"$root/a/etc/apt/sources.list.d/vendor.sources" <<'S'
Types: deb
URIs: https://vendor.example/apt
Suites: stable
Components: main
S
check "deb822" "Types: deb-src
URIs: http://mirror.example/debian
Suites: bookworm bookworm-updates
Components: main contrib
Signed-By: /usr/share/keyrings/debian-archive-keyring.gpg" \
  "$(APT_SOURCES_ROOT=$root/a "$script" bookworm)"

# 2. One-line entries, options kept; other releases and deb-src lines left out.
mkdir -p "$root/b/etc/apt"
cat >"$root/b/etc/apt/sources.list" <<'S'
# deb http://commented.example/debian bookworm main
deb [arch=amd64 signed-by=/etc/apt/keyrings/k.gpg] http://mirror.example/debian bookworm main non-free # note
deb http://security.example/debian-security bookworm-security main
deb http://old.example/debian bullseye main
deb-src http://src.example/debian bookworm main
S
check "one-line" "Types: deb-src
URIs: http://mirror.example/debian
Suites: bookworm
Components: main non-free
Signed-By: /etc/apt/keyrings/k.gpg
Architectures: amd64" "$(APT_SOURCES_ROOT=$root/b "$script" bookworm)"

# 3. A disabled stanza, and nothing for another release: no output.
mkdir -p "$root/c/etc/apt/sources.list.d"
cat >"$root/c/etc/apt/sources.list.d/debian.sources" <<'S'
Types: deb
URIs: http://mirror.example/debian
Suites: bookworm
Components: main
Enabled: no
S
check "disabled" "" "$(APT_SOURCES_ROOT=$root/c "$script" bookworm)"
check "other release" "" "$(APT_SOURCES_ROOT=$root/a "$script" trixie)"
exit $fail
