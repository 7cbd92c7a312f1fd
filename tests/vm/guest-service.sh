#!/bin/bash
# SPDX-License-Identifier: Apache-2.0
# The service case of the VM test (scripts/vm-test-service), run under
# systemd as PID 1 by the guest's memstore-guest.service from the 9p share
# /mnt/memstore, which also holds the memstore .deb. What issue 18 asks the
# package and the unit to show on a fresh bookworm:
#   the .deb installs with dpkg -i; `systemctl start memstored` serves the
#   installed configuration's LUN (a file under /var/lib/memstore, through
#   the unit's sandbox) and open-iscsi in the guest logs in to it on
#   127.0.0.1; data written through the block device reads back;
#   `systemctl reload` applies a configuration change (memsctl admin through
#   the control socket in /run/memstored sees it); `systemctl stop` ends the
#   daemon with status 0 and the data is in the image file afterwards;
#   `man memstored` and `memstored --version` work.
#
# Markers on the console: those of guest-markers.sh, then
#   MEMSTORE-VM: DONE pass=N fail=M
set -uo pipefail
share=/mnt/memstore
export PATH=/usr/sbin:/usr/bin:/sbin:/bin
export SYSTEMD_PAGER= SYSTEMD_COLORS=0

source "$share/guest-markers.sh"  # ok, bad; pass and fail
oneline() { tail -"${2:-5}" <<<"$1" | tr '\n' ' '; }
finish() {
  echo "MEMSTORE-VM: journal of memstored:"
  journalctl -u memstored --no-hostname -o short-monotonic 2>&1 | tail -60 | sed 's/^/  /'
  echo "MEMSTORE-VM: DONE pass=$pass fail=$fail"
  exit 0
}

iqn=iqn.2026-11.org.memstore:g2  # the installed configuration's target
conf=/etc/memstore/memstored.toml

# PID 1 is systemd, not the stub init of the other cases.
init=$(ps -o comm= -p 1)
if [ "$init" = systemd ] && [ "$(systemctl is-system-running 2>&1)" != offline ]; then
  ok systemd-pid1 "systemd $(systemctl --version | sed -n '1s/^systemd \([0-9]*\).*/\1/p')," \
    "state $(systemctl is-system-running 2>&1)"
else
  bad systemd-pid1 "PID 1 is $init"
  finish
fi

# --- the package --------------------------------------------------------------
deb=$(ls "$share"/memstore_*.deb 2>/dev/null | head -1)
if out=$(dpkg -i "$deb" 2>&1) && dpkg-query -W -f='${Status}' memstore | grep -q "install ok installed"; then
  ok deb-install "$(basename "$deb")"
else
  bad deb-install "$(oneline "$out" 10)"
  finish
fi
# The package leaves the service off: port 3260 may be someone else's.
state=$(systemctl is-enabled memstored 2>&1)
[ "$state" = disabled ] && ok deb-leaves-service-disabled || bad deb-leaves-service-disabled "$state"

out=$(memstored --version 2>&1)
if grep -qE '^memstored [0-9]+\.[0-9]+\.[0-9]+ \(git [0-9a-f]{7,}(-dirty)?\)$' <<<"$out"; then
  ok version "$out"
else
  bad version "$out"
fi
out=$(man -P cat memstored 2>&1)
if grep -q "^NAME" <<<"$out" && grep -q "memstored - " <<<"$out" && grep -q "^SYNOPSIS" <<<"$out"; then
  ok man-memstored "$(grep -c '' <<<"$out") lines"
else
  bad man-memstored "$(oneline "$out")"
fi
out=$(man -P cat 5 memstored.toml 2>&1)
grep -q "state_dir" <<<"$out" && ok man-memstored.toml || bad man-memstored.toml "$(oneline "$out")"

# --- start ----------------------------------------------------------------------
modprobe -a iscsi_tcp sd_mod
if out=$(systemctl start memstored 2>&1); then
  ok systemctl-start "$(systemctl show -p MainPID --value memstored)"
