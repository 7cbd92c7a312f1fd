#!/usr/bin/env python3
"""Hostile initiators against a real memstored (docs/memstored.md, "Limits").

One case per limit an initiator could otherwise exhaust. Each drives the
daemon the way a broken or hostile initiator would, then asserts that the
daemon's resident anonymous memory (RssAnon) grew by less than the bar, and that a
well-behaved initiator logging in afterwards is still served.

  churn     20,000 connect/close cycles                  RSS growth < 16 MiB
  text      a 32 MB login text flood with C=1            RSS growth < 16 MiB
  reads     60,000 immediate 32 KiB READs, never read    RSS growth <= 64 MiB
  idle      1,000 connections at a 256-descriptor limit  memstored CPU < 0.2 s over 3 s

Usage: hostile_test.py MEMSTORED [CASE...]   (default: every case)
"""
import os
import re
import resource
import socket
import struct
import subprocess
import sys
import tempfile
import time

MIB = 1 << 20
TARGET = "iqn.2026-11.org.memstore:g2"
INITIATOR = "iqn.2026-11.org.memstore.test:hostile"


def start(memstored, workdir, extra_env_limit=None):
    log = open(os.path.join(workdir, "memstored.log"), "w+")
    preexec = None
    if extra_env_limit is not None:
        def preexec():  # noqa: E306 - the descriptor limit of the daemon alone
            resource.setrlimit(resource.RLIMIT_NOFILE, (extra_env_limit, extra_env_limit))
    proc = subprocess.Popen([memstored, "--listen", "127.0.0.1:0", "--backing", "memory",
                             "--timing", "off", "--threads", "1"],
                            stdout=log, stderr=subprocess.STDOUT, cwd=workdir,
                            preexec_fn=preexec)
    for _ in range(200):
        log.seek(0)
        m = re.search(r"serving .* on 127\.0\.0\.1:(\d+)", log.read())
        if m:
            return proc, int(m.group(1)), log
        time.sleep(0.05)
    proc.kill()
    raise SystemExit("memstored did not start")


def rss(pid, field="RssAnon"):
    """Resident memory of the daemon, in bytes. RssAnon by default: the heap
    and buffers an initiator can make it hold, without the pages of its own
    code and libraries, which fault in as new code paths first run (VmRSS
    counts them, RssFile alone)."""
    with open(f"/proc/{pid}/status") as f:
        for line in f:
            if line.startswith(field + ":"):
                return int(line.split()[1]) * 1024
    raise SystemExit(f"no {field}")


def cpu_seconds(pid):
    with open(f"/proc/{pid}/stat") as f:
        fields = f.read().rsplit(")", 1)[1].split()
    return (int(fields[11]) + int(fields[12])) / os.sysconf("SC_CLK_TCK")


def pad(data):
    return data + b"\0" * (-len(data) % 4)


def login_pdu(text, cont=False, final=True):
    """A Login Request, operational stage straight to full feature (RFC 7143 §11.12)."""
    flags = (0x80 if final and not cont else 0) | (0x40 if cont else 0) | (1 << 2) | 3
    bhs = struct.pack(">BBBBB3s6sHIHHII16s", 0x43, flags, 0, 0, 0,
                      len(text).to_bytes(3, "big"), bytes([0x80, 0, 0, 0x42, 0, 0]), 0,
                      1, 0, 0, 1, 0, b"")
    return bhs + pad(text)


def recv_exact(sock, n):
    out = b""
    while len(out) < n:
        chunk = sock.recv(n - len(out))
        if not chunk:
            return None
        out += chunk
    return out


def recv_pdu(sock):
    bhs = recv_exact(sock, 48)
    if bhs is None:
        return None
    length = int.from_bytes(bhs[5:8], "big")
    data = recv_exact(sock, length + (-length % 4)) if length else b""
    return bhs, (data or b"")[:length]


def login(port, isid_tail=0x42):
    sock = socket.create_connection(("127.0.0.1", port), timeout=10)
    text = (f"InitiatorName={INITIATOR}\0TargetName={TARGET}\0SessionType=Normal\0"
            "HeaderDigest=None\0DataDigest=None\0").encode()
    pdu = bytearray(login_pdu(text))
    pdu[13] = isid_tail
    sock.sendall(pdu)
    r = recv_pdu(sock)
    if r is None or r[0][36] != 0 or not r[0][1] & 0x80:
        sock.close()
        return None
    return sock


def well_behaved_is_served(port):
    """A fresh session answers a NOP-Out ping."""
    sock = login(port, isid_tail=0x77)
    if sock is None:
        return False
    nop = struct.pack(">BBH I 8s I I I I 16s", 0x40 | 0x00, 0x80, 0, 0, b"\0" * 8,
                      9, 0xFFFFFFFF, 1, 0, b"")
    sock.sendall(nop)
    while True:
        r = recv_pdu(sock)
        if r is None:
            return False
        if r[0][0] & 0x3F == 0x20 and int.from_bytes(r[0][16:20], "big") == 9:
            sock.close()
            return True


