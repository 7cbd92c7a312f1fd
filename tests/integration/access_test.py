# SPDX-License-Identifier: Apache-2.0
"""Access control at run time (docs/memstored.md, "Access control at run
time"): through the control socket, an ACL entry added ends the sessions of
the initiators it leaves out and refuses their logins, CHAP set refuses
logins without it while the sessions logged in stay, and both cleared let
them in again; through SIGHUP, the file's ACL applies live with nothing
"restart to apply"; `access` never shows a secret, the log never has one,
and `save` keeps the ACL.

Usage: access_test.py MEMSTORED MEMSCTL
"""
import json
import os
import signal
import socket
import sys
import tempfile
import time

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import iscsi_raw  # noqa: E402
from control_client import Checks, admin  # noqa: E402

X = iscsi_raw.INITIATOR
Y = "iqn.2026-11.org.memstore.test:allowed"
SECRET = "access-test-secret-77"
INQUIRY = bytes([0x12, 0, 0, 0, 36, 0])




def refused(port, initiator, isid):
    """The login's status (class, detail), or None when it got in."""
    try:
        iscsi_raw.Session(port, bytes([0x80, 0, 0, 0, 0, isid]), initiator=initiator).close()
        return None
    except iscsi_raw.LoginRefused as e:
        return e.status


def ended(session):
    """Whether the target ended the session (its connection closed)."""
    for _ in range(50):
        try:
            session.command(INQUIRY, read_len=36)
        except (iscsi_raw.ProtocolError, OSError):
            return True
        time.sleep(0.1)
    return False


def main(memstored, memsctl):
    check = Checks()

    with tempfile.TemporaryDirectory() as work:
        sock = os.path.join(work, "control.sock")
        conf = os.path.join(work, "memstored.toml")
        base = (f'[daemon]\ncontrol_socket = "{sock}"\nthreads = 2\n'
                f'[[target]]\nname = "{iscsi_raw.TARGET}"\n')
        lun = '[[target.lun]]\nbacking = "memory"\ntiming = "off"\n'
        with open(conf, "w") as f:
            f.write(base + lun)
        proc, port, log = iscsi_raw.start(memstored, work, args=["--config", conf])
        try:
            a = iscsi_raw.Session(port, bytes([0x80, 0, 0, 0, 0, 1]), initiator=X)
            admin(memsctl, sock, "acl-add", "--initiator", Y)
            check(ended(a), "acl-add of another initiator ends the sessions of one left out")
            check(refused(port, X, 2) == (2, 2), "its login is refused as not authorized (02/02)")
            b = iscsi_raw.Session(port, bytes([0x80, 0, 0, 0, 0, 3]), initiator=Y)
            err = admin(memsctl, sock, "acl-remove", "--initiator", Y, fail=True)
            check("last entry" in err and "acl-clear" in err,
                  f"the ACL's last entry is not removed silently: {err}")
            admin(memsctl, sock, "chap-set", "--chap", json.dumps({"user": "u", "secret": SECRET}))
            check(refused(port, Y, 4) == (2, 1),
                  "with CHAP set, a login without it fails authentication (02/01)")
            try:
                b.command(INQUIRY, read_len=36)
                stays = True
            except (iscsi_raw.ProtocolError, OSError):
                stays = False
            check(stays, "the session that logged in before CHAP was set stays")
            listed = admin(memsctl, sock, "access")
            t = listed["targets"][0]
            check(t["acl"] == [Y] and t["chap"] == {"user": "u"} and SECRET not in json.dumps(
                listed), f"access lists the ACL and the CHAP user, no secret: {listed}")
            saved = admin(memsctl, sock, "save", raw=True)
            check(Y in saved and SECRET in saved, "save keeps the ACL and the secret")
            # JSON-RPC on the socket itself: a notification (no id) runs and is
            # not answered; the request after it gets the one reply line.
            with socket.socket(socket.AF_UNIX) as raw:
                raw.connect(sock)
                raw.settimeout(10)
                raw.sendall(b'{"jsonrpc": "2.0", "method": "chap-clear"}\n'
                            b'{"jsonrpc": "2.0", "id": 5, "method": "access"}\n')
                got = b""
                while got.count(b"\n") < 1:
                    got += raw.recv(4096)
                raw.settimeout(0.5)
                try:
                    got += raw.recv(4096)
                except socket.timeout:
                    pass
            lines = got.decode().splitlines()
            reply = json.loads(lines[0]) if lines else {}
            check(len(lines) == 1 and reply.get("id") == 5
                  and reply.get("result", {}).get("targets", [{}])[0].get("chap") is None,
                  f"a JSON-RPC notification is run and not answered: {lines}")
            admin(memsctl, sock, "acl-clear")
            check(refused(port, X, 5) is None, "cleared, any initiator logs in without CHAP")

            # SIGHUP: the file's ACL applies live.
            with open(conf, "w") as f:
                f.write(base + f'acl = ["{X}"]\n' + lun)
            mark = os.path.getsize(log.name)
            proc.send_signal(signal.SIGHUP)
            for _ in range(50):
                log.seek(mark)
                text = log.read()
                if "reload (SIGHUP)" in text:
                    break
                time.sleep(0.1)
            check("ACL 1 initiator(s)" in text and "0 change(s) need a restart" in text,
                  "SIGHUP applies the file's ACL live, nothing needs a restart:\n" + text.strip())
            check(ended(b), "the reloaded ACL ends the session of the initiator it leaves out")
            check(refused(port, Y, 6) == (2, 2) and refused(port, X, 7) is None,
                  "after the reload, the initiator out is refused and the one in logs in")
        finally:
            if proc.poll() is not None:
                log.seek(0)
                print("memstored ended early:\n" + log.read()[-3000:])
            proc.send_signal(signal.SIGTERM)
            proc.wait(timeout=20)
        log.seek(0)
        check(SECRET not in log.read(), "the secret never reached the log")
    return check.status("access control at run time")


if __name__ == "__main__":
    sys.exit(main(sys.argv[1], sys.argv[2]))
