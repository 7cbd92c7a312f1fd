#!/bin/bash
# SPDX-License-Identifier: Apache-2.0
# The memstore test VM's script (scripts/vm-test), run by the guest's init
# stub from the 9p share /mnt/memstore. It installs handler_memstore.so, starts
# dbus and tcmu-runner, creates four user:memstore backstores (three
# MEMStores and an Atlas 10K disk) and exports them through LIO's iSCSI
# target, tells the host (serial console marker READY),
# waits for the host's checks (the file host-done on the share), then checks
# from inside: open-iscsi login to the LIO target, sg3-utils, a file system,
# the passthrough disk QEMU attaches from a host memstored, if any, and
# open-iscsi logged in directly to another host memstored, through a daemon
# restart and a link cut (guest-initiator.sh), if the host asked for it.
#
# Markers on the console, one per line, for the host to parse:
#   MEMSTORE-VM: STEP name          progress
#   MEMSTORE-VM: PASS name [detail] / FAIL name [detail]
#   MEMSTORE-VM: READY              the LIO target is up
#   MEMSTORE-VM: DONE pass=N fail=M
set -uo pipefail
share=/mnt/memstore
source "$share/vm.env"  # IQN, SIZE, HOST_DONE_TIMEOUT, PASSTHROUGH, LINUX_INITIATOR, LI_*

source "$share/guest-markers.sh"  # step, ok, bad; pass and fail; user_network_up
check() {  # check NAME COMMAND...: PASS when the command succeeds
  local name=$1
  shift
  local out
  if out=$("$@" 2>&1); then ok "$name"; else bad "$name: $(tail -5 <<<"$out" | tr '\n' ' ')"; fi
}
finish() {
  echo "MEMSTORE-VM: tcmu-runner log:"
  grep -E 'memstore|rror' /var/log/tcmu-runner.log 2>/dev/null | tail -40 | sed 's/^/  /'
  echo "MEMSTORE-VM: DONE pass=$pass fail=$fail"
  exit 0
}

step modules
# No udev here: load what it would (disks, the NIC, LIO, the initiator).
if modprobe -a sd_mod sg virtio_net virtio_scsi target_core_mod target_core_user iscsi_target_mod \
     scsi_transport_iscsi iscsi_tcp; then
  mountpoint -q /sys/kernel/config || mount -t configfs configfs /sys/kernel/config
  ok modules "$(uname -r)"
else
  bad modules "$(uname -r)"
  finish
fi

step network
user_network_up

step tcmu-runner
# The handler goes where Debian's tcmu-runner looks for handlers.
cp "$share/handler_memstore.so" /usr/lib/x86_64-linux-gnu/tcmu-runner/
mkdir -p /run/dbus /run/memstore
mount -t tmpfs -o size=6g tmpfs /run/memstore
# The bus and tcmu-runner as the container starts them: its entrypoint
# (docker/tcmu/entrypoint.sh), run here outside a container.
sh "$share/entrypoint.sh" >/var/log/tcmu-runner.stdout 2>&1 &
for _ in $(seq 1 120); do
  dbus-send --system --print-reply --dest=org.freedesktop.DBus /org/freedesktop/DBus \
    org.freedesktop.DBus.NameHasOwner string:org.kernel.TCMUService1 2>/dev/null |
    grep -q 'boolean true' && break
  sleep 0.5
done
check_config() {
  dbus-send --system --print-reply --dest=org.kernel.TCMUService1 /org/kernel/TCMUService1/memstore \
    org.kernel.TCMUService1.CheckConfig "string:$1" 2>&1
}
out=$(check_config "memstore//run/memstore/rt.img")
if grep -q 'boolean true' <<<"$out"; then ok check_config_valid; else bad check_config_valid "$out"; finish; fi
out=$(check_config "memstore//run/memstore/rt.img;timing=fast")
grep -q "timing: 'fast' is not realtime, scaled or off" <<<"$out" && ok check_config_names_key ||
  bad check_config_names_key "$out"

step targetcli
# The documented path (docs/tcmu.md): targetcli sees user:memstore and
# creates the realtime backstore; a bad string is refused naming the key.
out=$(targetcli /backstores/user:memstore create name=ms_rt size="$SIZE" \
        cfgstring=/run/memstore/rt.img 2>&1)
