# SPDX-License-Identifier: Apache-2.0
"""memsctl admin sessions and connections, and a LUN's reads and writes
(docs/memstored.md, "Control socket"), against a memstored with two raw iSCSI
sessions logged in (tests/integration/iscsi_raw.py): each listed with its
initiator, ISID, TSIH, peer, portal and the parameters it negotiated; one
ended, then no longer listed; the LUN's statistics count its READs and
WRITEs apart.

Usage: sessions_test.py MEMSTORED MEMSCTL
"""
import os
import sys
import tempfile
import time

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import iscsi_raw  # noqa: E402
from control_client import Checks, admin  # noqa: E402

TWO = "iqn.2026-11.org.memstore.test:second"




def main(memstored, memsctl):
    check = Checks()

    with tempfile.TemporaryDirectory() as work:
        sock = os.path.join(work, "control.sock")
        proc, port, log = iscsi_raw.start(memstored, work, args=[
            "--backing", "memory", "--timing", "off", "--threads", "2", "--control-socket", sock])
        try:
            a = iscsi_raw.Session(port, bytes([0x80, 0, 0, 0, 0, 0x11]), immediate=True,
                                  mrdsl=65536)
            b = iscsi_raw.Session(port, bytes([0x80, 0, 0, 0, 0, 0x22]), initiator=TWO,
                                  immediate=False)
            # Two WRITE(10)s of one block and three READ(10)s on session a.
            for lba in (8, 9):
                a.command(bytes([0x2A, 0, 0, 0, 0, lba, 0, 0, 1, 0]), data=bytes(512))
            for lba in (8, 9, 10):
                a.command(bytes([0x28, 0, 0, 0, 0, lba, 0, 0, 1, 0]), read_len=512)
            a.command(bytes([0x12, 0, 0, 0, 36, 0]), read_len=36)  # INQUIRY: neither

            listed = admin(memsctl, sock, "sessions")["sessions"]
            by_isid = {s["isid"]: s for s in listed}
            check(len(listed) == 2 and set(by_isid) == {"800000000011", "800000000022"},
                  f"two sessions listed by ISID: {sorted(by_isid)}")
            sa, sb = by_isid.get("800000000011", {}), by_isid.get("800000000022", {})
            check(sa.get("initiator") == iscsi_raw.INITIATOR and sb.get("initiator") == TWO,
                  f"initiator names: {sa.get('initiator')}, {sb.get('initiator')}")
            check(sa.get("target") == iscsi_raw.TARGET, f"target: {sa.get('target')}")
            check(sa.get("tsih", 0) > 0 and sa.get("tsih") != sb.get("tsih"),
                  f"TSIHs {sa.get('tsih')} and {sb.get('tsih')}")
            na, nb = sa.get("negotiated", {}), sb.get("negotiated", {})
            check(na.get("ImmediateData") == "Yes" and nb.get("ImmediateData") == "No"
                  and na.get("InitialR2T") == "No" and nb.get("InitialR2T") == "Yes",
                  f"ImmediateData/InitialR2T as negotiated: {na.get('ImmediateData')}/"
                  f"{na.get('InitialR2T')}, {nb.get('ImmediateData')}/{nb.get('InitialR2T')}")
            check(na.get("MaxXmitDataSegmentLength") == "65536"
                  and nb.get("MaxXmitDataSegmentLength") == "8192",
                  "MaxXmitDataSegmentLength is what each initiator declared: "
                  f"{na.get('MaxXmitDataSegmentLength')}, {nb.get('MaxXmitDataSegmentLength')}")
            check(sa.get("exp_cmd_sn") == a.cmdsn and sa.get("commands_in_flight") == 0,
                  f"ExpCmdSN {sa.get('exp_cmd_sn')} (the initiator's next CmdSN {a.cmdsn}), "
                  f"{sa.get('commands_in_flight')} in flight")
            conn = (sa.get("connections") or [{}])[0]
            local = a.sock.getsockname()
            check(conn.get("peer") == f"127.0.0.1:{local[1]}" and
                  conn.get("portal") == f"127.0.0.1:{port}",
                  f"peer {conn.get('peer')} (the socket's {local[1]}), portal {conn.get('portal')}")
            conns = admin(memsctl, sock, "connections")["connections"]
            check(sorted(c["initiator"] for c in conns) == sorted([iscsi_raw.INITIATOR, TWO]),
                  f"connections: {[(c['initiator'], c['peer']) for c in conns]}")
            check(admin(memsctl, sock, "sessions", "--target", "iqn.2026-11.org.memstore:none")
                  ["sessions"] == [], "a target's filter leaves the others out")

            stats = admin(memsctl, sock, "stats", "--lun", "0")
            check(stats.get("reads") == 3 and stats.get("writes") == 2,
                  f"stats: {stats.get('reads')} reads, {stats.get('writes')} writes "
                  f"of {stats.get('commands')} commands")

            b.logout()
            b.close()
            for _ in range(100):
                listed = admin(memsctl, sock, "sessions")["sessions"]
                if len(listed) == 1:
                    break
                time.sleep(0.05)
            check([s["isid"] for s in listed] == ["800000000011"],
                  f"after a logout: {[s['isid'] for s in listed]}")
            a.close()
        finally:
            proc.terminate()
            proc.wait(timeout=30)
            log.close()
    return check.status("sessions and connections")


if __name__ == "__main__":
    sys.exit(main(sys.argv[1], sys.argv[2]))
