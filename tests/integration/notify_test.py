#!/usr/bin/env python3
# SPDX-License-Identifier: Apache-2.0
"""memstored and systemd's notify protocol (Type=notify, docs/service.md):
READY=1 once it serves, RELOADING=1 then READY=1 around a SIGHUP reload (a
STATUS naming a failed reload when the file no longer parses, the daemon
still running), STOPPING=1 on SIGTERM, and exit status 0. NOTIFY_SOCKET is
a datagram socket of this test's own, as systemd's would be. With
JOURNAL_STREAM set, every log line starts with its syslog priority and has
no timestamp.

Usage: notify_test.py MEMSTORED"""
import os
import signal
import socket
import subprocess
import sys
import tempfile


def main():
    memstored = sys.argv[1]
    work = tempfile.mkdtemp(prefix="memstore-notify-")
    path = os.path.join(work, "notify")
    sock = socket.socket(socket.AF_UNIX, socket.SOCK_DGRAM)
    sock.bind(path)
    sock.settimeout(10)
    cfg = os.path.join(work, "memstored.toml")
    with open(cfg, "w") as f:
        f.write('[[target]]\nportals = ["127.0.0.1:0"]\n[[target.lun]]\nbacking = "memory"\n')
    # JOURNAL_STREAM: the log lines take the journal's form (syslog priority
    # prefix, no timestamp), checked at the end.
    env = dict(os.environ, NOTIFY_SOCKET=path, JOURNAL_STREAM="8:12345")
    log = open(os.path.join(work, "memstored.log"), "w")
    daemon = subprocess.Popen([memstored, "--config", cfg], env=env, stdout=log, stderr=log)

    def expect(prefix):
        msg = sock.recv(4096).decode()
        if not msg.startswith(prefix):
            daemon.kill()
            sys.exit(f"FAIL: expected {prefix!r}, got {msg!r}")
        return msg

    try:
        print(expect("READY=1\nSTATUS=serving 1 target(s) on 1 portal(s)"))
        daemon.send_signal(signal.SIGHUP)
        expect("RELOADING=1")
        print(expect("READY=1\nSTATUS=reloaded"))
        with open(cfg, "a") as f:
            f.write("timing = \"soon\"\n")
        daemon.send_signal(signal.SIGHUP)
        expect("RELOADING=1")
        failed = expect("READY=1\nSTATUS=reload failed: ")
        if "timing" not in failed:
            sys.exit(f"FAIL: the failed reload's status does not name the key: {failed!r}")
        print(failed)
        daemon.send_signal(signal.SIGTERM)
        expect("STOPPING=1")
        status = daemon.wait(timeout=10)
        if status != 0:
            sys.exit(f"FAIL: exit status {status}")
        log.close()
        lines = open(os.path.join(work, "memstored.log")).read().splitlines()
        if not any(l.startswith("<6>serving ") for l in lines) or \
           not any(l.startswith("<3>reload (SIGHUP): ") for l in lines) or \
           not all(l[:1] == "<" and l[2:3] == ">" for l in lines):
            sys.exit("FAIL: log lines not in the journal's form:\n" + "\n".join(lines[:8]))
        print(f"{len(lines)} log lines in the journal's form, e.g. {lines[0]!r}")
    finally:
        if daemon.poll() is None:
            daemon.kill()
    print("ok")


if __name__ == "__main__":
    main()
