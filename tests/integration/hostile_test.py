#!/usr/bin/env python3
# SPDX-License-Identifier: Apache-2.0
"""Hostile initiators against a real memstored (docs/memstored.md, "Limits").

One case per limit an initiator could otherwise exhaust. Each drives the
daemon the way a broken or hostile initiator would, then asserts that the
daemon's resident anonymous memory (RssAnon) grew by less than the bar, and that a
well-behaved initiator logging in afterwards is still served.

  churn     20,000 connect/close cycles                  RSS growth < 16 MiB
  text      a 32 MB login text flood with C=1            RSS growth < 16 MiB
  reads     60,000 immediate 32 KiB READs, never read    RSS growth <= 64 MiB
  idle      1,000 connections at a 256-descriptor limit  memstored CPU < 0.2 s over 3 s
  sessions  100 sessions of one initiator name           64 held, 36 refused 03/02; < 16 MiB
  connections 1,100 connections at once                  76 closed at accept; < 16 MiB
  edtl      a one-block WRITE announcing 1 GiB           512 bytes solicited; < 16 MiB
  resets    20,000 sessions, new ISID each, LU RESET     unit attentions kept for 1,024 ports; < 8 MiB

The output queue, the daemon-wide buffer and batch budgets, the login timeout
and the PR registrations have their own tests (tests/iscsi/server_limits_test.cc,
tests/scsi/memory_budget_test.cc, tests/scsi/lun_reservations_test.cc).

Usage: hostile_test.py MEMSTORED [CASE...]   (default: every case)
"""
import os
import resource
import socket
import struct
import subprocess
import sys
import tempfile
import time

from iscsi_raw import (MIB, Session, cpu_seconds, data_out_pdu, login, login_pdu, login_status,
                       nop_out_pdu, recv_pdu, rss, start)


def well_behaved_is_served(port):
    """A fresh session answers a NOP-Out ping."""
    sock = login(port, isid_tail=0x77)
    if sock is None:
        return False
    sock.sendall(nop_out_pdu(9, cmdsn=1))
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


# The keys of a session whose WRITEs may carry their data (RFC 7143 §13.10, §13.11).
IMMEDIATE = "ImmediateData=Yes\0InitialR2T=No\0"


def case_sessions(pid, port):
    """One initiator name opens 100 sessions (distinct ISIDs) and holds them:
    the 65th and later fail with 03/02 (limits.max_sessions_per_initiator)."""
    refused = []
    for i in range(100):
        sock, cls, detail = login_status(port, 0x100 + i, IMMEDIATE)
        if sock is not None:
            growth_holder.append(sock)
        else:
            refused.append((cls, detail))
    print(f"  sessions: {len(growth_holder)} held, {len(refused)} refused with {set(refused)}")
    if len(growth_holder) != 64 or set(refused) != {(3, 2)}:
        raise AssertionError("sessions: expected 64 sessions and 36 refusals with 03/02")
    return 16 * MIB


def case_connections(pid, port):
    """1,100 connections at once: those beyond limits.max_connections (1,024)
    are closed by the daemon as soon as it accepts them."""
    socks = [socket.create_connection(("127.0.0.1", port), timeout=5) for _ in range(1100)]
    for s in socks:
        s.setblocking(False)
    # The kernel completes every handshake at once; the daemon accepts from its
    # backlog at its own pace (seconds under TSan on a loaded machine), so the
    # count is polled until it reaches the bar, then checked once more so that
    # a daemon closing too many still fails.
    open_socks, closed = list(socks), 0
    deadline = time.monotonic() + 20
    settle = None
    while time.monotonic() < deadline:
        still = []
        for s in open_socks:
            try:
                if s.recv(1) == b"":
                    closed += 1
                    continue
            except BlockingIOError:
                pass
            except ConnectionResetError:
                closed += 1
                continue
            still.append(s)
        open_socks = still
        if closed >= 1100 - 1024:
            settle = settle or time.monotonic() + 1
            if time.monotonic() >= settle:
                break
        time.sleep(0.1)
    print(f"  connections: 1100 opened, {closed} closed by the daemon")
    growth_holder.extend(socks)
    if closed != 1100 - 1024:
        raise AssertionError(f"connections: {closed} closed, expected {1100 - 1024}")
    return 16 * MIB


