# SPDX-License-Identifier: Apache-2.0
# The guest scripts' console markers, one per line, which the host's scripts
# (scripts/vm-test, scripts/vm-test-service) parse from the serial log;
# sourced by tests/vm/guest-init.sh, tests/vm/guest-service.sh,
# tests/vm/guest-powercut.sh and bench's guest scripts (with what they
# share, at the end: user_network_up, share_wait, iscsi_node_at,
# iscsi_login_at, iscsi_lun_dev):
#   MEMSTORE-VM: STEP name          progress
#   MEMSTORE-VM: PASS name [detail] / FAIL name [detail]
pass=0
fail=0
step() { echo "MEMSTORE-VM: STEP $*"; }
ok() {
  echo "MEMSTORE-VM: PASS $*"
  pass=$((pass + 1))
}
bad() {
  echo "MEMSTORE-VM: FAIL $*"
  fail=$((fail + 1))
}
# user_network_up: QEMU's user network, where the guest is 10.0.2.15 and the
# host 10.0.2.2 (the initramfs' udev may have renamed the NIC, so take the
# one that is not lo).
user_network_up() {
  local nic
  nic=$(ls /sys/class/net | grep -v '^lo$' | head -1)
  ip link set lo up
  ip link set "$nic" up
  ip addr add 10.0.2.15/24 dev "$nic"
  ip route add default via 10.0.2.2
}
# share_wait NAME SECONDS: until the host creates $share/NAME on the 9p share.
share_wait() {
  local i
  for i in $(seq 1 $(($2 * 5))); do
    [ -e "$share/$1" ] && return 0
    sleep 0.2
  done
  return 1
}
# iscsi_node_at PORTAL IQN: iscsid started, the target discovered at PORTAL
# (five tries), and its node record made for PORTAL: discovery names the
# daemon's own address (its loopback on the host), which the guest cannot
# reach through QEMU's NAT. On failure, a FAIL marker and status 1.
iscsi_node_at() {
  local out
  mkdir -p /run/lock/iscsi
  iscsid
  for _ in 1 2 3 4 5; do
    out=$(iscsiadm -m discovery -t st -p "$1" 2>&1) && break
    sleep 2
  done
  grep -q "$2" <<<"$out" || { bad discovery "$(tr '\n' ' ' <<<"$out")"; return 1; }
  iscsiadm -m node -T "$2" -o delete >/dev/null 2>&1
  iscsiadm -m node -T "$2" -p "$1" -o new >/dev/null
}
# iscsi_login_at PORTAL IQN: the user network up, the node made
# (iscsi_node_at) and the session logged in. On failure, a FAIL marker and
# status 1.
iscsi_login_at() {
  local out
  user_network_up
  iscsi_node_at "$1" "$2" || return 1
  out=$(iscsiadm -m node -T "$2" -p "$1" --login 2>&1) || { bad login "$out"; return 1; }
}
# iscsi_lun_dev N: the disk of LUN N of the guest's iSCSI sessions (30 s at
# most; nothing printed if it never appears).
iscsi_lun_dev() {
  local b
  for _ in $(seq 1 60); do
    b=$(ls -d /sys/class/iscsi_session/session*/device/target*/*:*:*:"$1"/block/* 2>/dev/null | head -1)
    [ -n "$b" ] && { echo "/dev/${b##*/}"; return; }
    sleep 0.5
  done
}