if grep -q "Created user-backed storage object ms_rt" <<<"$out"; then ok targetcli_create; else
  bad targetcli_create "$out"
  finish
fi
out=$(targetcli /backstores/user:memstore create name=ms_bad size="$SIZE" \
        "cfgstring=/run/memstore/bad.img;device=g9" 2>&1)
grep -q "device: unknown preset 'g9'" <<<"$out" && ok targetcli_bad_config_names_key ||
  bad targetcli_bad_config_names_key "$out"

# A backstore of the wrong size: the open fails and tcmu-runner's log names
# the size to use.
out=$(targetcli /backstores/user:memstore create name=ms_small size=1G \
        cfgstring=/run/memstore/small.img 2>&1)
sleep 1
if grep -q "memstore: size: the backstore has 1073741824 bytes but the device (device=g2) holds 3456000000; create it with size=3456000000" \
     /var/log/tcmu-runner.log; then
  ok open_wrong_size_logged "targetcli: $(tail -1 <<<"$out")"
else
  bad open_wrong_size_logged "targetcli: $out; log: $(grep memstore /var/log/tcmu-runner.log | tail -3)"
fi
python3 -c 'from rtslib_fb import RTSRoot
for so in RTSRoot().storage_objects:
    if so.name == "ms_small": so.delete()' >/dev/null 2>&1 || true

step lio-target
# LIO keeps persistent-reservation (APTPL) state under its db_root; without
# the directory PERSISTENT RESERVE OUT fails with NOT READY.
mkdir -p /etc/target/pr /etc/rtslib-fb-target/pr
# The rest through rtslib directly: much faster than targetcli under TCG.
out=$(python3 - "$IQN" "$SIZE" 2>&1 <<'EOF'
import sys
from rtslib_fb import RTSRoot, UserBackedStorageObject, FabricModule, Target, TPG, NetworkPortal, LUN
iqn, size = sys.argv[1], int(sys.argv[2])
root = RTSRoot()
rt = next(so for so in root.storage_objects if so.name == "ms_rt")
off = UserBackedStorageObject("ms_off", config="memstore//run/memstore/off.img;timing=off", size=size)
scaled = UserBackedStorageObject("ms_scaled", size=size,
                                 config="memstore//run/memstore/scaled.img;timing=scaled;scale=10")
# A disk beside the MEMStores (docs/disk-models.md): the Atlas 10K preset.
disk = UserBackedStorageObject("ms_disk", size=9199079936,
                               config="memstore//run/memstore/disk.img;device=atlas10k")
tpg = TPG(Target(FabricModule("iscsi"), iqn), 1)
for name, value in (("authentication", "0"), ("generate_node_acls", "1"),
                    ("demo_mode_write_protect", "0"), ("cache_dynamic_acls", "1")):
    tpg.set_attribute(name, value)
NetworkPortal(tpg, "0.0.0.0", 3260)
LUN(tpg, 0, rt)
LUN(tpg, 1, off)
LUN(tpg, 2, scaled)
LUN(tpg, 3, disk)
tpg.enable = True
print("luns", sorted(l.lun for l in tpg.luns))
EOF
)
if grep -q "luns \[0, 1, 2, 3\]" <<<"$out"; then ok lio_target "$IQN"; else bad lio_target "$out"; finish; fi

echo "MEMSTORE-VM: READY"
for _ in $(seq 1 "$HOST_DONE_TIMEOUT"); do
  [ -e "$share/host-done" ] && break
  sleep 1
done
[ -e "$share/host-done" ] || bad host_done "no host-done after $HOST_DONE_TIMEOUT s"

step initiator
# The guest's own initiator against its own LIO target.
mkdir -p /run/lock/iscsi
iscsid
out=$(iscsiadm -m discovery -t st -p 127.0.0.1 2>&1)
grep -q "$IQN" <<<"$out" && ok iscsiadm_discovery || bad iscsiadm_discovery "$out"
if out=$(iscsiadm -m node -T "$IQN" -p 127.0.0.1:3260 --login 2>&1); then ok iscsiadm_login; else
  bad iscsiadm_login "$out"
  finish
