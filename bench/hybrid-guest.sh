#!/bin/bash
# SPDX-License-Identifier: Apache-2.0
# bench/hybrid-linux's guest side, run by the VM's init stub from the 9p
# share (memstore.guest=hybrid-guest.sh). The host's memstored serves three
# LUNs, which QEMU passes through (or, with TRANSPORT=open-iscsi, the guest's
# open-iscsi logs in to them): 0 a G2 MEMStore and 1 an Atlas 10K disk, both
# in realtime timing, and 2 an in-memory LUN with timing off (what the path
# from the guest to memstored costs, without a device).
# Then, for each configuration of $CONFIGS, the recipe of scripts/hybrid
# builds the stack from the kernel's own code, fio runs the workloads of
# $JOBS on it, and the recipe takes it down again:
#   path, mems, disk       LUN 2, LUN 0, LUN 1 alone
#   dm-writecache          LUN 0 caching writes for LUN 1
#   raid1-write-mostly     md RAID1 of LUN 0 and LUN 1, the disk write-mostly
#   dm-cache, bcache       LUN 0 as a block cache in front of LUN 1
# fio's JSON goes to the share (results/CONFIG.JOB.json) for the host's report.
# The disk runs with its write cache off (WCE = 0), so that a write is on
# the medium when it completes, as it is on the MEMS side and in the caches.
set -uo pipefail
share=/mnt/memstore
source "$share/vm.env"  # TRANSPORT PORTAL IQN CONFIGS JOBS RUNTIME REGION
source "$share/guest-markers.sh"
finish() {
  echo "MEMSTORE-VM: DONE pass=$pass fail=$fail"
  exit 0
}

step modules
modprobe -a sd_mod sg virtio_scsi virtio_net scsi_transport_iscsi iscsi_tcp dm_mod md_mod ||
  { bad modules "$(uname -r)"; finish; }

# passthrough: QEMU attached the three LUNs (scsi-block over its iscsi://
# driver) as LUNs 0-2 of a virtio-scsi disk. open-iscsi: the guest logs in
# over QEMU's user network.
if [ "$TRANSPORT" = open-iscsi ]; then
  step login
  iscsi_login_at "$PORTAL" "$IQN" || finish
  ok login
fi
# lun_dev N: the disk of LUN N (the only SCSI disks are ours, over either transport)
lun_dev() {
  local b
  for _ in $(seq 1 60); do
    b=$(ls -d /sys/class/scsi_disk/*:*:*:"$1"/device/block/* 2>/dev/null | head -1)
    [ -n "$b" ] && { echo "/dev/${b##*/}"; return; }
    sleep 0.5
  done
}
mems=$(lun_dev 0)
disk=$(lun_dev 1)
path=$(lun_dev 2)
[ -n "$mems" ] && [ -n "$disk" ] && [ -n "$path" ] || { bad luns "LUN 0 '$mems', 1 '$disk', 2 '$path'"; finish; }
# The disk's write-back cache off, through sd's MODE SELECT of the Caching page.
scsi_disk=$(ls -d "/sys/block/${disk#/dev/}/device/scsi_disk/"*)
echo "write through" >"$scsi_disk/cache_type"
[ "$(cat "$scsi_disk/cache_type")" = "write through" ] ||
  { bad luns "the disk's write cache stayed on: cache_type $(cat "$scsi_disk/cache_type")"; finish; }
ok luns "mems $mems (rotational $(cat "/sys/block/${mems#/dev/}/queue/rotational")), disk $disk" \
  "(rotational $(cat "/sys/block/${disk#/dev/}/queue/rotational"), cache $(cat "$scsi_disk/cache_type")), path $path"
# No I/O scheduler in the guest: the devices' own SPTF orders their queues.
for d in "$mems" "$disk" "$path"; do echo none >"/sys/block/${d#/dev/}/queue/scheduler" 2>/dev/null || true; done

# run_jobs CONFIG DEVICE: every job of $JOBS ("NAME FIO-OPTIONS...", jobs
# separated by ';') on DEVICE, within its first $REGION.
run_jobs() {
  local config=$1 dev=$2 spec name opts
  local -a specs
  IFS=';' read -ra specs <<<"$JOBS"
  for spec in "${specs[@]}"; do
    read -r name opts <<<"$spec"
    [ -n "$name" ] || continue
    step "fio $config $name"
    # shellcheck disable=SC2086  # opts: fio options, one word each
    if fio --name="$config-$name" --filename="$dev" --direct=1 --ioengine=libaio $opts \
      --size="$REGION" --time_based --runtime="$RUNTIME" --randrepeat=0 --norandommap --lat_percentiles=1 \
      --output-format=json --output="$share/results/$config.$name.json" \
      >/dev/null 2>"/tmp/fio-$config-$name.err"; then
      ok "fio_$config-$name"
    else
      bad "fio_$config-$name" "$(tail -3 "/tmp/fio-$config-$name.err" | tr '\n' ' ')"
    fi
  done
}

recipes=$share/hybrid
mkdir -p "$share/results"
for config in $CONFIGS; do
  step "config $config"
  t0=$(date +%s)
  case $config in
    path) run_jobs path "$path" ;;
    mems) run_jobs mems "$mems" ;;
    disk) run_jobs disk "$disk" ;;
    dm-writecache | raid1-write-mostly | dm-cache | bcache)
      if dev=$("$recipes/$config" up "$mems" "$disk" 2>/tmp/up.err); then
        ok "up_$config" "$dev"
        run_jobs "$config" "$dev"
        if out=$("$recipes/$config" down "$mems" "$disk" 2>&1); then
          ok "down_$config" "$(($(date +%s) - t0)) s with the jobs"
        else
          bad "down_$config" "$out"
        fi
      else
        bad "up_$config" "$(tr '\n' ' ' </tmp/up.err) kernel: $(dmesg | tail -3 | tr '\n' ' ')"
      fi
      ;;
    *) bad "config_$config" "unknown configuration" ;;
  esac
done
iscsiadm -m node -T "$IQN" -p "$PORTAL" --logout >/dev/null 2>&1 || true
finish