else
  bad systemctl-start "$out $(systemctl status --no-pager memstored 2>&1 | tail -15 | tr '\n' ' ')"
  finish
fi
# Type=notify: start returned after READY=1, which comes only once every
# portal listens; so the portal takes a connection now, with no wait.
if out=$(iscsiadm -m discovery -t st -p 127.0.0.1 2>&1) && grep -q "$iqn" <<<"$out"; then
  ok ready-means-listening "discovery right after start: $out"
else
  bad ready-means-listening "$out"
fi
user=$(ps -o user= -p "$(systemctl show -p MainPID --value memstored)")
[ "$user" != root ] && ok dynamic-user "$user" || bad dynamic-user "runs as root"
# StateDirectory=: the image is created there, through ProtectSystem=strict.
img=/var/lib/memstore/g2-lun0.img
if [ -f "$img" ] && [ "$(readlink -f /var/lib/memstore)" = /var/lib/private/memstore ]; then
  ok state-dir "$img, $(stat -c '%s bytes, uid %u' "$img")"
else
  bad state-dir "$(ls -la /var/lib/memstore/ /var/lib/private/ 2>&1 | tr '\n' ' ')"
fi
# The sandbox (SystemCallFilter=@system-service) lets the file store use io_uring.
line=$(journalctl -u memstored -o cat | grep "LUN 0 of $iqn opened" | tail -1)
grep -q "backing $img, .*storage I/O io_uring" <<<"$line" && ok lun-opened-io-uring "$line" ||
  bad lun-opened-io-uring "$line"
sock=/run/memstored/control.sock
if out=$(memsctl admin luns 2>&1) && grep -q "$iqn" <<<"$out"; then
  ok control-socket "$sock: memsctl admin luns lists $(grep -c '"lun":' <<<"$out") LUN(s) of $iqn"
else
  bad control-socket "$out"
fi
timing_before=$(memsctl admin stats --lun 0 2>&1 | grep '"timing"')
# systemd's own rating of the unit's sandbox: SAFE or OK, not MEDIUM,
# EXPOSED or UNSAFE.
level=$(systemd-analyze security --no-pager memstored.service 2>&1 | sed -n 's/.*Overall exposure level for memstored.service: //p')
grep -qE '^[0-9.]+ (SAFE|OK)' <<<"$level" && ok sandbox-exposure "$level" || bad sandbox-exposure "$level"

# --- open-iscsi ---------------------------------------------------------------
if out=$(iscsiadm -m node -T "$iqn" -p 127.0.0.1:3260 --login 2>&1); then
  ok iscsiadm-login
else
  bad iscsiadm-login "$out"
  finish
fi
dev=""
for _ in $(seq 1 60); do
  dev=$(iscsiadm -m session -P 3 2>/dev/null | sed -n 's/.*Attached scsi disk \([a-z]*\).*/\1/p' | head -1)
  [ -n "$dev" ] && [ -b "/dev/$dev" ] && break
  sleep 0.5
done
if [ -n "$dev" ] && [ -b "/dev/$dev" ]; then
  ok block-device "/dev/$dev, $(blockdev --getsize64 "/dev/$dev") bytes"
else
  bad block-device "none attached"
  finish
fi
# 4 MiB of random data at 1 MiB, direct, then read back after the page cache
# is dropped: both go to the target.
head -c 4M /dev/urandom >/tmp/payload
want=$(sha256sum </tmp/payload | cut -d' ' -f1)
if dd if=/tmp/payload of="/dev/$dev" bs=1M seek=1 oflag=direct status=none; then
  sync
  echo 3 >/proc/sys/vm/drop_caches
  got=$(dd if="/dev/$dev" bs=1M skip=1 count=4 iflag=direct status=none | sha256sum | cut -d' ' -f1)
  [ "$got" = "$want" ] && ok write-read "4 MiB at 1 MiB, sha256 ${want:0:12}" ||
    bad write-read "read back ${got:0:12}, wrote ${want:0:12}"
else
  bad write-read "dd to /dev/$dev failed"
fi

