#!/bin/bash
# SPDX-License-Identifier: Apache-2.0
# The guest side of scripts/vm-test-powercut (docs/crash-consistency.md,
# "Under Linux"), run by the VM's init stub from the 9p share
# (memstore.guest=guest-powercut.sh). open-iscsi logs in to a host memstored
# whose LUN 0 keeps a volatile write cache (durability = "volatile"); the
# file systems are Linux's own. For each run of $RUNS (KIND:CUTS):
#   ext4, xfs          files written, fsynced and renamed into place
#                      (tests/vm/powercut_workload.py files-run)
#   sqlite             numbered rows committed in WAL mode with
#                      synchronous=FULL, on ext4
#   ext4-nobarrier     the files workload on ext4 mounted nobarrier: no
#                      flush ever reaches the device (the negative control)
#   tcmu-ext4, tcmu-xfs, tcmu-sqlite, tcmu-ext4-nobarrier
#                      the same four on a user:memstore backstore of this
#                      guest's own LIO and tcmu-runner (durability=volatile,
#                      the rule in a faults= file), logged in to over
#                      127.0.0.1; a cut under LIO holds every command for
#                      $TCMU_OFF_MS, then answers POWER ON (tcmu_cut below);
#                      before the first, direct writes go on through a cut
#                      the kernel rides out (tcmu_ride_through)
# each cut goes: mount, a power-cut fault rule (after a seeded number of
# writes, a policy in turn, off for $OFF_MS) added through the host, the
# workload until the device goes away, then what a machine whose disk lost
# its power does: the processes go, the file system is detached and the
# initiator logs out (so nothing it held reaches the LUN after power-on),
# then logs in again once the LUN takes logins; mount (journal or log
# recovery), the check, unmount, the file system's own read-only check
# (fsck.ext4 -f -n, xfs_repair -n).
# A cut with barriers passes only when nothing fsynced or committed is lost
# and the file system checks clean; the control passes when some cut
# detects loss or damage. Each cut prints a line the host counts:
#   MEMSTORE-VM: CUT kind=K n=I policy=P writes=N result=ok|lost|damaged detail
set -uo pipefail
share=/mnt/memstore
source "$share/vm.env"  # PORTAL IQN RUNS OFF_MS SEED RECORD_FILES PROGRESS_LBA [CONTROL_ALL] TCMU_IQN TCMU_OFF_MS
source "$share/guest-markers.sh"
workload="python3 $share/powercut_workload.py"
finish() {
  [ -e /var/log/tcmu-runner.log ] && cp /var/log/tcmu-runner.log "$share/tcmu-runner.log"
  echo "MEMSTORE-VM: DONE pass=$pass fail=$fail"
  exit 0
}

requests=0
host_rule() {  # host_rule RULE|clear: the host adds RULE (JSON) to LUN 0, or clears its rules
  requests=$((requests + 1))
  echo "$1" >"$share/pc-fault-$requests.tmp"
  mv "$share/pc-fault-$requests.tmp" "$share/pc-fault-$requests"
  share_wait "pc-fault-$requests.done" 60 && [ "$1" = clear ] ||
    grep -q '"id"' "$share/pc-fault-$requests.done"
}
session_dir() {  # session_dir [TARGET]: its session (default $IQN's)
  local d
  for d in /sys/class/iscsi_session/session*; do
    [ "$(cat "$d/targetname" 2>/dev/null)" = "${1:-$IQN}" ] && { echo "$d"; return; }
  done
}
session_state() { cat "$(session_dir)/state" 2>/dev/null || echo none; }
lun_dev() {  # lun_dev [N [TARGET]]: the disk of LUN N (default 0), once the session has it (30 s at most)
  local d b
  for _ in $(seq 1 60); do
    d=$(session_dir "${2:-$IQN}")
    b=$(ls -d "$d"/device/target*/*:*:*:"${1:-0}"/block/* 2>/dev/null | head -1)
    [ -n "$b" ] && { echo "/dev/${b##*/}"; return; }
    sleep 0.5
  done
}

