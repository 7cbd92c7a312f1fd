# SPDX-License-Identifier: Apache-2.0
# The guest scripts' console markers, one per line, which the host's scripts
# (scripts/vm-test, scripts/vm-test-service) parse from the serial log;
# sourced by tests/vm/guest-init.sh, tests/vm/guest-service.sh and
# bench/hybrid-guest.sh (with user_network_up, at the end):
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