fi
# The disks of the iSCSI session, by LUN: /sys/class/scsi_disk/H:C:T:L on an iSCSI host.
disk_for_lun() {
  local d h l
  for _ in $(seq 1 60); do
    for d in /sys/class/scsi_disk/*; do
      [ -e "$d" ] || continue
      h=${d##*/}; l=${h##*:}; h=${h%%:*}
      if [ -e "/sys/class/iscsi_host/host$h" ] && [ "$l" = "$1" ] && [ -d "$d/device/block" ]; then
        echo "/dev/$(ls "$d/device/block")"
        return 0
      fi
    done
    sleep 0.5
  done
  return 1
}
dev=$(disk_for_lun 0) || { bad iscsi_disk "LUN 0 never appeared"; finish; }
ok iscsi_disk "$dev"
# The Atlas 10K backstore: Linux takes it for a rotating disk from the
# handler's VPD B1h (mode page 04h is shown too, by name).
if tdisk=$(disk_for_lun 3); then
  q=/sys/block/${tdisk#/dev/}/queue
  vpd=$(sg_vpd -p bdc "$tdisk" 2>&1 | grep -i "rotation rate" | tr -s ' ')
  # sg_modes names the page it got (its bytes are a hex dump).
  geometry=$(sg_modes -p 4 "$tdisk" 2>&1 | grep -i "rigid disk geometry" | tr -s ' ' | head -1)
  if [ "$(cat "$q/rotational")" = 1 ] && grep -q "10025 rpm" <<<"$vpd"; then
    ok tcmu_disk_rotational "$tdisk: rotational 1;$vpd; page 04h:$geometry"
  else
    bad tcmu_disk_rotational "$tdisk: rotational $(cat "$q/rotational");$vpd; page 04h:$geometry"
  fi
else
  bad tcmu_disk_rotational "LUN 3 (atlas10k) never appeared"
fi

step sg3-utils
sg_checks() {  # sg_checks TAG DEVICE: sg3-utils against a MEMStore disk
  local tag=$1 dev=$2 out
  out=$(sg_inq "$dev" 2>&1)
  grep -q "MEMStore G2" <<<"$out" && ok "${tag}_sg_inq" || bad "${tag}_sg_inq" "$out"
  out=$(sg_vpd -p bl "$dev" 2>&1)
  grep -qi "optimal transfer length granularity: 10 blocks" <<<"$out" &&
    grep -qi "optimal transfer length: 270 blocks" <<<"$out" && ok "${tag}_sg_vpd_bl" ||
    bad "${tag}_sg_vpd_bl" "$out"
  # Page 20h: 60 bytes; p at bytes 6..9 (= 10), ST at 34..37 (= 270 = 0x10e).
  out=$(sg_modes -6 -p 0x20 -r "$dev" 2>/dev/null | od -An -v -tx1 | tr -s ' \n' ' ')
  # MODE SENSE(6): 4-byte header, then an 8-byte block descriptor
  read -r -a b <<<"$out"
  local at=$((4 + 16#${b[3]:-0}))
  if [ "${b[$at]:-}" = 20 ] && [ "${b[$((at + 9))]}" = 0a ] && [ "${b[$((at + 36))]}${b[$((at + 37))]}" = 010e ]; then
    ok "${tag}_sg_modes_20h" "p=10 ST=270"
  else
    bad "${tag}_sg_modes_20h" "$out"
  fi
  # MEMS BATCH via sg_raw: write one block at LBA 4096 (batch id 5), then a
  # batch reading it back (id 6), then MEMS BATCH RESULTS for id 6.
  local d=/tmp/batch-$tag
  mkdir -p "$d"
  head -c 512 /dev/urandom >"$d/data"
  { printf '\x00\x01\x00\x00\x00\x00\x00\x00'
    printf '\x02\x00\x00\x00\x00\x00\x00\x00\x00\x00\x10\x00\x00\x00\x00\x01'
    cat "$d/data"; } >"$d/write"
  { printf '\x00\x01\x00\x00\x00\x00\x00\x00'
    printf '\x01\x00\x00\x00\x00\x00\x00\x00\x00\x00\x10\x00\x00\x00\x00\x01'; } >"$d/read"
  if sg_raw -s 536 -i "$d/write" "$dev" 3b 01 05 00 00 00 00 02 18 00 >/dev/null 2>&1 &&
     sg_raw -s 24 -i "$d/read" "$dev" 3b 01 06 00 00 00 00 00 18 00 >/dev/null 2>&1 &&
     sg_raw -r 528 -o "$d/result" "$dev" 3c 01 06 00 00 00 00 02 10 00 >/dev/null 2>&1 &&
     cmp -s <(tail -c 512 "$d/result") "$d/data" &&
     [ "$(head -c 6 "$d/result" | od -An -tx1 | tr -d ' \n')" = 000000060001 ]; then
    ok "${tag}_sg_raw_batch" "media steps $((16#$(od -An -j6 -N2 -tx1 "$d/result" | tr -d ' \n'))), service $((16#$(od -An -j8 -N4 -tx1 "$d/result" | tr -d ' \n'))) us"
  else
    bad "${tag}_sg_raw_batch" "$(od -An -N16 -tx1 "$d/result" 2>&1)"
  fi
}
sg_checks lio "$dev"

step filesystem
start=$(date +%s)
if mkfs.ext4 -q -F "$dev" >/tmp/mkfs.log 2>&1; then ok mkfs "$(($(date +%s) - start)) s"; else
  bad mkfs "$(tail -3 /tmp/mkfs.log)"
fi
mkdir -p /mnt/ms
if mount "$dev" /mnt/ms; then
  mkdir -p /mnt/ms/tree/a/b /mnt/ms/tree/c
  for i in $(seq 1 24); do
    head -c $((i * 37 * 1024 + i)) /dev/urandom >"/mnt/ms/tree/$([ $((i % 3)) = 0 ] && echo a/b || echo c)/f$i"
  done
  (cd /mnt/ms && find tree -type f -exec sha256sum {} + | sort -k2 >/tmp/tree.sha)
  umount /mnt/ms
  echo 3 >/proc/sys/vm/drop_caches
  mount "$dev" /mnt/ms
  if (cd /mnt/ms && sha256sum --quiet -c /tmp/tree.sha) >/tmp/verify.log 2>&1; then
    ok fs_verify "$(wc -l </tmp/tree.sha) files, $(du -sk /mnt/ms/tree | cut -f1) KiB"
  else
    bad fs_verify "$(head -3 /tmp/verify.log)"
  fi
  umount /mnt/ms
else
  bad mount
fi
if iscsiadm -m node -T "$IQN" -p 127.0.0.1:3260 --logout >/dev/null 2>&1; then ok iscsiadm_logout; else
  bad iscsiadm_logout
fi

step passthrough
# A MEMStore disk QEMU attached from a host memstored (scsi-block over its
# iscsi:// driver), if the host asked for one: a disk on a non-iSCSI host.
pt=""
if [ -n "${PASSTHROUGH:-}" ]; then
  for _ in $(seq 1 20); do
    for d in /sys/class/scsi_disk/*; do
      h=${d##*/}; h=${h%%:*}
      [ -e "/sys/class/iscsi_host/host$h" ] && continue
      [ -d "$d/device/block" ] && pt=/dev/$(ls "$d/device/block")
    done
    [ -n "$pt" ] && break
    sleep 0.5
  done
  if [ -n "$pt" ]; then ok passthrough_disk "$pt"; sg_checks passthrough "$pt"; else bad passthrough_disk; fi
fi

# The Linux initiator against a host memstored, directly (tests/vm/guest-initiator.sh).
if [ -n "${LINUX_INITIATOR:-}" ]; then
  source "$share/guest-initiator.sh"
fi

step teardown
# Removing the backstores closes the handler, which logs its timing report.
python3 - <<'EOF' >/tmp/teardown.log 2>&1 && ok teardown || bad teardown "$(tail -3 /tmp/teardown.log)"
from rtslib_fb import RTSRoot
root = RTSRoot()
for t in list(root.targets):
    t.delete()
for so in list(root.storage_objects):
    so.delete()
EOF
sleep 1
finish