# --- reload ---------------------------------------------------------------------
# timing realtime -> off on LUN 0: a change the daemon applies live.
sed -i 's/^timing = "realtime"/timing = "off"/' "$conf"
if out=$(systemctl reload memstored 2>&1); then
  for _ in $(seq 1 20); do
    journalctl -u memstored -o cat | grep -q "reload (SIGHUP): 1 LUN(s) changed live" && break
    sleep 0.5
  done
  line=$(journalctl -u memstored -o cat | grep "reload (SIGHUP)" | tail -1)
  after=$(memsctl admin stats --lun 0 2>&1 | grep '"timing"')
  if grep -q "1 LUN(s) changed live, 0 change(s) need a restart" <<<"$line" &&
     grep -q '"realtime"' <<<"$timing_before" && grep -q '"off"' <<<"$after"; then
    ok systemctl-reload "journal: $line; control socket: timing realtime -> off"
  else
    bad systemctl-reload "journal: $line; before: $timing_before; after: $after"
  fi
else
  bad systemctl-reload "$out"
fi
[ "$(systemctl show -p MainPID --value memstored)" = "$(pgrep -x memstored)" ] &&
  ok reload-same-process || bad reload-same-process "the daemon was restarted"

# --- the journal's events ---------------------------------------------------------
iscsiadm -m node -T "$iqn" -p 127.0.0.1:3260 --logout >/dev/null 2>&1 &&
  ok iscsiadm-logout || bad iscsiadm-logout
events=$(journalctl -u memstored -o cat)
for e in "login: initiator iqn.2026-11.org.memstore.vm:guest" "logout: initiator iqn.2026-11.org.memstore.vm:guest"; do
  grep -qF "$e" <<<"$events" && ok "journal-${e%%:*}" "$(grep -F "$e" <<<"$events" | tail -1)" ||
    bad "journal-${e%%:*}" "no line with '$e'"
done
errors=$(journalctl -u memstored -p warning -o cat)
[ -z "$errors" ] && ok journal-no-warnings || bad journal-no-warnings "$(oneline "$errors")"

# --- stop -------------------------------------------------------------------------
if out=$(systemctl stop memstored 2>&1); then
  # The unit is unloaded once stopped, so its exit status is gone from
  # `systemctl show`; systemd's own journal lines about it tell: status 0 is
  # "Deactivated successfully" alone, anything else adds "Main process
  # exited, code=..., status=..." or a stop timeout ("timed out. Killing").
  sleep 1
  unit=$(journalctl -u memstored -o cat | grep -E "Deactivated successfully|Main process exited|timed out|Failed with result" | tail -3)
  # The daemon's own word that it flushed the image (fdatasync) on SIGTERM.
  closed=$(journalctl -u memstored -o cat | grep "LUN 0 of $iqn closed" | tail -1)
  if grep -q "Deactivated successfully" <<<"$unit" && ! grep -qE "Main process exited|timed out|Failed" <<<"$unit" &&
     grep -q "closed, flushed" <<<"$closed"; then
    ok systemctl-stop "$(tr '\n' ' ' <<<"$unit")exit status 0; $closed"
  else
    bad systemctl-stop "$(tr '\n' ' ' <<<"$unit"); $closed"
  fi
else
  bad systemctl-stop "$out"
fi
# What was written through iSCSI is in the image file once the daemon is gone.
echo 3 >/proc/sys/vm/drop_caches
got=$(dd if="$img" bs=1M skip=1 count=4 status=none | sha256sum | cut -d' ' -f1)
[ "$got" = "$want" ] && ok data-in-image "sha256 ${got:0:12} at 1 MiB of $img" ||
  bad data-in-image "image has ${got:0:12}, wrote ${want:0:12}"

# --- removal keeps the configuration and the images ---------------------------------
if out=$(dpkg -r memstore 2>&1) && [ -f "$conf" ] && [ -f "$img" ]; then
  ok deb-remove "configuration and image kept"
else
  bad deb-remove "$(oneline "$out")"
fi
finish
