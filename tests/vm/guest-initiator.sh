# SPDX-License-Identifier: Apache-2.0
# The Linux initiator case of the VM test (scripts/vm-test), sourced by
# guest-init.sh after its own checks (it uses ok, bad, step, sg_checks and
# $share from there, and LI_* from vm.env). open-iscsi in the guest logs in
# directly to a memstored on the host (timing off, an image file in the host's
# OUT directory), reached at $LI_PORTAL: a guestfwd address of QEMU's user
# network, relayed to the daemon's loopback portal (scripts/vm-test says why).
#
# Checks: discovery and login, sg3-utils (page 20h, VPD B0h, a MEMS BATCH),
# the block limits Linux took from VPD B0h, mkfs.ext4 and a verified file
# tree; then two failures the session must survive by itself:
#   a) the host kills memstored (SIGKILL) in the middle of a write and starts
#      it again on the same port and image;
#   b) the host cuts the guest's link (QEMU monitor, set_link off) for longer
#      than the NOP-Out timeout, then restores it.
# After each: the write finished without an error, every acknowledged write
# reads back intact after the caches are dropped, and fsck.ext4 -f -n is clean.
# Then fault injection through the daemon's control socket (li_faults: a
# medium error the kernel must log at the right sector, and a command timeout
# the SCSI error handler must recover from).
#
# Handshake with the host, on the 9p share: the guest creates li-kill (li-cut)
# once its writer is running; the host answers li-restarted (li-restored) when
# memstored is serving again (the link is up again). At the end the guest
# prints the case's wall time (MEMSTORE-VM: LI-TIME N s).

li_open_iscsi_tuning=(
  # How long the SCSI layer holds commands while the session is down before
  # failing them up to the file system (default 120 s). It must cover a
  # daemon restart and the link cut with the reconnection after it; 60 s also
  # bounds a failed run, where the writer then ends with an I/O error
  # instead of hanging.
  node.session.timeo.replacement_timeout=60
  # The initiator's own keepalive: a NOP-Out every 2 s, the connection is
  # declared dead 3 s after an unanswered one (defaults 5 and 5), so a cut
  # link is noticed within about 5 s.
  node.conn[0].timeo.noop_out_interval=2
  node.conn[0].timeo.noop_out_timeout=3
  # A login attempt during the outage gives up after 5 s (default 15), so the
  # next attempt after the link is back comes sooner.
  node.conn[0].timeo.login_timeout=5
)


# li_writer FILE ANSWER: writes the payload to FILE in 1 MiB direct writes
# (each one acknowledged by the target before the next starts) until the
# host's ANSWER file exists, then 4 more; at most 128. Prints the number of
# chunks and the longest single write in ms (the outage as the writer saw it).
li_writer() {
  local f=$1 answer=$2 i=0 left=-1 t0 t1 ms longest=0
  while [ "$i" -lt 128 ]; do
    t0=$(date +%s%N)
    dd if=/tmp/li-payload of="$f" bs=1M count=1 skip=$((i % 16)) seek="$i" oflag=direct \
      conv=notrunc status=none || { echo "write $i failed"; return 1; }
    t1=$(date +%s%N)
    ms=$(((t1 - t0) / 1000000))
    [ "$ms" -gt "$longest" ] && longest=$ms
    i=$((i + 1))
    [ "$left" -lt 0 ] && [ -e "$share/$answer" ] && left=4
    if [ "$left" -ge 0 ]; then
      left=$((left - 1))
      [ "$left" -lt 0 ] && break
    fi
  done
  echo "$i $longest"
  [ "$left" -lt 0 ] && [ -e "$share/$answer" ]
}

# li_expected CHUNKS: the sha256 of what li_writer wrote in CHUNKS chunks.
li_expected() {
  local j
  for j in $(seq 0 $(($1 - 1))); do
    dd if=/tmp/li-payload bs=1M count=1 skip=$((j % 16)) status=none
  done | sha256sum | cut -d' ' -f1
}

li_session_state() {  # the session's and the connection's state, one line
  iscsiadm -m session -P 1 2>/dev/null | awk -v t="$LI_IQN" '
    $1 == "Target:" { on = ($2 == t) }
    on && /iSCSI Connection State:|iSCSI Session State:/ { sub(/^[ \t]+/, ""); printf "%s; ", $0 }'
}

