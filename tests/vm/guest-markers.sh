# The guest scripts' console markers, one per line, which the host's scripts
# (scripts/vm-test, scripts/vm-test-service) parse from the serial log;
# sourced by tests/vm/guest-init.sh and tests/vm/guest-service.sh:
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
