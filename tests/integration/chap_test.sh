#!/usr/bin/env bash
# Integration test: CHAP (one-way and mutual) and the initiator ACL, with
# libiscsi's tools as the initiator.
# Usage: chap_test.sh MEMSTORED
set -euo pipefail
source "$(dirname "$0")/lib.sh"
cat >"$work/memstored.toml" <<TOML
[[target]]
name = "iqn.2026-11.org.memstore:oneway"
portals = ["127.0.0.1:0"]
[target.chap]
user = "alice"
secret = "alice-secret-123"
[[target.lun]]
backing = "memory"
timing = "off"

[[target]]
name = "iqn.2026-11.org.memstore:mutual"
portals = ["127.0.0.1:0"]
[target.chap]
user = "bob"
secret = "bob-secret-4567"
mutual_user = "target"
mutual_secret = "target-secret-890"
[[target.lun]]
backing = "memory"
timing = "off"

[[target]]
name = "iqn.2026-11.org.memstore:acl"
portals = ["127.0.0.1:0"]
acl = ["iqn.2026-11.org.example:allowed"]
[[target.lun]]
backing = "memory"
timing = "off"
TOML
start_memstored "$1" 3 --config "$work/memstored.toml"
ok() { iscsi-inq "$@" >/dev/null 2>&1; }

oneway=iscsi://alice%alice-secret-123@127.0.0.1:${ports[0]}/iqn.2026-11.org.memstore:oneway/0
ok "$oneway" || fail "one-way CHAP with the right secret"
ok "iscsi://alice%wrong-secret-00@127.0.0.1:${ports[0]}/iqn.2026-11.org.memstore:oneway/0" &&
  fail "one-way CHAP accepted a wrong secret"
ok "iscsi://127.0.0.1:${ports[0]}/iqn.2026-11.org.memstore:oneway/0" && fail "login without CHAP accepted"
echo "one-way CHAP: right secret accepted, wrong and missing refused"

mutual="iscsi://bob%bob-secret-4567@127.0.0.1:${ports[1]}/iqn.2026-11.org.memstore:mutual/0"
ok "$mutual?target_user=target&target_password=target-secret-890" || fail "mutual CHAP"
ok "$mutual?target_user=target&target_password=not-the-secret" && fail "mutual CHAP with a wrong target secret"
echo "mutual CHAP: the target proves its secret, a wrong one is refused"

acl=iscsi://127.0.0.1:${ports[2]}/iqn.2026-11.org.memstore:acl/0
ok -i iqn.2026-11.org.example:allowed "$acl" || fail "ACL refused an allowed initiator"
ok -i iqn.2026-11.org.example:other "$acl" && fail "ACL let another initiator in"
echo "ACL: listed initiator accepted, other refused"
echo "ok"