def case_edtl(pid, port):
    """A one-block WRITE(10) whose Expected Data Transfer Length says 1 GiB,
    then Data-Out for every R2T, up to 64 MiB: the daemon solicits only the
    CDB's 512 bytes, and answers GOOD with the rest as an underflow residual
    (RFC 7143 §11.4.5.2)."""
    sock, _, _ = login_status(port, 0x42, IMMEDIATE)
    if sock is None:
        raise SystemExit("edtl: login failed")
    cdb = bytes([0x2A, 0, 0, 0, 0, 0, 0, 0, 1, 0]) + bytes(6)
    # F and W, no unsolicited data; CmdSN 1, the login's.
    sock.sendall(struct.pack(">BB2xB3s8sIIII16s", 0x01, 0xA1, 0, b"\0\0\0", b"\0" * 8,
                             1, 1 << 30, 1, 0, cdb))
    sent = 0
    segment = 256 * 1024  # the daemon's MaxRecvDataSegmentLength
    answered = None
    while sent < 64 * MIB:
        r = recv_pdu(sock)
        if r is None:
            raise AssertionError(f"edtl: connection closed after {sent} bytes")
        if r[0][0] & 0x3F == 0x21:  # SCSI Response: the daemon asked for no more
            answered = r[0]
            break
        if r[0][0] & 0x3F != 0x31:  # anything but an R2T
            continue
        ttt = int.from_bytes(r[0][20:24], "big")
        offset = int.from_bytes(r[0][40:44], "big")
        want = int.from_bytes(r[0][44:48], "big")
        for n, at in enumerate(range(0, want, segment)):
            length = min(segment, want - at)
            sock.sendall(data_out_pdu(1, ttt, n, offset + at, bytes(length), at + length == want))
            sent += length
    how = "no answer yet"
    if answered is not None:
        how = (f"answered: response {answered[2]}, status {answered[3]:#04x}, flags "
               f"{answered[1]:#04x}, residual {int.from_bytes(answered[44:48], 'big')}")
    print(f"  edtl: {sent} bytes of Data-Out solicited for a one-block WRITE ({how})")
    growth_holder.append(sock)
    if answered is None or sent != 512 or answered[3] != 0 or not answered[1] & 0x02 or \
            int.from_bytes(answered[44:48], "big") != (1 << 30) - 512:
        raise AssertionError("edtl: expected 512 bytes solicited, then GOOD with an underflow "
                             "residual of 1 GiB - 512")
    return 16 * MIB


growth_holder = []
def case_resets(pid, port):
    """20,000 sessions of one initiator, each with a new ISID, each sending a
    LOGICAL UNIT RESET and logging out: every port that leaves with a unit
    attention queued (29h/03h) keeps it for its return, but at most 1,024 of
    them (UnitAttentions::kMaxPorts), not one per port ever seen."""
    for i in range(20000):
        s = Session(port, bytes([0x80, 0, 0x01]) + i.to_bytes(3, "big"))
        if s.task_management(5) != 0:  # LOGICAL UNIT RESET: Function complete
            raise AssertionError(f"resets: LU RESET refused in session {i}")
        s.logout()
        s.close()
    print("  resets: 20000 sessions, each a new initiator port, each reset the LUN")
    return 8 * MIB


CASES = {"churn": case_churn, "text": case_text, "reads": case_reads, "idle": case_idle,
         "sessions": case_sessions, "connections": case_connections, "edtl": case_edtl,
         "resets": case_resets}


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
                    # TSan's shadow memory multiplies RSS (scripts/tsan): reported only.
                    ok = grown < bar or bool(os.environ.get("MEMSTORE_UNDER_TSAN"))
                    print(f"{'PASS' if ok else 'FAIL'} {name}: RSS grew {grown / MIB:.1f} MiB "
                          f"anonymous, {grown_vm / MIB:.1f} MiB in all (bar {bar / MIB:.0f} MiB"
                          f"{', not enforced under TSan' if grown >= bar else ''})")
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