step modules
modprobe -a sd_mod scsi_transport_iscsi iscsi_tcp virtio_net ext4 xfs || { bad modules "$(uname -r)"; finish; }
step login
user_network_up
iscsi_node_at "$PORTAL" "$IQN" || finish
for kv in \
  node.session.timeo.replacement_timeout=2 \
  node.conn[0].timeo.noop_out_interval=2 node.conn[0].timeo.noop_out_timeout=3 \
  node.conn[0].timeo.login_timeout=5; do
  iscsiadm -m node -T "$IQN" -p "$PORTAL" -o update -n "${kv%%=*}" -v "${kv#*=}" >/dev/null
done
out=$(iscsiadm -m node -T "$IQN" -p "$PORTAL" --login 2>&1) || { bad login "$out"; finish; }
dev=$(lun_dev)
[ -n "$dev" ] || { bad disk "LUN 0 never appeared"; finish; }
cache=$(cat "/sys/block/${dev#/dev/}/queue/write_cache")
if [ "$cache" = "write back" ]; then ok volatile_cache "$dev: the kernel sees a write-back cache and sends flushes"; else
  bad volatile_cache "$dev: queue/write_cache is '$cache'"
  finish
fi

mkdir -p /mnt/pc

# unsynced_writer: beside a workload, writes nobody flushes: a 4 MiB file,
# written and fsynced once, then overwritten in place with 64 KiB direct
# writes in a loop. Each goes to the device at once and stays volatile
# until the workload's next flush, so that the cache holds writes at the
# cut, as a busy machine's would. (Buffered writes would not do: ext4's
# ordered mode writes them out right before each commit's flush.) Their
# data is never checked. Its pid in npid.
unsynced_writer() {
  dd if=/dev/zero of=/mnt/pc/unsynced bs=1M count=4 conv=fsync status=none
  (while :; do
     dd if=/dev/zero of=/mnt/pc/unsynced bs=64k count=64 oflag=direct conv=notrunc status=none ||
       exit 0
     sleep 0.05
   done) &
  npid=$!
}
# stop PID...: each process and its children (the writer's dd), at once.
stop() {
  local p
  for p in "$@"; do pkill -KILL -P "$p" 2>/dev/null; kill -KILL "$p" 2>/dev/null; done
  wait "$@" 2>/dev/null
}

# The recorded workloads (RECORD_FILES > 0): LUNs 1 and 2 carry the ext4 the
# host made (their write logs start from it; it ends 1 MiB before the disk
# does); the files workload runs on each, LUN 1 mounted with barriers and
# LUN 2 nobarrier, and is unmounted. After each durable step the workload
# writes the count of steps to block PROGRESS_LBA, past the file system's
# end, so that the host can tell from the log what any crash state must
# hold; its own log of the steps goes to the share (record-N.log). The host
# then builds crash states from the two write logs (memstore-crash) and
# checks each.
record() {  # record LUN OPTIONS
  local d out
  d=$(lun_dev "$1")
  [ -n "$d" ] || { bad "record_lun$1" "LUN $1 never appeared"; return; }
  mount -t ext4 -o "$2" "$d" /mnt/pc || { bad "record_lun$1" "mount $d failed"; return; }
  unsynced_writer
  out=$($workload files-run /mnt/pc/d /tmp/pc-record-$1 600 "$RECORD_FILES" "$d" "$PROGRESS_LBA")
  stop "$npid"
  umount /mnt/pc
  cp /tmp/pc-record-$1 "$share/record-$1.log"
  ok "record_lun$1" "ext4 mounted $2 on $d: $out, unmounted"
}
if [ "${RECORD_FILES:-0}" -gt 0 ]; then
  step record
  record 1 defaults
  record 2 nobarrier
fi

policies=(drop-all keep-random torn)
cut_no=0

