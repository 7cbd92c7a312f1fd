#!/bin/bash
# SPDX-License-Identifier: Apache-2.0
# The guest side of bench/trace-replay's Linux case, run by the VM's init
# stub from the 9p share (memstore.guest=trace-guest.sh): open-iscsi logs in
# to the host's memstored, whose LUN 0 captures every request from the start
# (trace = "PATH"); then the kernel's own requests: mkfs.ext4, a mount, fio
# on a file (random 4 KB reads and writes, 8 in flight, fsync every 32
# writes) for $RUNTIME seconds, a file copy, the unmount, the logout.
set -uo pipefail
share=/mnt/memstore
source "$share/vm.env" # PORTAL IQN RUNTIME
source "$share/guest-markers.sh"
finish() {
  echo "MEMSTORE-VM: DONE pass=$pass fail=$fail"
  exit 0
}
step modules
modprobe -a sd_mod scsi_transport_iscsi iscsi_tcp virtio_net ext4 || { bad modules "$(uname -r)"; finish; }
step login
iscsi_login_at "$PORTAL" "$IQN" || finish
dev=$(iscsi_lun_dev 0)
[ -n "$dev" ] || { bad disk "LUN 0 never appeared"; finish; }
ok login "$dev"
step mkfs
if out=$(mkfs.ext4 -q -F "$dev" 2>&1); then ok mkfs; else bad mkfs "$out"; finish; fi
mkdir -p /mnt/t
mount "$dev" /mnt/t || { bad mount; finish; }
step fio
if out=$(fio --name=mixed --directory=/mnt/t --size=64M --rw=randrw --bs=4k --iodepth=8 \
  --ioengine=libaio --direct=1 --fsync=32 --runtime="$RUNTIME" --time_based \
  --output-format=terse 2>&1); then ok fio; else bad fio "$out"; fi
step copy
if cp -r /usr/share/doc /mnt/t/doc && sync; then ok copy; else bad copy; fi
umount /mnt/t || bad umount
iscsiadm -m node -T "$IQN" -p "$PORTAL" --logout >/dev/null 2>&1 || bad logout
ok done
finish
