#!/bin/bash
# SPDX-License-Identifier: Apache-2.0
# bench/asplos99-apps' guest side, run by the VM's init stub from the 9p share
# (memstore.guest=asplos99-apps-guest.sh): seed 003's application study
# (Schlosser et al., ASPLOS IX, §4), one round. open-iscsi logs in to the
# host's memstored, whose LUNs are the devices of $DEVICES in order, each in
# realtime timing. For each LUN: a fresh ext4 of $FS_SIZE, the inputs copied
# on (not timed), then each application of $APPS with the page cache dropped
# before it (§4.1: only the device varies). Each application's wall time and
# CPU time (user + system of it and its children, bash's `time`) go to
# results/round-$ROUND.csv on the share; I/O stall = wall - CPU (§4.2's
# figures split the runtime so). Each timed command ends with `sync`, so the
# writes it left in the page cache are counted too.
set -uo pipefail
share=/mnt/memstore
source "$share/vm.env"  # PORTAL IQN DEVICES APPS RAM_MB FS_SIZE ROUND PM_* LUA_TAR
source "$share/guest-markers.sh"
finish() {
  echo "MEMSTORE-VM: DONE pass=$pass fail=$fail"
  exit 0
}

# §4.1: a 128 MB machine. Debian's initrd does not unpack in 128 MB, so the
# guest boots with more and pins the rest in a tmpfs file (no swap: it stays
# resident), leaving $RAM_MB of MemTotal to the kernel, programs and cache.
step ram
total_kb=$(awk '/^MemTotal:/ {print $2}' /proc/meminfo)
pin_mb=$(((total_kb - RAM_MB * 1024) / 1024))
if [ "$pin_mb" -gt 0 ]; then
  mkdir -p /run/pin
  mount -t tmpfs -o size=$((pin_mb + 1))m tmpfs /run/pin
  dd if=/dev/zero of=/run/pin/ram bs=1M count="$pin_mb" status=none ||
    { bad ram "could not pin $pin_mb MB"; finish; }
fi
ok ram "MemTotal $((total_kb / 1024)) MB, $pin_mb MB pinned, $RAM_MB MB left"

step login
modprobe -a sd_mod virtio_net scsi_transport_iscsi iscsi_tcp ext4 || { bad modules "$(uname -r)"; finish; }
iscsi_login_at "$PORTAL" "$IQN" || finish
ok login
lun_dev() { iscsi_lun_dev "$1"; }

# The applications (§4.2). Each runs in /mnt/lun; its output goes to $log.
# Andrew-like: the Andrew benchmark's phases on a real C source tree (Lua's):
# MakeDir, Copy, ScanDir (stat every file), ReadAll (read every byte), Make.
# Make compiles the tree's standard library (its Makefile's LIB_O, 12 files)
# at -O0: the guest's CPU is emulated (TCG), where all of Lua at -O2 takes
# minutes of CPU per device.
# shellcheck disable=SC2046  # make's targets: the object names, one word each
app_andrew() {
  (cd orig && find . -type d) | (mkdir -p work && cd work && xargs mkdir -p) &&
    cp -a orig/. work/ &&
    find work -exec stat -c '%s %Y' {} + >/dev/null &&
    find work -type f -exec cat {} + >/dev/null &&
    make -C work/src -j1 MYCFLAGS=-O0 SYSCFLAGS=-DLUA_USE_LINUX \
      $(sed -n 's/^LIB_O=//p' work/src/Makefile)
}
# GNULD: GNU ld (through gcc's driver) links Lua's interpreter and compiler
# from all of its objects and its library, built with -O2 -g on the host by
# the same Debian compiler and copied onto the device in the setup.
app_gnuld() {
  cd ld &&
    gcc -o lua.linked lua.o liblua.a -lm -Wl,-E -ldl &&
    gcc -o luac.linked luac.o liblua.a -lm
}
# PostMark with the configuration of vm.env (PM_*).
app_postmark() {
  mkdir -p pm &&
    printf 'set location /mnt/lun/pm\nset number %s\nset transactions %s\nset size %s %s\nset buffering false\nrun\nquit\n' \
      "$PM_FILES" "$PM_TRANSACTIONS" "$PM_MIN" "$PM_MAX" >pm.cfg &&
    postmark pm.cfg
}
app_tpcd-q4() { python3 "$share/asplos99-tpcd.py" query 4 tpcd.db; }
app_tpcd-q6() { python3 "$share/asplos99-tpcd.py" query 6 tpcd.db; }

results=$share/results/round-$ROUND.csv
mkdir -p "$share/results" /mnt/lun
lun=0
for device in $DEVICES; do
  dev=$(lun_dev "$lun")
  [ -n "$dev" ] || { bad "lun_$lun" "LUN $lun ($device) did not appear"; lun=$((lun + 1)); continue; }
  # The same elevator in front of every device (the Cheetah's too).
  echo mq-deadline >"/sys/block/${dev#/dev/}/queue/scheduler" 2>/dev/null || true
  step "$device setup"
  # The same file system on every device: $FS_SIZE at the device's start, its
  # inode tables and journal left unzeroed (lazy init, and noinit_itable so
  # no kernel thread zeroes them during the runs).
  if ! out=$(mkfs.ext4 -q -F -E lazy_itable_init=1,lazy_journal_init=1,nodiscard "$dev" "$FS_SIZE" 2>&1) ||
     ! out=$(mount -o noinit_itable "$dev" /mnt/lun 2>&1); then
    bad "setup_$device" "$out"
    lun=$((lun + 1))
    continue
  fi
  (cd /mnt/lun && mkdir orig && tar xzf "$share/$LUA_TAR" -C orig --strip-components=1 &&
    mkdir ld && tar xf "$share/lua-objects.tar" -C ld && cp "$share/tpcd.db" tpcd.db && sync) || bad "setup_$device" "inputs not copied"
  ok "setup_$device" "$dev"
  for app in $APPS; do
    step "$device $app"
    sync
    echo 3 >/proc/sys/vm/drop_caches
    log=/tmp/$device.$app.log
    TIMEFORMAT='%3R %3U %3S'
    if t=$( { time (cd /mnt/lun && "app_$app" >"$log" 2>&1 && sync); } 2>&1); then
      read -r wall user sys <<<"$t"
      echo "$ROUND,$device,$app,$wall,$user,$sys" >>"$results"
      ok "${device}_$app" "wall $wall s, user $user s, sys $sys s"
    else
      bad "${device}_$app" "$(tail -3 "$log" | tr '\n' ' ')"
    fi
  done
  umount /mnt/lun || bad "umount_$device"
  lun=$((lun + 1))
done
iscsiadm -m node -T "$IQN" -p "$PORTAL" --logout >/dev/null 2>&1 || true
finish
