#!/bin/bash
# SPDX-License-Identifier: Apache-2.0
# The service case of the VM test (scripts/vm-test-service), run under
# systemd as PID 1 by the guest's memstore-guest.service from the 9p share
# /mnt/memstore, which also holds the memstore .deb and, in previous/, the
# same package under a lower version (scripts/vm-test-service repacks it).
# What issues 18 and 41 ask the package and the unit to show on a fresh
# bookworm, in two boots of the same root file system:
#   first boot: the previous .deb installs with dpkg -i; with another
#   listener on 127.0.0.1:3260 `systemctl start` fails once, naming the
#   address, and is not restarted; then `systemctl start` serves the
#   installed configuration's LUN (a file under /var/lib/memstore, through
#   the unit's sandbox) and open-iscsi in the guest logs in to it on
#   127.0.0.1; data written through the block device reads back;
#   `systemctl reload` applies a configuration change (memsctl admin through
#   the control socket in /run/memstored sees it); a broken configuration
#   at reload keeps the running one and says why; dpkg -i of the newer .deb
#   over the running service keeps the edited conffile and the image and
#   restarts the daemon; `systemctl enable`, then `systemctl reboot`;
#   second boot (this script again, continuing from $stage): the unit came
#   up by itself and serves the data; `systemctl stop` ends the daemon with
#   status 0 and the data is in the image file afterwards; dpkg -r keeps the
#   configuration and the image. `man memstored` and `memstored --version`
#   work.
#
# Markers on the console: those of guest-markers.sh, then
#   MEMSTORE-VM: DONE pass=N fail=M
set -uo pipefail
share=/mnt/memstore
export PATH=/usr/sbin:/usr/bin:/sbin:/bin
export SYSTEMD_PAGER='' SYSTEMD_COLORS=0

# shellcheck source=tests/vm/guest-markers.sh
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
img=/var/lib/memstore/g2-lun0.img
# What the second boot continues from, on the root file system, which the
# reboot keeps (scripts/vm-test-service lets QEMU reset the machine, and the
# root image's overlay lives as long as QEMU does).
stage=/var/lib/memstore-vm-test/stage

mainpid() { systemctl show -p MainPID --value memstored; }
# login: open-iscsi logs in to the target on 127.0.0.1:3260 and $dev is its
# disk; on failure $out says why and the status is 1.
login() {
  dev=""
  out=$(iscsiadm -m node -T "$iqn" -p 127.0.0.1:3260 --login 2>&1) || return 1
  for _ in $(seq 1 60); do
    dev=$(iscsiadm -m session -P 3 2>/dev/null | sed -n 's/.*Attached scsi disk \([a-z]*\).*/\1/p' | head -1)
    [ -n "$dev" ] && [ -b "/dev/$dev" ] && return 0
    sleep 0.5
  done
  out="logged in, no disk attached"
  return 1
}
logout() { iscsiadm -m node -T "$iqn" -p 127.0.0.1:3260 --logout >/dev/null 2>&1; }
# read_back: the 4 MiB at 1 MiB of /dev/$dev, read from the target (direct,
# the page cache dropped), are those written ($want); $got is their hash.
read_back() {
  echo 3 >/proc/sys/vm/drop_caches
  got=$(dd if="/dev/$dev" bs=1M skip=1 count=4 iflag=direct status=none | sha256sum | cut -d' ' -f1)
  [ "$got" = "$want" ]
}