def case_churn(pid, port):
    for _ in range(20000):
        s = socket.create_connection(("127.0.0.1", port))
        s.close()
    return 16 * MIB


def case_text(pid, port):
    sock = socket.create_connection(("127.0.0.1", port), timeout=10)
    chunk = login_pdu(b"X" * 8192, cont=True)
    sent = 0
    try:
        while sent < 32 * 1000 * 1000:
            sock.sendall(chunk)
            sent += 8192
    except OSError:
        pass  # the daemon ended the login: what it should do
    # The daemon refused the login once the text passed its limit; what
    # followed was read and dropped until the connection closed.
    sock.settimeout(5)
    refused = None
    try:
        while (r := recv_pdu(sock)) is not None:
            if r[0][0] & 0x3F == 0x23 and r[0][36] != 0:
                refused = (r[0][36], r[0][37])
                break
    except OSError:
        pass
    sock.close()
    print(f"  text: {sent / MIB:.1f} MiB sent; login refused with {refused}")
    if refused != (3, 2):
        raise AssertionError(f"text: no 03/02 out-of-resources login response ({refused})")
    return 16 * MIB


def case_reads(pid, port):
    sock = login(port)
    if sock is None:
        raise SystemExit("reads: login failed")
    # All 60,000 commands in one stream, sent as fast as the daemon takes
    # them: a slow sender would let the daemon answer as it goes, and the
    # memory a fast one makes it queue would go unmeasured.
    cdb = bytes([0x88, 0]) + (0).to_bytes(8, "big") + (64).to_bytes(4, "big") + b"\0\0"
    stream = b"".join(struct.pack(">BB2xB3s8sIIII16s", 0x41, 0xC0, 0, b"\0\0\0", b"\0" * 8,
                                  itt, 32 * 1024, 1, 0, cdb) for itt in range(1, 60001))
    sock.setblocking(False)
    at = 0
    deadline = time.monotonic() + 15
    while at < len(stream) and time.monotonic() < deadline:
        try:
            at += sock.send(stream[at:at + (1 << 20)])
        except BlockingIOError:
            time.sleep(0.01)
    sent = at // 48
    print(f"  reads: {sent} immediate READs sent, none of their responses read")
    time.sleep(1)
    growth_holder.append(sock)  # kept open, unread, while memory is measured
    return 64 * MIB


def case_idle(pid, port):
    socks = []
    for _ in range(1000):
        try:
            socks.append(socket.create_connection(("127.0.0.1", port), timeout=2))
        except OSError:
            break
    time.sleep(0.5)
    before = cpu_seconds(pid)
    time.sleep(3)
    used = cpu_seconds(pid) - before
    print(f"  idle: {len(socks)} connections held; memstored used {used:.3f} s of CPU in 3 s")
    for s in socks:
        s.close()
    if used >= 0.2:
        raise AssertionError(f"idle: {used:.3f} s of CPU in 3 s at the descriptor limit")
    return None


growth_holder = []
CASES = {"churn": case_churn, "text": case_text, "reads": case_reads, "idle": case_idle}


def main():
    memstored = sys.argv[1]
    soft, hard = resource.getrlimit(resource.RLIMIT_NOFILE)
    resource.setrlimit(resource.RLIMIT_NOFILE, (max(soft, min(hard, 4096)), hard))
    names = sys.argv[2:] or list(CASES)
    failed = False
    for name in names:
        with tempfile.TemporaryDirectory(prefix="memstore-hostile-") as work:
            proc, port, log = start(memstored, work, 256 if name == "idle" else None)
            try:
                time.sleep(0.2)
                base, base_vm = rss(proc.pid), rss(proc.pid, "VmRSS")
                try:
                    bar = CASES[name](proc.pid, port)
                except AssertionError as e:
                    print(f"FAIL {name}: {e}")
                    failed = True
                    continue
                if bar is not None:
                    grown = rss(proc.pid) - base
                    grown_vm = rss(proc.pid, "VmRSS") - base_vm
                    ok = grown < bar
                    print(f"{'PASS' if ok else 'FAIL'} {name}: RSS grew {grown / MIB:.1f} MiB "
                          f"anonymous, {grown_vm / MIB:.1f} MiB in all (bar {bar / MIB:.0f} MiB)")
                    failed |= not ok
                for s in growth_holder:
                    s.close()
                growth_holder.clear()
                if name == "idle":
                    time.sleep(0.5)
                served = well_behaved_is_served(port)
                print(f"{'PASS' if served else 'FAIL'} {name}: a well-behaved initiator is served")
                failed |= not served
            finally:
                proc.terminate()
                try:
                    proc.wait(timeout=10)
                except subprocess.TimeoutExpired:
                    proc.kill()
                    print(f"FAIL {name}: memstored did not stop within 10 s of SIGTERM")
                    failed = True
                if failed:
                    log.seek(0)
                    print(log.read()[-3000:])
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main())