# A kind's file system, mount options and workload; tcmu-K is K under LIO.
fs_type() { [ "${1#tcmu-}" = xfs ] && echo xfs || echo ext4; }
mount_opts() { [[ $1 == *nobarrier ]] && echo nobarrier || echo defaults; }
make_fs() {  # make_fs KIND [DEV]: a new file system on DEV (default $dev), an empty log
  local d=${2:-$dev}
  case $(fs_type "$1") in
    xfs) mkfs.xfs -q -f "$d" ;;
    *) mkfs.ext4 -q -F "$d" ;;
  esac >/tmp/pc-mkfs.log 2>&1 || { bad "mkfs_$1" "$(tail -3 /tmp/pc-mkfs.log | tr '\n' ' ')"; return 1; }
  rm -f /tmp/pc-log
}
fs_check() {  # fs_check KIND [DEV]: the file system's own read-only check, unmounted
  local d=${2:-$dev}
  if [ "$(fs_type "$1")" = xfs ]; then xfs_repair -n "$d"; else fsck.ext4 -f -n "$d"; fi \
    >/tmp/pc-fsck.log 2>&1
}
# run_workload KIND LOG (in the background) and check_workload KIND LOG, on /mnt/pc
run_workload() {
  if [ "${1#tcmu-}" = sqlite ]; then
    $workload sqlite-run /mnt/pc/db "$2" 900 >/tmp/pc-run.log 2>&1
  else
    $workload files-run /mnt/pc/d "$2" 900 >/tmp/pc-run.log 2>&1
  fi
}
check_workload() {
  if [ "${1#tcmu-}" = sqlite ]; then $workload sqlite-check /mnt/pc/db "$2"; else
    $workload files-check /mnt/pc/d "$2"
  fi
}

# one_cut KIND N: one power cut under the workload; prints the CUT line.
# Returns 0 when nothing durable was lost and the file system checked clean,
# 1 when something was lost or damaged, 2 when the LUN did not come back or
# came back before the guest saw the cut, and 3 when no cut happened (the
# last two are failures of the run itself).
one_cut() {
  local kind=$1 n=$2 policy writes seed wpid t0 state result detail fsck check before sid
  seed=$((SEED + n))
  policy=${policies[$((n % 3))]}
  # After 200 to 1,699 writes (the workload's and the unsynced writer's),
  # drawn from the cut's seed.
  writes=$((200 + (seed * 7919) % 1500))
  mount -t "$(fs_type "$kind")" -o "$(mount_opts "$kind")" "$dev" /mnt/pc ||
    { echo "MEMSTORE-VM: CUT kind=$kind n=$n policy=$policy writes=$writes result=damaged mount failed before the cut"; return 1; }
  host_rule "{\"op\": \"write\", \"every\": $writes, \"once\": true, \"action\": \"power-cut\", \"policy\": \"$policy\", \"seed\": $seed, \"off_ms\": $OFF_MS}" ||
    { bad "cut_${kind}_$n" "the host did not add the rule"; umount /mnt/pc; return 3; }
  run_workload "$kind" /tmp/pc-log &
  wpid=$!
  sid=$(session_dir)
  before=$(cat /tmp/pc-log 2>/dev/null | wc -l)
  unsynced_writer
  # The cut: the target ends the session, and the kernel sees it at once.
  t0=$(date +%s)
  while [ "$(session_state)" = LOGGED_IN ] && kill -0 "$wpid" 2>/dev/null; do sleep 0.1; done
  state=$(session_state)
  if [ "$state" = LOGGED_IN ] && [ "$(session_dir)" != "$sid" ]; then
    # A new session: the cut came and went while this guest was too slow to
    # see it, so the kernel may have written to the LUN after power-on.
    stop "$wpid" "$npid"
    umount -l /mnt/pc
    bad "cut_${kind}_$n" "the LUN was back before the guest saw the cut (--off-ms is too short" \
      "for this machine's load): $(cat /tmp/pc-run.log)"
    return 2
  fi
  if [ "$state" = LOGGED_IN ]; then
    stop "$npid"
    wait "$wpid"
    bad "cut_${kind}_$n" "the workload ended without a cut: $(cat /tmp/pc-run.log)"
    host_rule clear
    umount /mnt/pc
    return 3
  fi
  # The disk lost its power, and the machine acts as if it had too: the
  # processes go, the file system is detached, and the initiator logs out,
  # which ends its attempts to log in again: the disk goes, its queued
  # commands fail, and nothing the kernel still held can reach the LUN after
  # its power comes back, however slowly this machine runs. Then it logs in
  # again, as a machine that boots would, once the LUN takes logins.
  stop "$wpid" "$npid"
  umount -l /mnt/pc
  iscsiadm -m node -T "$IQN" -p "$PORTAL" --logout >/dev/null 2>&1
  if [ -n "$(session_dir)" ]; then
    bad "cut_${kind}_$n" "the session outlived its logout ($(session_state))"
    return 2
  fi
  for _ in $(seq 1 $((OFF_MS / 1000 + 60))); do
    iscsiadm -m node -T "$IQN" -p "$PORTAL" --login >/dev/null 2>&1 && break
    sleep 1
  done
  dev=$(lun_dev)
  [ -n "$dev" ] || { bad "cut_${kind}_$n" "LUN 0 did not come back ($(session_state))"; return 2; }
  result=ok
  if ! mount -t "$(fs_type "$kind")" -o "$(mount_opts "$kind")" "$dev" /mnt/pc 2>/tmp/pc-mount.log; then
    result=damaged
    detail="mount after the cut failed: $(tr '\n' ' ' </tmp/pc-mount.log)"
  else
    check=$(check_workload "$kind" /tmp/pc-log)
    [ "${check%% *}" = ok ] || result=lost
    umount /mnt/pc
    if fs_check "$kind"; then fsck=clean; else
      fsck="not clean: $(grep -v '^ *$' /tmp/pc-fsck.log | tail -3 | tr '\n' ' ')"
      [ "$result" = ok ] && result=damaged
    fi
    detail="$check; fsck $fsck"
  fi
  echo "MEMSTORE-VM: CUT kind=$kind n=$n policy=$policy writes=$writes result=$result" \
    "$(($(wc -l </tmp/pc-log) - before)) steps durable in this run; $detail; $(($(date +%s) - t0)) s"
  [ "$result" = ok ]
}