boot_one() {
  # PID 1 is systemd, not the stub init of the other cases.
  local init
  init=$(ps -o comm= -p 1)
  if [ "$init" = systemd ] && [ "$(systemctl is-system-running 2>&1)" != offline ]; then
    ok systemd-pid1 "systemd $(systemctl --version | sed -n '1s/^systemd \([0-9]*\).*/\1/p')," \
      "state $(systemctl is-system-running 2>&1)"
  else
    bad systemd-pid1 "PID 1 is $init"
    finish
  fi

  # --- the package (the previous version; the upgrade below installs the new one)
  deb=$(ls "$share"/memstore_*.deb 2>/dev/null | head -1)
  prev=$(ls "$share"/previous/memstore_*.deb 2>/dev/null | head -1)
  if out=$(dpkg -i "$prev" </dev/null 2>&1) && dpkg-query -W -f='${Status}' memstore | grep -q "install ok installed"; then
    ok deb-install "$(basename "$prev") (version $(dpkg-query -W -f='${Version}' memstore), to be upgraded to $(basename "$deb"))"
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
  modprobe -a iscsi_tcp sd_mod

  # --- a portal already taken ---------------------------------------------------
  # Another listener on 127.0.0.1:3260 (as tgt or LIO would be): the start
  # fails once, the journal names the address and why, and systemd does not
  # restart the unit over and over (RestartPreventExitStatus=).
  python3 -c 'import socket, time
s = socket.socket()
s.bind(("127.0.0.1", 3260))
s.listen()
time.sleep(600)' &
  local holder=$!
  for _ in $(seq 1 50); do
    ss -Hltn 'sport = :3260' | grep -q . && break
    sleep 0.2
  done
  # This boot's journal of the unit holds this start alone (the journal is
  # persistent, in /var/log/journal, so -b). Not a cursor taken just before
  # the start: in one run `journalctl --after-cursor` found none of these
  # lines, which the journal had (the boot was still under way then).
  local log line starts restarts
  if out=$(systemctl start memstored 2>&1); then
    bad portal-taken "systemctl start succeeded with 127.0.0.1:3260 taken: $(ss -Hltnp 'sport = :3260' | tr '\n' ' ')"
    systemctl stop memstored
  else
    sleep 3  # far longer than RestartSec (100 ms): a restart would have come
    state=$(systemctl is-failed memstored 2>&1)
    restarts=$(systemctl show -p NRestarts --value memstored)
    log=$(journalctl -b -u memstored -o cat)
    starts=$(grep -c "^Starting " <<<"$log")
    line=$(grep "memstored: portal" <<<"$log" | head -1)
    if [ "$state" = failed ] && [ "$restarts" = 0 ] && [ "$starts" = 1 ] &&
       grep -q "127.0.0.1:3260: Address already in use" <<<"$line"; then
      ok portal-taken "journal: '$line'; is-failed: $state, NRestarts=$restarts, $starts start in the journal;" \
        "$(grep -E "Main process exited|Failed with result" <<<"$log" | tr '\n' ' ')"
    else
      bad portal-taken "is-failed: $state, NRestarts=$restarts, $starts start(s); systemctl start: $out; journal: $(oneline "$log" 20)"
    fi
  fi
  # A unit still restarting (the check failed) must not take the freed port.
  systemctl stop memstored 2>/dev/null
  kill "$holder"
  wait "$holder" 2>/dev/null
  systemctl reset-failed memstored 2>/dev/null

  # --- start ----------------------------------------------------------------------
  local since_start
  since_start=$(date +%s)  # for the journal's lines since (--since @...)
  if out=$(systemctl start memstored 2>&1); then
    ok systemctl-start "$(mainpid)"
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
  user=$(ps -o user= -p "$(mainpid)")
  [ "$user" != root ] && ok dynamic-user "$user" || bad dynamic-user "runs as root"
  # StateDirectory=: the image is created there, through ProtectSystem=strict.
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
  if login; then
    ok iscsiadm-login
    ok block-device "/dev/$dev, $(blockdev --getsize64 "/dev/$dev") bytes"
  else
    bad iscsiadm-login "$out"
    finish
  fi
  # 4 MiB of random data at 1 MiB, direct, then read back after the page cache
  # is dropped: both go to the target.
  head -c 4M /dev/urandom >/tmp/payload
  want=$(sha256sum </tmp/payload | cut -d' ' -f1)
  if dd if=/tmp/payload of="/dev/$dev" bs=1M seek=1 oflag=direct status=none; then
    sync
    read_back && ok write-read "4 MiB at 1 MiB, sha256 ${want:0:12}" ||
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
  [ "$(mainpid)" = "$(pgrep -x memstored)" ] &&
    ok reload-same-process || bad reload-same-process "the daemon was restarted"

  # --- a configuration error at reload ------------------------------------------
  # An unknown key (a misspelt `timing`) in the LUN's table, then
  # systemctl reload: the daemon keeps the running configuration and says
  # why, naming the file, the line and the key; same process, same unit
  # state, and the LUN goes on serving I/O.
  local pid at reload_status status_text since
  cp "$conf" /tmp/memstored.toml.good
  sed -i 's/^timing = "off"$/&\ntiming_mode = "off"/' "$conf"
  at=$(grep -n '^timing_mode' "$conf" | cut -d: -f1)
  pid=$(mainpid)
  since=$(date +%s)
  out=$(systemctl reload memstored 2>&1)
  reload_status=$?
  line=""
  for _ in $(seq 1 20); do
    line=$(journalctl -u memstored --since "@$since" -o cat | grep "^reload (SIGHUP): .*the running configuration stays" | tail -1)
    [ -n "$line" ] && break
    sleep 0.5
  done
  sleep 0.5  # READY=1 follows the log line
  state=$(systemctl is-active memstored 2>&1)
  status_text=$(systemctl show -p StatusText --value memstored)
  if [ -n "$at" ] && grep -qF "reload (SIGHUP): $conf:$at: " <<<"$line" &&
     grep -q "timing_mode: unknown key" <<<"$line" && grep -q "; the running configuration stays$" <<<"$line" &&
     [ "$state" = active ] && [ "$(mainpid)" = "$pid" ] && [[ $status_text == "reload failed: $conf:$at: "* ]]; then
    ok reload-error-keeps-running "systemctl reload: status $reload_status${out:+ ($out)};" \
      "is-active $state, PID $pid unchanged; journal: '${line:0:110}...';" \
      "StatusText: '${status_text:0:70}...'"
  else
    bad reload-error-keeps-running "systemctl reload: status $reload_status $out; is-active $state; PID $pid -> $(mainpid);" \
      "line $at; journal: $line; StatusText: $status_text"
  fi
  after=$(memsctl admin stats --lun 0 2>&1 | grep '"timing"')
  if read_back && grep -q '"off"' <<<"$after"; then
    ok reload-error-lun-serves "the 4 MiB read back through the session (sha256 ${got:0:12}); timing still off"
  else
    bad reload-error-lun-serves "read back ${got:0:12}, wrote ${want:0:12}; $after"
  fi
  cp /tmp/memstored.toml.good "$conf"  # the admin's edit: timing "off"

  # --- the journal's events ---------------------------------------------------------
  logout && ok iscsiadm-logout || bad iscsiadm-logout
  events=$(journalctl -u memstored -o cat)
  for e in "login: initiator iqn.2026-11.org.memstore.vm:guest" "logout: initiator iqn.2026-11.org.memstore.vm:guest"; do
    grep -qF "$e" <<<"$events" && ok "journal-${e%%:*}" "$(grep -F "$e" <<<"$events" | tail -1)" ||
      bad "journal-${e%%:*}" "no line with '$e'"
  done
  # Since the start that worked: no warning or error but the reload error
  # provoked above.
  errors=$(journalctl -u memstored -p warning -o cat --since "@$since_start" |
    grep -v "^reload (SIGHUP): $conf:$at: .*; the running configuration stays$")
  [ -z "$errors" ] && ok journal-no-warnings || bad journal-no-warnings "$(oneline "$errors")"

  # --- the upgrade ------------------------------------------------------------------
  # dpkg -i of the newer .deb over the previous one, the service running,
  # the admin's edit in the conffile and the data in the image. Without a
  # terminal: a conffile prompt would read end of file and fail. Neither
  # --force-confold nor --force-confnew: what Debian does by default.
  local ver edited new exe
  cp "$conf" /tmp/memstored.toml.edited
  pid=$(mainpid)
  ver=$(dpkg-query -W -f='${Version}' memstore)
  if out=$(dpkg -i "$deb" </dev/null 2>&1) && ! grep -qi "configuration file" <<<"$out"; then
    ok upgrade-dpkg "$ver -> $(dpkg-query -W -f='${Version}' memstore), no conffile prompt: $(grep -m1 "^Unpacking" <<<"$out")"
  else
    bad upgrade-dpkg "$(oneline "$out" 10)"
  fi
  edited=$(grep '^timing' "$conf")
  if cmp -s "$conf" /tmp/memstored.toml.edited && ! ls /etc/memstore/*.dpkg-* >/dev/null 2>&1; then
    ok upgrade-keeps-config "$conf as edited ($edited), no .dpkg-new or .dpkg-dist beside it"
  else
    bad upgrade-keeps-config "$(diff /tmp/memstored.toml.edited "$conf" | tr '\n' ' '); $(ls /etc/memstore/)"
  fi
  new=$(mainpid)
  exe=$(readlink "/proc/$new/exe")
  state=$(systemctl is-active memstored 2>&1)
  if [ "$state" = active ] && [ "$new" != 0 ] && [ "$new" != "$pid" ] && [ "$exe" = /usr/sbin/memstored ]; then
    ok upgrade-restarts "is-active $state, PID $pid -> $new, running $exe (the new file)"
  else
    bad upgrade-restarts "is-active $state, PID $pid -> $new, running $exe"
  fi
  after=$(memsctl admin stats --lun 0 2>&1 | grep '"timing"')
  if login && read_back && grep -q '"off"' <<<"$after"; then
    ok upgrade-keeps-image "the 4 MiB read back after the upgrade (sha256 ${got:0:12}); the new daemon runs the edited timing off"
  else
    bad upgrade-keeps-image "$out; read back ${got:0:12}, wrote ${want:0:12}; $after"
  fi
  logout

  # --- enable, then reboot ----------------------------------------------------------
  out=$(systemctl enable memstored 2>&1)
  state=$(systemctl is-enabled memstored 2>&1)
  if [ "$state" = enabled ]; then
    ok systemctl-enable "$(oneline "$out" 2)"
  else
    bad systemctl-enable "$state: $out"
    finish
  fi
  mkdir -p "${stage%/*}"
  printf 'pass=%s\nfail=%s\nwant=%s\nboot_before=%s\npid_before=%s\n' "$pass" "$fail" "$want" \
    "$(cat /proc/sys/kernel/random/boot_id)" "$(mainpid)" >"$stage"
  sync
  step reboot "systemctl reboot; the second boot continues from $stage"
  systemctl reboot
  sleep 600  # until the reboot stops this unit
}

boot_two() {
  mv "$stage" "$stage.done"
  local boot_before="" pid_before=""
  # shellcheck disable=SC1090  # pass, fail, want, boot_before, pid_before
  source "$stage.done"
  local boot enabled state t_up t_guest started
  boot=$(cat /proc/sys/kernel/random/boot_id)
  modprobe -a iscsi_tcp sd_mod
  # memstored came up by itself: enabled, active, started in this boot before
  # this script's unit (which is ordered after multi-user.target).
  enabled=$(systemctl is-enabled memstored 2>&1)
  state=$(systemctl is-active memstored 2>&1)
  t_up=$(systemctl show -p ActiveEnterTimestampMonotonic --value memstored)
  t_guest=$(systemctl show -p InactiveExitTimestampMonotonic --value memstore-guest)
  started=$(journalctl -b -u memstored -o cat | grep -m1 "^Started ")
  if [ "$boot" != "$boot_before" ] && [ "$enabled" = enabled ] && [ "$state" = active ] &&
     [ "${t_up:-0}" -gt 0 ] && [ "$t_up" -lt "${t_guest:-0}" ] && [ -n "$started" ]; then
    ok enable-survives-reboot "boot ${boot_before:0:8} -> ${boot:0:8}: $enabled, $state since" \
      "$((t_up / 1000000)).$((t_up / 100000 % 10)) s after boot, before this script's unit" \
      "($((t_guest / 1000000)).$((t_guest / 100000 % 10)) s); PID $pid_before -> $(mainpid); journal: $started"
  else
    bad enable-survives-reboot "boot ${boot_before:0:8} -> ${boot:0:8}: $enabled, $state, up at $t_up us," \
      "this script's unit at $t_guest us; journal: $(journalctl -b -u memstored -o cat | tail -5 | tr '\n' ' ')"
    finish
  fi
  if login && read_back; then
    ok reboot-serves "logged in after the reboot, /dev/$dev; the 4 MiB read back (sha256 ${got:0:12})"
  else
    bad reboot-serves "$out; read back ${got:0:12}, wrote ${want:0:12}"
  fi
  logout

  # --- stop -------------------------------------------------------------------------
  if out=$(systemctl stop memstored 2>&1); then
    # The unit is unloaded once stopped, so its exit status is gone from
    # `systemctl show`; systemd's own journal lines about it tell: status 0 is
    # "Deactivated successfully" alone, anything else adds "Main process
    # exited, code=..., status=..." or a stop timeout ("timed out. Killing").
    sleep 1
    unit=$(journalctl -b -u memstored -o cat | grep -E "Deactivated successfully|Main process exited|timed out|Failed with result" | tail -3)
    # The daemon's own word that it flushed the image (fdatasync) on SIGTERM.
    closed=$(journalctl -b -u memstored -o cat | grep "LUN 0 of $iqn closed" | tail -1)
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
}

if [ -f "$stage.done" ]; then
  bad boot "a third boot: the reboot above came back again"
  systemctl disable memstored >/dev/null 2>&1
elif [ -f "$stage" ]; then
  boot_two
else
  boot_one
fi
finish
