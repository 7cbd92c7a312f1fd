# SPDX-License-Identifier: Apache-2.0
"""memsctl admin save (docs/memstored.md, "Saving the running configuration"):
a memstored started from a file gets, at run time, a LUN, a target with CHAP,
a fault rule and a timing change; `save --file` writes that state (mode
0600, secrets as given, never in the log), and a memstored started from the
saved file lists the same LUNs, rules and timing and saves the same text.

Usage: saved_config_test.py MEMSTORED MEMSCTL
"""
import json
import os
import signal
import stat
import sys
import tempfile

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import iscsi_raw  # noqa: E402
from control_client import Checks, admin  # noqa: E402

SECRET = "saved-config-secret-42"
SECOND = "iqn.2026-11.org.memstore.test:second"




def stop(proc):
    proc.send_signal(signal.SIGTERM)
    return proc.wait(timeout=20)


def state(memsctl, sock):
    """What the tests compare: the LUNs, each LUN's rules and timing."""
    luns = admin(memsctl, sock, "luns")["luns"]
    out = {"luns": luns}
    for lun in luns:
        where = ["--target", lun["target"], "--lun", str(lun["lun"])]
        faults = admin(memsctl, sock, "faults", *where)
        out[f"{lun['target']}/{lun['lun']}"] = {
            "seed": faults["seed"], "rules": [f["rule"] for f in faults["faults"]],
            "timing": admin(memsctl, sock, "timing", *where)}
    return out


def main(memstored, memsctl):
    check = Checks()

    with tempfile.TemporaryDirectory() as work:
        sock = os.path.join(work, "control.sock")
        first = os.path.join(work, "first.toml")
        with open(first, "w") as f:
            f.write(f'[daemon]\ncontrol_socket = "{sock}"\nthreads = 2\n'
                    '[[target]]\nname = "' + iscsi_raw.TARGET + '"\n'
                    '[[target.lun]]\nbacking = "memory"\ntiming = "off"\n')
        proc, port, log = iscsi_raw.start(memstored, work, args=["--config", first])
        try:
            admin(memsctl, sock, "lun-add", "--config",
                  '{"id": 1, "device": "g3", "backing": "memory", "scheduler": "sptf"}')
            admin(memsctl, sock, "target-add", "--config", json.dumps({
                "name": SECOND, "portals": ["127.0.0.1:0"],
                "acl": ["iqn.2026-11.org.example:host"],
                "chap": {"user": "u", "secret": SECRET},
                "lun": [{"id": 0, "backing": "memory", "device": "atlas10k"}]}))
            admin(memsctl, sock, "fault-add", "--target", iscsi_raw.TARGET, "--lun", "0",
                  "--rule", '{"op": "read", "lba": [8, 15], "once": true, '
                            '"action": "medium-error"}')
            admin(memsctl, sock, "timing", "--target", iscsi_raw.TARGET, "--lun", "1",
                  "--mode", "scaled", "--scale", "2.5")
            before = state(memsctl, sock)
            saved = os.path.join(work, "saved.toml")
            reply = admin(memsctl, sock, "save", "--file", saved)
            check(reply.get("file") == saved and reply.get("bytes") == os.path.getsize(saved),
                  f"save --file answers the path and size: {reply}")
            mode = stat.S_IMODE(os.stat(saved).st_mode)
            check(mode == 0o600, f"the saved file is mode 0600: {oct(mode)}")
            text = open(saved).read()
            check(SECRET in text, "the saved file keeps the CHAP secret as given")
            printed = admin(memsctl, sock, "save", raw=True)
            check(printed == text, "save without --file prints the same configuration")
        finally:
            status = stop(proc)
        log.seek(0)
        check(SECRET not in log.read(), "the secret never reached the log")
        check(status == 0, f"memstored stopped cleanly ({status})")

        proc, port, log = iscsi_raw.start(memstored, work, args=["--config", saved])
        try:
            after = state(memsctl, sock)
            check(after == before, "restarted from the saved file: the same LUNs, rules and "
                  "timing\n  before: " + json.dumps(before) + "\n  after:  " + json.dumps(after))
            again = admin(memsctl, sock, "save", raw=True)
            check(again == text, "saved again, the same text")
        finally:
            stop(proc)
    return check.status("saved configuration")


if __name__ == "__main__":
    sys.exit(main(sys.argv[1], sys.argv[2]))