# The TCMU cases: this guest's own LIO exports a user:memstore backstore
# (tcmu-runner and handler_memstore.so from the share, started as
# tests/vm/guest-init.sh starts them), and open-iscsi logs in to it over
# 127.0.0.1.
tcmu_up=""
tcmu_setup() {
  [ -n "$tcmu_up" ] && return 0
  modprobe -a target_core_mod target_core_user iscsi_target_mod ||
    { bad tcmu_setup "LIO's modules"; return 1; }
  mountpoint -q /sys/kernel/config || mount -t configfs configfs /sys/kernel/config
  cp "$share/handler_memstore.so" /usr/lib/x86_64-linux-gnu/tcmu-runner/
  mkdir -p /run/memstore /etc/target/pr /etc/rtslib-fb-target/pr
  mount -t tmpfs -o size=6g tmpfs /run/memstore
  sh "$share/entrypoint.sh" >/var/log/tcmu-runner.stdout 2>&1 &
  for _ in $(seq 1 120); do
    dbus-send --system --print-reply --dest=org.freedesktop.DBus /org/freedesktop/DBus \
      org.freedesktop.DBus.NameHasOwner string:org.kernel.TCMUService1 2>/dev/null |
      grep -q 'boolean true' && { tcmu_up=1; ok tcmu_setup "tcmu-runner up"; return 0; }
    sleep 0.5
  done
  bad tcmu_setup "tcmu-runner never registered on the bus: $(tail -3 /var/log/tcmu-runner.stdout)"
  return 1
}
# lio up FAULTS: a G2 backstore on /run/memstore/tc.img (volatile, timing
# off, the faults file) as LUN 0 of $TCMU_IQN on 127.0.0.1:3260, through
# rtslib (much faster than targetcli under TCG); lio down: all of it
# removed, which closes the device.
lio() {
  python3 - "$TCMU_IQN" "$@" <<'PY'
import sys
from rtslib_fb import RTSRoot, UserBackedStorageObject, FabricModule, Target, TPG, NetworkPortal, LUN
iqn, what = sys.argv[1], sys.argv[2]
root = RTSRoot()
if what == "down":
    for t in root.targets:
        if t.wwn == iqn:
            t.delete()
    for so in root.storage_objects:
        if so.name == "tc":
            so.delete()
    sys.exit(0)
so = UserBackedStorageObject(
    "tc", size=3456000000,
    config="memstore//run/memstore/tc.img;timing=off;durability=volatile;faults=" + sys.argv[3])
tpg = TPG(Target(FabricModule("iscsi"), iqn), 1)
for name, value in (("authentication", "0"), ("generate_node_acls", "1"),
                    ("demo_mode_write_protect", "0"), ("cache_dynamic_acls", "1")):
    tpg.set_attribute(name, value)
NetworkPortal(tpg, "127.0.0.1", 3260)
LUN(tpg, 0, so)
tpg.enable = True
PY
}
tlog() { grep -a "$1" /var/log/tcmu-runner.log 2>/dev/null | wc -l; }
tcmu_logout() { iscsiadm -m node -T "$TCMU_IQN" -p 127.0.0.1:3260 --logout >/dev/null 2>&1; }