# li_failure TAG MARKER ANSWER WHAT: one failure scenario around a running writer.
li_failure() {
  local tag=$1 marker=$2 answer=$3 what=$4 wpid out chunks longest errors_before errors_after lines_before
  errors_before=$(dmesg | grep -c 'detected conn error')
  lines_before=$(dmesg | wc -l)
  # An acknowledged set first: a file tree, written back (sync) before the
  # host acts, with its checksums.
  mkdir -p "/mnt/li/$tag"
  for i in $(seq 1 12); do head -c $((i * 29 * 1024 + i)) /dev/urandom >"/mnt/li/$tag/f$i"; done
  sync
  (cd /mnt/li && find "$tag" -type f -exec sha256sum {} + | sort -k2 >"/tmp/li-$tag.sha")
  li_writer "/mnt/li/$tag-inflight" "$answer" >"/tmp/li-$tag.writer" 2>&1 &
  wpid=$!
  # The host acts once the writer has 2 MiB on the disk.
  for _ in $(seq 1 300); do
    [ "$(stat -c %s "/mnt/li/$tag-inflight" 2>/dev/null || echo 0)" -ge 2097152 ] && break
    sleep 0.1
  done
  touch "$share/$marker"
  if wait "$wpid"; then
    read -r chunks longest <"/tmp/li-$tag.writer"
    errors_after=$(dmesg | grep -c 'detected conn error')
    ok "li_${tag}_write" "$what; $chunks MiB written across it, longest 1 MiB write $longest ms," \
      "connection errors seen $((errors_after - errors_before))"
  else
    bad "li_${tag}_write" "$what: $(tr '\n' ' ' <"/tmp/li-$tag.writer")$(dmesg | tail -5 | tr '\n' ' ')"
    # What the kernel's iSCSI and SCSI layers said from the start of the
    # scenario (connection errors, recovery, the first failed command), the
    # cause a one-line verdict cannot carry; the host prints these lines.
    # Reconnection attempts repeat one line; they are counted, first and last.
    dmesg | tail -n +$((lines_before + 1)) >"/tmp/li-$tag.dmesg"
    {
      echo "$(grep -c 'detected conn error' "/tmp/li-$tag.dmesg") connection errors, the first and the last:"
      grep 'detected conn error' "/tmp/li-$tag.dmesg" | sed -n '1p;$p'
      grep -E 'connection|session|iscsi|sd [0-9]|I/O error|Sense|Result' "/tmp/li-$tag.dmesg" |
        grep -v 'detected conn error' | head -30
    } | sed 's/^/MEMSTORE-VM: KERNEL /'
    echo "MEMSTORE-VM: KERNEL session state: $(li_session_state)"
    share_wait "$answer" 60 || true
    return 1
  fi
  out=$(li_session_state)
  if grep -q "iSCSI Session State: LOGGED_IN" <<<"$out"; then ok "li_${tag}_reconnected" "$out"; else
    bad "li_${tag}_reconnected" "$out"
  fi
  # Every acknowledged write, read back from the target (not the page cache).
  sync
  echo 3 >/proc/sys/vm/drop_caches
  if (cd /mnt/li && sha256sum --quiet -c "/tmp/li-$tag.sha") >/tmp/li-verify.log 2>&1 &&
     [ "$(sha256sum <"/mnt/li/$tag-inflight" | cut -d' ' -f1)" = "$(li_expected "$chunks")" ]; then
    ok "li_${tag}_verify" "$(wc -l <"/tmp/li-$tag.sha") files and $chunks MiB intact"
  else
    bad "li_${tag}_verify" "$(head -3 /tmp/li-verify.log | tr '\n' ' ')"
  fi
  li_fsck "$tag"
}

li_fsck() {  # unmount, fsck.ext4 -f -n, mount again
  local out
  umount /mnt/li || { bad "li_$1_fsck" "umount failed"; return 1; }
  if out=$(fsck.ext4 -f -n "$li_dev" 2>&1); then ok "li_$1_fsck" "$(tail -1 <<<"$out")"; else
    bad "li_$1_fsck" "$(tail -4 <<<"$out" | tr '\n' ' ')"
  fi
  mount "$li_dev" /mnt/li || { bad "li_$1_mount" "remount failed"; return 1; }
}

