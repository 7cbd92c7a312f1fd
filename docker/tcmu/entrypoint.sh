#!/bin/sh
# SPDX-License-Identifier: Apache-2.0
# Starts a private system bus (targetcli finds user backstores through it)
# and tcmu-runner in the foreground. Create backstores with
#   docker exec <container> targetcli /backstores/user:memstore create ...
# (docs/tcmu.md).
set -e
mkdir -p /run/dbus
dbus-uuidgen --ensure
dbus-daemon --system --fork
exec tcmu-runner "$@"