# tcmu_cut KIND N FRESH: one power cut of the TCMU LUN under the files
# workload, as one_cut makes one of memstored's: the rule in a faults file
# (after a seeded number of writes, the policy in turn), the backstore made
# with it, login (and a new file system when FRESH is 1), the workload and the
# unsynced writer until tcmu-runner's log says the power went. Under LIO
# nothing fails then: the handler holds every command for $TCMU_OFF_MS and then
# answers POWER ON, which the kernel would retry. So the guest does what a
# machine that lost its power too would, while the LUN is still off: the
# processes go, the file system is detached, and the initiator logs out, so
# nothing it held reaches the LUN after power-on. Once the log says the
# power is back, it logs in again, mounts (journal or log recovery), checks,
# unmounts and runs the file system's own check. Prints the CUT line with the handler's
# account (volatile=W lost=B) and when, after the cut, the logout went out
# and was answered; returns as one_cut does.
tcmu_cut() {
  local kind=$1 n=$2 fresh=$3 policy writes seed wpid t0 result detail fsck check before
  local cuts_before ons_before took out p tdev out_ms back_ms cut_at
  seed=$((SEED + n))
  policy=${policies[$((n % 3))]}
  writes=$((200 + (seed * 7919) % 1500))
  printf '[[fault]]\nop = "write"\nevery = %d\nonce = true\naction = "power-cut"\npolicy = "%s"\nseed = %d\noff_ms = %d\n' \
    "$writes" "$policy" "$seed" "$TCMU_OFF_MS" >"/run/memstore/cut-$n.toml"
  lio down >/dev/null 2>&1
  out=$(lio up "/run/memstore/cut-$n.toml" 2>&1) || { bad "cut_${kind}_$n" "LIO: $out"; return 3; }
  iscsiadm -m node -T "$TCMU_IQN" -o delete >/dev/null 2>&1
  iscsiadm -m node -T "$TCMU_IQN" -p 127.0.0.1:3260 -o new >/dev/null
  iscsiadm -m node -T "$TCMU_IQN" -p 127.0.0.1:3260 --login >/dev/null 2>&1 ||
    { bad "cut_${kind}_$n" "login to the LIO target failed"; return 3; }
  tdev=$(lun_dev 0 "$TCMU_IQN")
  [ -n "$tdev" ] || { bad "cut_${kind}_$n" "the TCMU LUN never appeared"; return 3; }
  if [ "$fresh" = 1 ]; then
    make_fs "$kind" "$tdev" || { tcmu_logout; return 3; }
    rm -f /tmp/pc-tlog
  fi
  mount -t "$(fs_type "$kind")" -o "$(mount_opts "$kind")" "$tdev" /mnt/pc || {
    echo "MEMSTORE-VM: CUT kind=$kind n=$n policy=$policy writes=$writes result=damaged mount failed before the cut"
    tcmu_logout
    return 1
  }
  cuts_before=$(tlog 'power cut (fault rule')
  ons_before=$(tlog ': power on after')
  run_workload "$kind" /tmp/pc-tlog &
  wpid=$!
  before=$(cat /tmp/pc-tlog 2>/dev/null | wc -l)
  unsynced_writer
  t0=$(date +%s)
  while [ "$(tlog 'power cut (fault rule')" = "$cuts_before" ] && kill -0 "$wpid" 2>/dev/null; do
    sleep 0.1
  done
  if [ "$(tlog 'power cut (fault rule')" = "$cuts_before" ]; then
    stop "$npid"
    bad "cut_${kind}_$n" "the workload ended without a cut: $(cat /tmp/pc-run.log)"
    umount /mnt/pc
    tcmu_logout
    return 3
  fi
  # Not waited for: they may sleep in I/O the LUN holds until power-on.
  for p in "$wpid" "$npid"; do pkill -KILL -P "$p" 2>/dev/null; kill -KILL "$p" 2>/dev/null; done
  umount -l /mnt/pc
  # The logout must go out while the LUN is still off, with half a second
  # to spare: no command is sent on a session after its logout (RFC 7143
  # §11.14, Logout Request), so nothing the kernel held reaches the LUN after
  # power-on. LIO answers the logout only once the session's commands are
  # answered, which the LUN does at power-on: the answer comes then.
  cut_at=$(date -d "$(grep -a 'power cut (fault rule' /var/log/tcmu-runner.log | tail -1 |
    cut -c1-23)" +%s%3N)
  out_ms=$(($(date +%s%3N) - cut_at))
  if [ "$(tlog ': power on after')" != "$ons_before" ] || [ "$out_ms" -ge $((TCMU_OFF_MS - 500)) ]; then
    tcmu_logout
    bad "cut_${kind}_$n" "the guest was not off the LUN until $out_ms ms after the cut" \
      "(--tcmu-off-ms $TCMU_OFF_MS is too short for this machine's load)"
    return 2
  fi
  tcmu_logout
  back_ms=$(($(date +%s%3N) - cut_at))
  wait "$wpid" "$npid" 2>/dev/null
  if [ -n "$(session_dir "$TCMU_IQN")" ]; then
    bad "cut_${kind}_$n" "the session outlived its logout"
    return 2
  fi
  for _ in $(seq 1 $((TCMU_OFF_MS / 100 + 600))); do
    [ "$(tlog ': power on after')" != "$ons_before" ] && break
    sleep 0.1
  done
  took=$(grep -a 'power cut (fault rule' /var/log/tcmu-runner.log | tail -1 |
    sed -n 's/.* flushes: \([0-9]*\) volatile writes, \([0-9]*\) blocks lost.*/volatile=\1 lost=\2/p')
  iscsiadm -m node -T "$TCMU_IQN" -p 127.0.0.1:3260 --login >/dev/null 2>&1 ||
    { bad "cut_${kind}_$n" "login after power-on failed"; return 2; }
  tdev=$(lun_dev 0 "$TCMU_IQN")
  [ -n "$tdev" ] || { bad "cut_${kind}_$n" "the TCMU LUN did not come back"; return 2; }
  result=ok
  if ! mount -t "$(fs_type "$kind")" -o "$(mount_opts "$kind")" "$tdev" /mnt/pc 2>/tmp/pc-mount.log; then
    result=damaged
    detail="mount after the cut failed: $(tr '\n' ' ' </tmp/pc-mount.log)"
  else
    check=$(check_workload "$kind" /tmp/pc-tlog)
    [ "${check%% *}" = ok ] || result=lost
    umount /mnt/pc
    if fs_check "$kind" "$tdev"; then fsck=clean; else
      fsck="not clean: $(grep -v '^ *$' /tmp/pc-fsck.log | tail -3 | tr '\n' ' ')"
      [ "$result" = ok ] && result=damaged
    fi
    detail="$check; fsck $fsck"
  fi
  tcmu_logout
  echo "MEMSTORE-VM: CUT kind=$kind n=$n policy=$policy writes=$writes result=$result" \
    "${took:-volatile=? lost=?} $(($(wc -l </tmp/pc-tlog) - before)) steps durable in this run;" \
    "$detail; logout sent ${out_ms} ms after the cut, answered at ${back_ms} ms;" \
    "$(($(date +%s) - t0)) s"
  [ "$result" = ok ]
}