li_main() {
  local out host_no d
  step linux-initiator
  out=$(iscsiadm -m discovery -t st -p "$LI_PORTAL" 2>&1)
  # memstored answers SendTargets with its own portal (127.0.0.1:PORT on the
  # host), which the guest cannot reach through the NAT: the node is
  # recorded by hand at the address the guest does reach, as an
  # administrator behind NAT would.
  if grep -q "$LI_IQN" <<<"$out"; then ok li_discovery "$(tr '\n' ' ' <<<"$out")"; else
    bad li_discovery "$out"
    return
  fi
  iscsiadm -m node -T "$LI_IQN" -o delete >/dev/null 2>&1
  iscsiadm -m node -T "$LI_IQN" -p "$LI_PORTAL" -o new >/dev/null
  local kv
  for kv in "${li_open_iscsi_tuning[@]}"; do
    iscsiadm -m node -T "$LI_IQN" -p "$LI_PORTAL" -o update -n "${kv%%=*}" -v "${kv#*=}" >/dev/null
  done
  if out=$(iscsiadm -m node -T "$LI_IQN" -p "$LI_PORTAL" --login 2>&1); then ok li_login; else
    bad li_login "$out"
    return
  fi
  # The disk of this session: its SCSI host number from the session's sysfs.
  li_dev=""
  for _ in $(seq 1 60); do
    for d in /sys/class/iscsi_session/session*; do
      [ "$(cat "$d/targetname" 2>/dev/null)" = "$LI_IQN" ] || continue
      host_no=$(ls -d "$d"/device/target*/*:*:*:0/block/* 2>/dev/null | head -1)
      [ -n "$host_no" ] && li_dev=/dev/${host_no##*/}
    done
    [ -n "$li_dev" ] && break
    sleep 0.5
  done
  if [ -n "$li_dev" ]; then ok li_disk "$li_dev"; else bad li_disk "LUN 0 never appeared"; return; fi
  sg_checks li "$li_dev"

  # Block limits as Linux took them from VPD B0h: the optimal transfer
  # length granularity p = 10 blocks is minimum_io_size, the optimal transfer
  # length ST = 270 blocks is optimal_io_size; UNMAP (thin provisioning,
  # optimal unmap granularity 1 block) makes discard available.
  local q=/sys/block/${li_dev#/dev/}/queue
  out="minimum_io_size=$(cat $q/minimum_io_size) optimal_io_size=$(cat $q/optimal_io_size)"
  out+=" discard_granularity=$(cat $q/discard_granularity) discard_max_bytes=$(cat $q/discard_max_bytes)"
  if grep -q "minimum_io_size=5120 optimal_io_size=138240 discard_granularity=512 " <<<"$out" &&
     ! grep -q "discard_max_bytes=0$" <<<"$out"; then
    ok li_queue_limits "$out"
  else
    bad li_queue_limits "$out"
  fi

  local start
  start=$(date +%s)
  if mkfs.ext4 -q -F "$li_dev" >/tmp/li-mkfs.log 2>&1; then ok li_mkfs "$(($(date +%s) - start)) s"; else
    bad li_mkfs "$(tail -3 /tmp/li-mkfs.log)"
    return
  fi
  mkdir -p /mnt/li
  mount "$li_dev" /mnt/li || { bad li_mount; return; }
  mkdir -p /mnt/li/tree/a/b /mnt/li/tree/c
  for i in $(seq 1 24); do
    head -c $((i * 37 * 1024 + i)) /dev/urandom >"/mnt/li/tree/$([ $((i % 3)) = 0 ] && echo a/b || echo c)/f$i"
  done
  (cd /mnt/li && find tree -type f -exec sha256sum {} + | sort -k2 >/tmp/li-tree.sha)
  umount /mnt/li
  echo 3 >/proc/sys/vm/drop_caches
  mount "$li_dev" /mnt/li
  if (cd /mnt/li && sha256sum --quiet -c /tmp/li-tree.sha) >/tmp/li-verify.log 2>&1; then
    ok li_fs_verify "$(wc -l </tmp/li-tree.sha) files, $(du -sk /mnt/li/tree | cut -f1) KiB"
  else
    bad li_fs_verify "$(head -3 /tmp/li-verify.log)"
  fi

  head -c $((16 << 20)) /dev/urandom >/tmp/li-payload
  step li-kill
  li_failure kill li-kill li-restarted "memstored killed (SIGKILL) and restarted" || return
  step li-link-cut
  li_failure cut li-cut li-restored "link cut for $LI_CUT_SECONDS s" || return
  # The tree from before both failures, once more.
  if (cd /mnt/li && sha256sum --quiet -c /tmp/li-tree.sha) >/tmp/li-verify.log 2>&1; then
    ok li_tree_after "$(wc -l </tmp/li-tree.sha) files"
  else
    bad li_tree_after "$(head -3 /tmp/li-verify.log)"
  fi
  li_faults
  li_raid
  li_multipath
  li_lun_runtime
  li_digest
  li_disk
  umount /mnt/li
  if iscsiadm -m node -T "$LI_IQN" -p "$LI_PORTAL" --logout >/dev/null 2>&1; then ok li_logout; else
    bad li_logout
  fi
}

# li_fault N RULE [LUN]: asks the host to add RULE (a JSON object of
# [[target.lun.fault]]'s keys) to LUN (default 0) through memstored's control
# socket, or with RULE = clear to remove every rule; waits for the answer.
li_fault() {
  echo "${3:-0} $2" >"$share/li-fault-$1.tmp"
  mv "$share/li-fault-$1.tmp" "$share/li-fault-$1"
  share_wait "li-fault-$1.done" 60
}

# Fault injection under the Linux initiator (docs/faults.md):
#   a) a medium error on 8 blocks: a read that starts 8 blocks before them
#      fails, and the kernel logs the medium error at the first bad sector
#      (sd takes it from the sense data's INFORMATION);
#   b) one READ whose response never comes: at the disk's 5 s command
#      timeout the iSCSI initiator first pings the target (a NOP-Out; the
#      connection answers, so the timer starts again), at the second the SCSI
#      error handler aborts the command (ABORT TASK, answered by memstored)
#      and retries it, and the retry succeeds. The handler's own log
#      (logging_level 7: error recovery) shows the abort and the retry.
li_faults() {
  local bad=6000000 slow=6100000 out sdev before after t0 t1
  sdev=/sys/block/${li_dev#/dev/}/device
  step li-faults
  dmesg -C
  li_fault 1 "{\"op\": \"read\", \"lba\": [$bad, $((bad + 7))], \"action\": \"medium-error\"}" ||
    { bad li_medium_error "the host never added the rule"; return; }
  if dd if="$li_dev" of=/dev/null bs=512 skip=$((bad - 8)) count=16 iflag=direct status=none 2>/dev/null; then
    bad li_medium_error "the read of sectors $((bad - 8))-$((bad + 7)) succeeded"
  elif out=$(dmesg | grep -E "critical medium error.*sector $bad |Medium Error|Unrecovered read error" | tr '\n' ' ') &&
       grep -q "critical medium error.*sector $bad " <<<"$out" && grep -q "Unrecovered read error" <<<"$out"; then
    ok li_medium_error "$(dmesg | grep -m1 "critical medium error" | sed 's/^\[[^]]*\] //')"
  else
    bad li_medium_error "$(dmesg | tail -8 | tr '\n' ' ')"
  fi
  li_fault 2 clear || true
  echo 5 >"$sdev/timeout"
  before=$(($(cat "$sdev/iotmo_cnt")))
  dmesg -C
  # SCSI_LOG_ERROR_RECOVERY (bits 0-2): a message of level L prints when
  # the field is above L; the abort's are level 3.
  echo 7 >/proc/sys/dev/scsi/logging_level
  li_fault 3 "{\"op\": \"read\", \"lba\": [$slow, $slow], \"once\": true, \"action\": \"timeout\"}" ||
    { bad li_timeout "the host never added the rule"; return; }
  t0=$(date +%s%N)
  if dd if="$li_dev" of=/dev/null bs=4096 skip=$((slow / 8)) count=1 iflag=direct status=none; then
    t1=$(date +%s%N)
    after=$(($(cat "$sdev/iotmo_cnt")))
    out="the read took $(((t1 - t0) / 1000000)) ms (timeout 5 s), timed-out commands $before -> $after"
    if [ $((t1 - t0)) -ge 5000000000 ] && [ "$after" -gt "$before" ] &&
       dmesg | grep -q "aborting command" && dmesg | grep -q "retry aborted command"; then
      ok li_timeout "$out; $(dmesg | grep -m1 "retry aborted command" | sed 's/^\[[^]]*\] //')"
    else
      bad li_timeout "$out; $(dmesg | tail -8 | tr '\n' ' ')"
    fi
  else
    bad li_timeout "the read failed: $(dmesg | tail -6 | tr '\n' ' ')"
  fi
  # c) the same, but the abort is refused (abort = "reject"): the error
  #    handler escalates to a device reset (LOGICAL UNIT RESET), which ends
  #    the withheld command, and the retry after it succeeds.
  dmesg -C
  li_fault 6 "{\"op\": \"read\", \"lba\": [$((slow + 8)), $((slow + 8))], \"once\": true, \"action\": \"timeout\", \"abort\": \"reject\"}" ||
    { bad li_timeout_reset "the host never added the rule"; return; }
  t0=$(date +%s%N)
  if dd if="$li_dev" of=/dev/null bs=4096 skip=$(((slow + 8) / 8)) count=1 iflag=direct status=none; then
    t1=$(date +%s%N)
    out="the read took $(((t1 - t0) / 1000000)) ms"
    if dmesg | grep -q "Sending BDR"; then
      ok li_timeout_reset "$out; $(dmesg | grep -m1 "Sending BDR" | sed 's/^\[[^]]*\] //')"
    else
      bad li_timeout_reset "$out, no device reset: $(dmesg | tail -8 | tr '\n' ' ')"
    fi
  else
    bad li_timeout_reset "the read failed: $(dmesg | tail -6 | tr '\n' ' ')"
  fi
  if dd if="$li_dev" of=/dev/null bs=1M count=4 iflag=direct status=none; then ok li_after_faults; else
    bad li_after_faults "$(dmesg | tail -4 | tr '\n' ' ')"
  fi
  echo 0 >/proc/sys/dev/scsi/logging_level
  echo 30 >"$sdev/timeout"
}

# A LUN added and removed while the session runs (docs/memstored.md, "LUNs
# added and removed while the daemon runs"): LUN 5 (in memory, real timing)
# appears after a rescan; while a reader streams from it, the host removes
# it, and the reader must fail at once with the kernel logging LOGICAL UNIT
# NOT SUPPORTED, not after a command timeout; then the disk is deleted.
li_lun_runtime() {
  local dev rpid t0 t1 out
  step li-lun-runtime
  li_fault 8 lun-add 5 || { bad li_lun_added "the host never added LUN 5"; return; }
  grep -q '"lun": 5' "$share/li-fault-8.done" ||
    { bad li_lun_added "lun-add: $(tr '\n' ' ' <"$share/li-fault-8.done")"; return; }
  dmesg -C
  iscsiadm -m session --rescan >/dev/null 2>&1 || true
  dev=$(li_lun_dev 5)
  if [ -n "$dev" ]; then
    ok li_lun_added "$dev after iscsiadm --rescan, $(($(cat "/sys/block/${dev#/dev/}/size") / 2048)) MiB"
  else
    bad li_lun_added "LUN 5 never appeared: $(dmesg | tail -4 | tr '\n' ' ')"
    return
  fi
  echo 30 >"/sys/block/${dev#/dev/}/device/timeout"
  # 4 KiB direct reads, one at a time, each timed by the model: the LUN is
  # busy for the whole removal.
  dd if="$dev" of=/dev/null bs=4096 count=200000 iflag=direct status=none 2>/tmp/li-lun5.err &
  rpid=$!
  sleep 1
  dmesg -C
  t0=$(date +%s%N)
  li_fault 9 lun-remove 5 || { bad li_lun_removed "the host never removed LUN 5"; kill "$rpid"; return; }
  if wait "$rpid"; then
    bad li_lun_removed "the reader finished without an error"
  else
    t1=$(date +%s%N)
    out="the reader failed $(((t1 - t0) / 1000000)) ms after the request (disk timeout 30 s)"
    if [ $((t1 - t0)) -lt 10000000000 ] && dmesg | grep -qi "logical unit not supported"; then
      ok li_lun_removed "$out; $(dmesg | grep -i -m1 "logical unit not supported" | sed 's/^\[[^]]*\] //')"
    else
      bad li_lun_removed "$out; $(dmesg | tail -6 | tr '\n' ' ')"
    fi
  fi
  echo 1 >"/sys/block/${dev#/dev/}/device/delete" 2>/dev/null || true
  if [ ! -e "/sys/block/${dev#/dev/}" ]; then ok li_lun_deleted "${dev#/dev/} deleted"; else
    bad li_lun_deleted "${dev#/dev/} still there"
  fi
}

# A corrupted data digest (action corrupt-digest, docs/faults.md) under a
# session that negotiated CRC32C digests, through the second portal: the
# kernel's initiator finds the Data-In's digest wrong, drops the connection,
# logs in again and retries the read, which then succeeds.
li_digest() {
  local ip2=${LI_PORTAL2%:*} kv dev lba=6200000 t0 t1 out
  step li-digest
  rm -f "$share/li-path2-down"
  iscsiadm -m node -T "$LI_IQN" -p "$LI_PORTAL2" -o new >/dev/null 2>&1 || true
  for kv in "${li_open_iscsi_tuning[@]}" node.conn[0].iscsi.HeaderDigest=CRC32C \
    node.conn[0].iscsi.DataDigest=CRC32C; do
    iscsiadm -m node -T "$LI_IQN" -p "$LI_PORTAL2" -o update -n "${kv%%=*}" -v "${kv#*=}" >/dev/null
  done
  iscsiadm -m node -T "$LI_IQN" -p "$LI_PORTAL2" --login >/dev/null 2>&1 ||
    { bad li_digest "login with digests to $LI_PORTAL2 failed"; return; }
  dev=$(li_lun_dev 1 "$ip2")
  out=$(iscsiadm -m session -P 2 2>/dev/null | grep -E "HeaderDigest|DataDigest" | sort -u | tr -s ' \n' ' ')
  if [ -z "$dev" ] || ! grep -q "DataDigest: CRC32C" <<<"$out"; then
    bad li_digest "LUN 1 through $LI_PORTAL2: '$dev', digests: $out"
  elif ! li_fault 10 "{\"op\": \"read\", \"lba\": [$lba, $((lba + 7))], \"once\": true, \"action\": \"corrupt-digest\"}" 1 ||
       ! grep -q '"id"' "$share/li-fault-10.done"; then
    bad li_digest "the rule was not added: $(tr '\n' ' ' <"$share/li-fault-10.done" 2>/dev/null)"
  else
    dmesg -C
    t0=$(date +%s%N)
    if dd if="$dev" of=/dev/null bs=4096 skip=$((lba / 8)) count=1 iflag=direct status=none; then
      t1=$(date +%s%N)
      # The kernel logs the cause as a number: 1015 is ISCSI_ERR_DATA_DGST
      # (ISCSI_ERR_BASE 1000 + 15, include/scsi/iscsi_if.h).
      out="the read succeeded after $(((t1 - t0) / 1000000)) ms; $(dmesg | grep -m1 "conn error" | sed 's/^\[[^]]*\] *//')"
      if dmesg | grep -q "conn error (1015)"; then ok li_digest "$out (1015: data digest error)"; else
        bad li_digest "$out; no data digest error logged: $(dmesg | tail -5 | tr '\n' ' ')"
      fi
    else
      bad li_digest "the read failed: $(dmesg | tail -6 | tr '\n' ' ')"
    fi
    li_fault 11 clear 1 || true
  fi
  iscsiadm -m node -T "$LI_IQN" -p "$LI_PORTAL2" --logout >/dev/null 2>&1 || true
}

# A disk LUN (LUN 3, device = "atlas10k"; docs/disk-models.md): Linux reads
# its rotation rate from VPD B1h and keeps it a rotating disk
# (queue/rotational = 1), and mode page 04h (Rigid Disk Geometry) carries
# the same rate.
li_disk() {
  local dev q vpd geometry
  step li-disk
  dev=$(li_lun_dev 3)
  [ -n "$dev" ] || { bad li_disk_rotational "LUN 3 (atlas10k) never appeared"; return; }
  q=/sys/block/${dev#/dev/}/queue
  vpd=$(sg_vpd -p bdc "$dev" 2>&1 | grep -i "rotation" | tr -s ' ' | head -1)
  geometry=$(sg_modes -p 4 "$dev" 2>&1 | grep -i -E "rotation|rpm" | tr -s ' ' | head -1)
  if [ "$(cat "$q/rotational")" = 1 ] && grep -q 10025 <<<"$vpd"; then
    ok li_disk_rotational "$dev: rotational $(cat "$q/rotational"); B1h:$vpd; page 04h:$geometry"
  else
    bad li_disk_rotational "$dev: rotational $(cat "$q/rotational"); B1h:$vpd; page 04h:$geometry"
  fi
}

# li_lun_dev N [IP]: the disk of LUN N of the session (of the one whose
# connection goes to IP: one path of a multipath pair); empty if it never
# appears.
li_lun_dev() {
  local d b n
  for _ in $(seq 1 60); do
    for d in /sys/class/iscsi_session/session*; do
      [ "$(cat "$d/targetname" 2>/dev/null)" = "$LI_IQN" ] || continue
      n=${d##*session}
      if [ -n "${2:-}" ]; then
        [ "$(cat "/sys/class/iscsi_connection/connection$n:0/persistent_address" 2>/dev/null)" = "$2" ] ||
          continue
      fi
      b=$(ls -d "$d"/device/target*/*:*:*:"$1"/block/* 2>/dev/null | head -1)
      [ -n "$b" ] && { echo "/dev/${b##*/}"; return; }
    done
    sleep 0.5
  done
}

# md RAID1 over LUNs 1 and 2 (docs/faults.md): 32 MiB written through the
# mirror, then virtual tip 7 of LUN 2 fails (every block it holds, reads and
# writes). Reading it all back through md must give the same data: md takes
# each failed read from LUN 1, and when its rewrite of the bad block on LUN 2
# fails too, fails that leg and runs degraded.
li_raid() {
  local a b sum back state out
  step li-raid
  a=$(li_lun_dev 1)
  b=$(li_lun_dev 2)
  [ -n "$a" ] && [ -n "$b" ] || { bad li_raid "LUNs 1 and 2 did not appear ($a, $b)"; return; }
  # --assume-clean: a resync of 3.4 GB would take an hour under TCG, and the
  # test reads back only what it wrote through the mirror.
  if ! out=$(mdadm --create /dev/md0 --run --level=1 --raid-devices=2 --assume-clean \
    --metadata=1.2 "$a" "$b" 2>&1); then
    bad li_raid "mdadm --create: $(tr '\n' ' ' <<<"$out")"
    return
  fi
  head -c $((32 << 20)) /dev/urandom >/tmp/li-raid
  sum=$(sha256sum </tmp/li-raid | cut -d' ' -f1)
  dd if=/tmp/li-raid of=/dev/md0 bs=1M oflag=direct status=none || { bad li_raid "write failed"; return; }
  li_fault 4 '{"action": "failed-tip", "tip": 7}' 2 || { bad li_raid "the host never added the rule"; return; }
  echo 3 >/proc/sys/vm/drop_caches
  back=$(dd if=/dev/md0 bs=1M count=32 iflag=direct status=none | sha256sum | cut -d' ' -f1)
  state=$(grep -A1 "^md0" /proc/mdstat | tr -s '\n ' ' ')
  if [ "$back" = "$sum" ] && grep -q "active raid1" <<<"$state"; then
    ok li_raid "32 MiB intact through a failed tip on one leg; $state;" \
      "$(dmesg | grep -m1 -E "md/raid1:md0: (Disk failure|.*read error)" | sed 's/^\[[^]]*\] //')"
  else
    bad li_raid "read back $back, wrote $sum; $state; $(dmesg | grep md | tail -4 | tr '\n' ' ')"
  fi
  mdadm --stop /dev/md0 >/dev/null 2>&1 || true
  li_fault 5 clear 2 || true
}

# li_session_up IP: the session whose connection goes to IP is logged in.
li_session_up() {
  local d n
  for d in /sys/class/iscsi_session/session*; do
    n=${d##*session}
    [ "$(cat "/sys/class/iscsi_connection/connection$n:0/persistent_address" 2>/dev/null)" = "$1" ] &&
      [ "$(cat "$d/state" 2>/dev/null)" = "LOGGED_IN" ] && return 0
  done
  return 1
}

# dm-multipath over two paths to LUN 1 (docs/faults.md, "Path failure"):
# the second portal is another guestfwd address relayed to the same
# memstored; the kernel's multipath target joins both disks in one
# round-robin group. While 32 MiB are written through it, the guest creates
# li-path2-down on the share, and the second path's relay closes its
# connection and every new one, as a pulled cable would. The write must end
# without an error, served by the first path once the kernel has failed the
# second (after the session's 5 s replacement timeout); the path comes back
# when the file goes, and the data reads back the same through either path.
li_multipath() {
  local ip1=${LI_PORTAL%:*} ip2=${LI_PORTAL2%:*} p1 p2 mp kv size sum back1 back2 t0 t1 status i
  step li-multipath
  rm -f "$share/li-path2-down"
  iscsiadm -m node -T "$LI_IQN" -p "$LI_PORTAL2" -o new >/dev/null
  for kv in "${li_open_iscsi_tuning[@]}" node.session.timeo.replacement_timeout=5; do
    iscsiadm -m node -T "$LI_IQN" -p "$LI_PORTAL2" -o update -n "${kv%%=*}" -v "${kv#*=}" >/dev/null
  done
  iscsiadm -m node -T "$LI_IQN" -p "$LI_PORTAL2" --login >/dev/null 2>&1 ||
    { bad li_multipath "login to the second portal $LI_PORTAL2 failed"; return; }
  p1=$(li_lun_dev 1 "$ip1")
  p2=$(li_lun_dev 1 "$ip2")
  [ -n "$p1" ] && [ -n "$p2" ] && [ "$p1" != "$p2" ] ||
    { bad li_multipath "LUN 1 did not appear on both paths ($p1, $p2)"; return; }
  modprobe -a dm_multipath dm_round_robin
  size=$(blockdev --getsz "$p1")
  # One priority group, round-robin, both paths (1 I/O each before the next).
  if ! dmsetup create li_mp --table "0 $size multipath 0 0 1 1 round-robin 0 2 1 $p1 1 $p2 1"; then
    bad li_multipath "dmsetup create failed"
    return
  fi
  # No udev in the guest to make /dev/mapper/li_mp: the kernel's own node
  # (devtmpfs) is /dev/dm-MINOR.
  mp=/dev/dm-$(dmsetup info -c --noheadings -o minor li_mp | tr -d ' ')
  [ -b "$mp" ] || { bad li_multipath "no block device $mp for the map"; dmsetup remove li_mp; return; }
  head -c $((32 << 20)) /dev/urandom >/tmp/li-mp
  sum=$(sha256sum </tmp/li-mp | cut -d' ' -f1)
  t0=$(date +%s%N)
  dd if=/tmp/li-mp of="$mp" bs=1M count=4 oflag=direct status=none ||
    { bad li_multipath "the write through both paths failed"; dmsetup remove li_mp; return; }
  touch "$share/li-path2-down"
  if dd if=/tmp/li-mp of="$mp" bs=1M skip=4 seek=4 oflag=direct status=none; then
    t1=$(date +%s%N)
    status=$(dmsetup status li_mp)
    # Path fields: "<major:minor> <A|F> <fail count> <repeat>".
    if grep -q " F " <<<"$status"; then
      ok li_multipath_failover "32 MiB written in $(((t1 - t0) / 1000000)) ms while $LI_PORTAL2 was down; $status"
    else
      bad li_multipath_failover "the second path never failed: $status"
    fi
  else
    bad li_multipath_failover "the write failed: $(dmesg | tail -6 | tr '\n' ' ')"
  fi
  rm -f "$share/li-path2-down"
  # The session logs in again by itself; the path is then put back as
  # multipathd's checker would.
  # Logged in is not enough: the kernel unblocks the session's disks just
  # after, and a disk still in transport-offline refuses to open.
  for i in $(seq 1 60); do
    li_session_up "$ip2" && [ "$(cat "/sys/block/${p2#/dev/}/device/state" 2>/dev/null)" = running ] &&
      break
    sleep 1
  done
  dmsetup message li_mp 0 reinstate_path "$p2" >/dev/null 2>&1
  status=$(dmsetup status li_mp)
  echo 3 >/proc/sys/vm/drop_caches
  back1=$(dd if="$p1" bs=1M count=32 iflag=direct status=none | sha256sum | cut -d' ' -f1)
  back2=$(dd if="$p2" bs=1M count=32 iflag=direct status=none | sha256sum | cut -d' ' -f1)
  if [ "$back1" = "$sum" ] && [ "$back2" = "$sum" ] && ! grep -q " F " <<<"$status"; then
    ok li_multipath_restored "both paths active again after ${i} s, the data the same through each: $status"
  else
    bad li_multipath_restored "through $p1 $back1, $p2 $back2, wrote $sum; $status"
  fi
  dmsetup remove li_mp >/dev/null 2>&1 || true
  iscsiadm -m node -T "$LI_IQN" -p "$LI_PORTAL2" --logout >/dev/null 2>&1 || true
}

li_start=$(date +%s)
li_main
echo "MEMSTORE-VM: LI-TIME $(($(date +%s) - li_start)) s"
