#!/usr/bin/env bash
# SPDX-License-Identifier: Apache-2.0
# Installs the build into a scratch root with DESTDIR, as a package would,
# and checks the result from there: every file cmake/install.cmake names is
# in place, the installed memstored runs (--version) and serves the
# installed configuration (its paths moved into the scratch root) until
# SIGTERM, the systemd unit verifies, and a C program builds and links
# against the installed host library through its pkg-config file.
# Usage: install_test.sh BUILD_DIR SBINDIR BINDIR LIBDIR INCLUDEDIR
#        MANDIR DOCDIR SYSCONFDIR UNITDIR VERSION TCMU(ON|OFF)
# (directories as absolute install paths, as CMake computed them).
set -euo pipefail
build=$1 sbindir=$2 bindir=$3 libdir=$4 includedir=$5 mandir=$6 docdir=$7 sysconfdir=$8
unitdir=$9 version=${10} tcmu=${11}

root=$(mktemp -d "${TMPDIR:-/tmp}/memstore-install.XXXXXX")
trap 'rm -rf "$root"' EXIT
DESTDIR=$root cmake --install "$build" >/dev/null

fail=0
expect_file() {
  if [ ! -e "$root$1" ]; then
    echo "missing: $1"
    fail=1
  fi
}
for p in memsctl memsim memstore-scan memstore-capsule memstore-crash; do expect_file "$bindir/$p"; done
expect_file "$sbindir/memstored"
for page in man8/memstored.8 man8/memsctl.8 man1/memsim.1 man5/memstored.toml.5; do
  expect_file "$mandir/$page.gz"
done
expect_file "$docdir/copyright"
expect_file "$docdir/changelog.gz"
expect_file "$unitdir/memstored.service"
expect_file "$sysconfdir/memstore/memstored.toml"
expect_file "$docdir/examples/memstored.toml"
expect_file "$docdir/examples/minimal.toml"
expect_file "$docdir/examples/g2-variant.toml"
expect_file "$includedir/memstore/memstore_host.h"
expect_file "$libdir/pkgconfig/memstore-host.pc"
for a in memstore_host memstore_modepages memstore_model; do expect_file "$libdir/lib$a.a"; done
if [ "$tcmu" = ON ]; then expect_file "$libdir/tcmu-runner/handler_memstore.so"; fi

# The installed daemon runs from the scratch root.
out=$("$root$sbindir/memstored" --version)
if ! [[ $out =~ ^memstored\ ${version//./\\.}\ \(git\ ([0-9a-f]+(-dirty)?|unknown)\)$ ]]; then
  echo "installed memstored --version printed: $out"
  fail=1
fi

# The installed configuration, served by the installed daemon: /var/lib/memstore
# and /run/memstored moved into the scratch root, and a free port on loopback
# (--listen replaces the portal). The daemon must create the image, log that it serves, and exit
# 0 on SIGTERM.
config=$root/check/memstored.toml
mkdir -p "$root/check" "$root/var/lib/memstore" "$root/run/memstored"
sed -e "s|/var/lib/memstore|$root/var/lib/memstore|g" -e "s|/run/memstored|$root/run/memstored|g" \
  "$root$sysconfdir/memstore/memstored.toml" >"$config"
"$root$sbindir/memstored" --config "$config" --listen 127.0.0.1:0 >"$root/check/daemon.log" 2>&1 &
daemon=$!
for _ in $(seq 1 100); do
  grep -q "serving" "$root/check/daemon.log" && break
  kill -0 "$daemon" 2>/dev/null || break
  sleep 0.1
done
if grep -q "serving" "$root/check/daemon.log"; then
  kill -TERM "$daemon"
  status=0
  wait "$daemon" || status=$?
  if [ "$status" -ne 0 ]; then
    echo "installed memstored exited with $status on SIGTERM"
    fail=1
  fi
  if ! grep -q "control socket" "$root/check/daemon.log"; then
    echo "installed memstored did not open the control socket the installed configuration names"
    fail=1
  fi
  if [ ! -e "$root/var/lib/memstore/g2-lun0.img" ]; then
    echo "installed memstored did not create the image the installed configuration names"
    fail=1
  fi
else
  kill -KILL "$daemon" 2>/dev/null || true
  wait "$daemon" 2>/dev/null || true
  echo "installed memstored did not serve the installed configuration:"
  cat "$root/check/daemon.log"
  fail=1
fi

# The unit names the installed daemon and the installed configuration.
unit=$root$unitdir/memstored.service
grep -qx "ExecStart=$sbindir/memstored --config $sysconfdir/memstore/memstored.toml" "$unit" || {
  echo "memstored.service: ExecStart does not name $sbindir/memstored and the installed config"
  fail=1
}
# systemd-analyze checks the unit's syntax; the daemon it names must exist,
# so it runs on a copy that points into the scratch root.
if command -v systemd-analyze >/dev/null; then
  check=$root/check/memstored.service
  sed "s|^ExecStart=$sbindir|ExecStart=$root$sbindir|" "$unit" >"$check"
  if ! verify=$(systemd-analyze verify --man=no "$check" 2>&1) || [ -n "$verify" ]; then
    echo "systemd-analyze verify memstored.service:"
    echo "$verify"
    fail=1
  fi
fi

# A C program against the installed header and pkg-config file.
if command -v cc >/dev/null && command -v pkg-config >/dev/null; then
  cat >"$root/check_host.c" <<'C'
#include <memstore/memstore_host.h>
#include <stdio.h>
int main(void) {
  memstore_device* dev = NULL;
  /* No such device: the call fails and says why, without a crash. */
  if (memstore_open("/nonexistent/sg0", NULL, &dev) == 0) return 1;
  printf("%s\n", memstore_last_error());
  return 0;
}
C
  export PKG_CONFIG_SYSROOT_DIR=$root
  export PKG_CONFIG_PATH=$root$libdir/pkgconfig
  # shellcheck disable=SC2046  # pkg-config prints several words on purpose
  if ! cc -o "$root/check_host" "$root/check_host.c" $(pkg-config --cflags --libs memstore-host); then
    echo "a C program does not build against the installed host library"
    fail=1
  elif ! "$root/check_host" >/dev/null; then
    echo "the C program linked against the installed host library failed"
    fail=1
  fi
fi
exit $fail