# tcmu_ride_through: what the kernel makes of a cut under LIO when it keeps
# the disk. A rule cuts the power at the first write for 3 s; direct writes
# of a known pattern go on through it. The kernel must retry the commands
# answered POWER ON (its log says "Power-on or device reset occurred"), no
# write may fail, and every block written must read back: the write the
# cut took was done again after power-on.
tcmu_ride_through() {
  local out tdev t0 took
  printf '[[fault]]\nop = "write"\nonce = true\naction = "power-cut"\noff_ms = 3000\n' \
    >/run/memstore/ride.toml
  lio down >/dev/null 2>&1
  out=$(lio up /run/memstore/ride.toml 2>&1) || { bad tcmu_ride_through "LIO: $out"; return; }
  iscsiadm -m node -T "$TCMU_IQN" -o delete >/dev/null 2>&1
  iscsiadm -m node -T "$TCMU_IQN" -p 127.0.0.1:3260 -o new >/dev/null
  iscsiadm -m node -T "$TCMU_IQN" -p 127.0.0.1:3260 --login >/dev/null 2>&1 ||
    { bad tcmu_ride_through "login failed"; return; }
  tdev=$(lun_dev 0 "$TCMU_IQN")
  [ -n "$tdev" ] || { bad tcmu_ride_through "the TCMU LUN never appeared"; tcmu_logout; return; }
  dmesg -C
  head -c 4194304 /dev/urandom >/tmp/pc-ride
  t0=$(date +%s%N)
  if ! out=$(dd if=/tmp/pc-ride of="$tdev" bs=64k oflag=direct conv=fsync status=none 2>&1); then
    bad tcmu_ride_through "a write failed through the cut: $out; $(dmesg | grep -i "${tdev#/dev/}" | tail -3 | tr '\n' ' ')"
    tcmu_logout
    return
  fi
  took=$((($(date +%s%N) - t0) / 1000000))
  if ! cmp -s /tmp/pc-ride <(dd if="$tdev" bs=64k count=64 iflag=direct status=none); then
    bad tcmu_ride_through "what was written does not read back after the cut"
  elif ! dmesg | grep -q "Power-on or device reset occurred"; then
    bad tcmu_ride_through "the kernel never saw POWER ON: $(dmesg | tail -3 | tr '\n' ' ')"
  elif [ "$(tlog ': power on after')" = 0 ]; then
    bad tcmu_ride_through "no cut in tcmu-runner's log"
  else
    ok tcmu_ride_through "4 MiB of direct writes through a 3 s cut in $took ms, none failed, all" \
      "read back; the kernel: $(dmesg | grep -m1 'Power-on or device reset occurred' | sed 's/^\[[^]]*\] //')"
  fi
  tcmu_logout
  lio down >/dev/null 2>&1
}

rode=""
for run in $RUNS; do
  kind=${run%%:*}
  cuts=${run#*:}
  step "power-cut-$kind"
  if [[ $kind == tcmu-* ]]; then
    tcmu_setup || continue
    [ -z "$rode" ] && { tcmu_ride_through; rode=1; }
    fresh=1
  else
    make_fs "$kind" || continue
  fi
  failed=0 done_cuts=0
  for i in $(seq 1 "$cuts"); do
    cut_no=$((cut_no + 1))
    if [[ $kind == tcmu-* ]]; then
      tcmu_cut "$kind" "$cut_no" "$fresh"
    else
      one_cut "$kind" "$cut_no"
    fi
    case $? in
      0) done_cuts=$((done_cuts + 1)) ;;
      2 | 3) break ;;
      *) done_cuts=$((done_cuts + 1)) failed=$((failed + 1))
         # The control has shown what it must at its first loss (unless
         # every cut is to be counted, CONTROL_ALL=1).
         [[ $kind == *nobarrier ]] && [ -z "${CONTROL_ALL:-}" ] && break
         # What follows a damaged file system would only repeat the damage:
         # the next cut starts on a new one.
         if [[ $kind == tcmu-* ]]; then fresh=1; continue; fi
         make_fs "$kind" || break ;;
    esac
    fresh=0
  done
  [[ $kind == tcmu-* ]] && lio down >/dev/null 2>&1
  if [[ $kind == *nobarrier ]]; then
    if [ "$failed" -gt 0 ]; then
      ok "control_$kind" "$failed of $done_cuts cuts (at most $cuts) lost fsynced data or damaged" \
        "the file system"
    else
      bad "control_$kind" "none of $done_cuts cuts without barriers lost anything: the device did not" \
        "catch a missing flush"
    fi
  elif [ "$done_cuts" -lt "$cuts" ]; then
    bad "cuts_$kind" "only $done_cuts of $cuts cuts were made"
  elif [ "$failed" = 0 ]; then
    ok "cuts_$kind" "$cuts cuts, nothing fsynced or committed lost, the file system clean after each"
  else
    bad "cuts_$kind" "$failed of $cuts cuts lost durable data or damaged the file system"
  fi
done
iscsiadm -m node -T "$IQN" -p "$PORTAL" --logout >/dev/null 2>&1 || true
finish
