# SPDX-License-Identifier: Apache-2.0
"""A raw iSCSI initiator for the Python tests and scripts that drive memstored.

Shared by tests/integration/hostile_test.py (hostile initiators) and
scripts/soak (64 sessions with churn and verified I/O). It speaks just enough
of RFC 7143 to do that, byte by byte, so that a test can also do what no
well-behaved initiator would (cut a PDU in half, never read its responses):

- start(): memstored on 127.0.0.1:0, its port read from its log;
  rss() and cpu_seconds() of a process, from /proc.
- pad, login_pdu, recv_exact, recv_pdu, login, login_status, nop_out_pdu: the
  login PDU, a NOP-Out and the framing.
- Session: one connection of one session in the full feature phase, with
  CmdSN/ExpStatSN bookkeeping, SCSI commands with immediate data, unsolicited
  Data-Out or R2T, Data-In collected into a buffer, NOP-In pings answered, and
  Logout.
"""
import os
import re
import resource
import select
import socket
import struct
import subprocess
import time

MIB = 1 << 20
TARGET = "iqn.2026-11.org.memstore:g2"
INITIATOR = "iqn.2026-11.org.memstore.test:hostile"
RESERVED_TAG = 0xFFFFFFFF

# SCSI status bytes (SAM-5) a test looks at: the last two mean "retry later".
GOOD, CHECK_CONDITION, BUSY, TASK_SET_FULL = 0x00, 0x02, 0x08, 0x28

# Opcodes (RFC 7143 §11.1.1), the I bit (0x40) off.
NOP_OUT, SCSI_CMD, TMF, DATA_OUT, LOGOUT = 0x00, 0x01, 0x02, 0x05, 0x06
NOP_IN, SCSI_RSP, TMF_RSP, LOGIN_RSP, DATA_IN, LOGOUT_RSP, R2T, ASYNC, REJECT = (
    0x20, 0x21, 0x22, 0x23, 0x25, 0x26, 0x31, 0x32, 0x3F)


def start(memstored, workdir, nofile_limit=None, args=None):
    """memstored on 127.0.0.1:0 in workdir: (process, port, log file).

    args default to what the hostile tests use: memory backing, no timing,
    one event-loop thread. nofile_limit is the daemon's own descriptor limit.
    """
    log = open(os.path.join(workdir, "memstored.log"), "w+")
    preexec = None
    if nofile_limit is not None:
        def preexec():  # noqa: E306 - the descriptor limit of the daemon alone
            resource.setrlimit(resource.RLIMIT_NOFILE, (nofile_limit, nofile_limit))
    if args is None:
        args = ["--backing", "memory", "--timing", "off", "--threads", "1"]
    proc = subprocess.Popen([memstored, "--listen", "127.0.0.1:0", *args],
                            stdout=log, stderr=subprocess.STDOUT, cwd=workdir,
                            preexec_fn=preexec)
    for _ in range(200):
        log.seek(0)
        m = re.search(r"serving .* on 127\.0\.0\.1:(\d+)", log.read())
        if m:
            return proc, int(m.group(1)), log
        if proc.poll() is not None:
            break
        time.sleep(0.05)
    proc.kill()
    log.seek(0)
    raise SystemExit("memstored did not start:\n" + log.read()[-3000:])


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


def login_pdu(text, cont=False, final=True, isid=bytes([0x80, 0, 0, 0x42, 0, 0]), cmdsn=1,
              exp_statsn=0):
    """A Login Request, operational stage straight to full feature (RFC 7143 §11.12).

    The default ISID is of the random type (0x80, §10.12.5).
    """
    flags = (0x80 if final and not cont else 0) | (0x40 if cont else 0) | (1 << 2) | 3
    bhs = struct.pack(">BBBBB3s6sHIHHII16s", 0x43, flags, 0, 0, 0,
                      len(text).to_bytes(3, "big"), isid, 0,
                      1, 0, 0, cmdsn, exp_statsn, b"")
    return bhs + pad(text)


def recv_exact(sock, n):
    out = bytearray(n)
    view = memoryview(out)
    got = 0
    while got < n:
        k = sock.recv_into(view[got:])
        if not k:
            return None
        got += k
    return bytes(out)


def recv_pdu(sock):
    bhs = recv_exact(sock, 48)
    if bhs is None:
        return None
    length = int.from_bytes(bhs[5:8], "big")
    data = recv_exact(sock, length + (-length % 4)) if length else b""
    return bhs, (data or b"")[:length]


def login_status(port, isid_tail, keys=""):
    """Logs in with INITIATOR and the ISID 80 00 00 42 + isid_tail (two bytes), the
    text keys given added; (socket or None, status class, detail)."""
    sock = socket.create_connection(("127.0.0.1", port), timeout=10)
    text = (f"InitiatorName={INITIATOR}\0TargetName={TARGET}\0SessionType=Normal\0"
            "HeaderDigest=None\0DataDigest=None\0" + keys).encode()
    sock.sendall(login_pdu(text, isid=bytes([0x80, 0, 0, 0x42]) + isid_tail.to_bytes(2, "big")))
    r = recv_pdu(sock)
    if r is None or r[0][36] != 0 or not r[0][1] & 0x80:
        sock.close()
        return (None, None, None) if r is None else (None, r[0][36], r[0][37])
    return sock, 0, 0


def login(port, isid_tail=0x42):
    return login_status(port, isid_tail)[0]


def nop_out_pdu(itt, ttt=RESERVED_TAG, cmdsn=0, exp_statsn=0, lun=b"\0" * 8):
    """An immediate NOP-Out (RFC 7143 §11.18): a ping of ours (ITT) or the answer to one (TTT)."""
    return struct.pack(">BBH I 8s I I I I 16s", 0x40 | NOP_OUT, 0x80, 0, 0, lun,
                       itt, ttt, cmdsn, exp_statsn, b"")


def data_out_pdu(itt, ttt, data_sn, offset, segment, final, lun=b"\0" * 8, exp_statsn=0):
    """A Data-Out PDU (§11.7) carrying `segment` at `offset`, F set on the last of a sequence."""
    return struct.pack(">BBH B3s 8s I I I I I I I I", DATA_OUT, 0x80 if final else 0, 0, 0,
                       len(segment).to_bytes(3, "big"), lun, itt, ttt, 0, exp_statsn, 0,
                       data_sn, offset, 0) + pad(segment)


def serial_lt(a, b):
    """a < b in 32-bit serial number arithmetic (RFC 1982; RFC 7143 §4.2.2.1)."""
    return a != b and (b - a) & 0xFFFFFFFF < 0x80000000


class LoginRefused(Exception):
    def __init__(self, status_class, detail):
        super().__init__(f"login refused: {status_class:02x}/{detail:02x}")
        self.status = (status_class, detail)


class ProtocolError(Exception):
    """The target broke RFC 7143 (or the connection ended under a command)."""


class Task:
    """One SCSI command: what was sent, and what came back."""
    __slots__ = ("itt", "lun", "data", "read_len", "buf", "status", "sense", "done",
                 "next_datasn", "received")

    def __init__(self, itt, lun, data, read_len):
        self.itt, self.lun, self.data, self.read_len = itt, lun, data, read_len
        self.buf = bytearray(read_len) if read_len else None
        self.status = self.sense = None
        self.done = False
        self.next_datasn = 0
        self.received = 0


class Session:
    """One connection of one Normal session, ErrorRecoveryLevel 0, LUN 0 by default.

    immediate=True negotiates ImmediateData=Yes and InitialR2T=No, so a WRITE's
    data rides in its command PDU up to FirstBurstLength (§13.10, §13.11);
    False negotiates the opposite, so that every WRITE waits for an R2T.
    mrdsl is our MaxRecvDataSegmentLength, what one Data-In may carry (§13.12);
    data_out_max cuts Data-Out PDUs smaller than the target's own limit would.
    """

    def __init__(self, port, isid, *, initiator=INITIATOR, target=TARGET,
                 immediate=True, mrdsl=8192, cmdsn=1, data_out_max=65536, timeout=30):
        self.sock = socket.create_connection(("127.0.0.1", port), timeout=timeout)
        self.sock.setsockopt(socket.IPPROTO_TCP, socket.TCP_NODELAY, 1)
        self.cmdsn = cmdsn & 0xFFFFFFFF
        self.exp_statsn = None  # until the first Login Response
        self.max_cmdsn = None  # likewise
        self.itt = 0
        self.tasks = {}
        self.pings_answered = 0
        self.data_out_max = data_out_max
        # ErrorRecoveryLevel 0 (§7.1.5): a broken connection ends the session and its tasks.
        text = (f"InitiatorName={initiator}\0TargetName={target}\0SessionType=Normal\0"
                "HeaderDigest=None\0DataDigest=None\0ErrorRecoveryLevel=0\0"
                + ("ImmediateData=Yes\0InitialR2T=No\0" if immediate else
                   "ImmediateData=No\0InitialR2T=Yes\0")
                + f"FirstBurstLength=65536\0MaxBurstLength=262144\0"
                f"MaxRecvDataSegmentLength={mrdsl}\0")
        try:
            self.keys = self._login(text.encode(), isid)
        except BaseException:
            self.sock.close()
            raise
        # What the target accepts from us (§13.12: its declared MaxRecvDataSegmentLength;
        # §13.13/§13.14: the bursts), and what the negotiation settled.
        self.immediate = self.keys.get("ImmediateData") == "Yes"
        self.initial_r2t = self.keys.get("InitialR2T", "Yes") == "Yes"
        self.first_burst = int(self.keys.get("FirstBurstLength", 65536))
        self.target_mrdsl = int(self.keys.get("MaxRecvDataSegmentLength", 8192))

    def _login(self, text, isid):
        keys = {}
        for _ in range(4):
            self.sock.sendall(login_pdu(text, isid=isid, cmdsn=self.cmdsn,
                                        exp_statsn=self.exp_statsn or 0))
            r = recv_pdu(self.sock)
            if r is None:
                raise ProtocolError("connection closed during login")
            bhs, data = r
            if bhs[0] & 0x3F != LOGIN_RSP:
                raise ProtocolError(f"opcode {bhs[0]:#x} in answer to a Login Request")
            if bhs[36] != 0:
                raise LoginRefused(bhs[36], bhs[37])
            for kv in data.split(b"\0"):
                if b"=" in kv:
                    k, v = kv.decode().split("=", 1)
                    keys[k] = v
            self._sn(bhs, advances=True)
            if bhs[1] & 0x80 and bhs[1] & 0x03 == 3:
                return keys
            text = b""  # the target wants another round (§6.2): nothing new to say
        raise ProtocolError("login did not reach the full feature phase in 4 rounds")

    # ---- sequence numbers (§4.2.2) ----

    def _sn(self, bhs, advances):
        """Takes ExpCmdSN/MaxCmdSN (and StatSN when the PDU carries status) from a target PDU."""
        statsn, exp_cmdsn, max_cmdsn = struct.unpack_from(">III", bhs, 24)
        # MaxCmdSN = ExpCmdSN - 1 is a closed window, and an older MaxCmdSN is stale (§4.2.2.1).
        if self.max_cmdsn is None or not serial_lt(max_cmdsn, self.max_cmdsn):
            self.max_cmdsn = max_cmdsn
        if advances:
            if self.exp_statsn is not None and statsn != self.exp_statsn:
                raise ProtocolError(f"StatSN {statsn:#x}, expected {self.exp_statsn:#x}")
            self.exp_statsn = (statsn + 1) & 0xFFFFFFFF

    def window_open(self):
        return not serial_lt(self.max_cmdsn, self.cmdsn)

    def next_itt(self):
        self.itt = (self.itt + 1) & 0x7FFFFFFF  # never the reserved 0xffffffff
        return self.itt

    # ---- commands ----

    def command_pdus(self, cdb, *, read_len=0, data=b"", lun=0):
        """The PDUs of one SCSI command (§11.3), its task registered: the command with
        its immediate data, then any unsolicited Data-Out (§13.11, FirstBurstLength).
        CmdSN is taken here, so the caller must send them, in order (or not send the
        rest and close the connection)."""
        while not self.window_open():
            self.receive()  # §4.2.2.1: a command beyond MaxCmdSN waits
        itt = self.next_itt()
        lun_b = struct.pack(">HHI", lun & 0x3FFF, 0, 0)
        task = Task(itt, lun_b, data, read_len)
        self.tasks[itt] = task
        first = min(len(data), self.first_burst, self.target_mrdsl) if self.immediate else 0
        unsolicited = 0 if self.initial_r2t else min(len(data), self.first_burst) - first
        flags = 0x80 | (0x40 if read_len else 0) | (0x20 if data else 0) | 1  # F, R, W, SIMPLE
        bhs = struct.pack(">BBH B3s 8s I I I I 16s", SCSI_CMD, flags, 0, 0,
                          first.to_bytes(3, "big"), lun_b, itt, read_len or len(data),
                          self.cmdsn, self.exp_statsn, cdb.ljust(16, b"\0"))
        self.cmdsn = (self.cmdsn + 1) & 0xFFFFFFFF
        pdus = [bhs + pad(data[:first])]
        pdus += self._data_out(task, RESERVED_TAG, first, unsolicited, 0)
        return itt, pdus

    def _data_out(self, task, ttt, offset, length, datasn):
        """Data-Out PDUs (§11.7) for [offset, offset + length) of a task's data."""
        out = []
        end = offset + length
        chunk = min(self.target_mrdsl, self.data_out_max)
        while offset < end:
            n = min(chunk, end - offset)
            out.append(data_out_pdu(task.itt, ttt, datasn, offset, task.data[offset:offset + n],
                                    offset + n == end, task.lun, self.exp_statsn))
            offset += n
            datasn += 1
        return out

    def submit(self, cdb, *, read_len=0, data=b"", lun=0):
        itt, pdus = self.command_pdus(cdb, read_len=read_len, data=data, lun=lun)
        self.sock.sendall(b"".join(pdus))
        return itt

    def wait(self, itt):
        """The finished task: status, sense, and for a read its data (buf)."""
        task = self.tasks[itt]
        while not task.done:
            self.receive()
        del self.tasks[itt]
        return task

    def command(self, cdb, *, read_len=0, data=b"", lun=0):
        return self.wait(self.submit(cdb, read_len=read_len, data=data, lun=lun))

    # ---- what the target sends ----

    def receive(self):
        """Reads and handles one PDU from the target."""
        r = recv_pdu(self.sock)
        if r is None:
            raise ProtocolError("connection closed by the target")
        bhs, data = r
        op = bhs[0] & 0x3F
        itt = struct.unpack_from(">I", bhs, 16)[0]
        if op == NOP_IN:
            # A ping of the target's (TTT set) gets a NOP-Out echoing TTT and LUN, ITT
            # reserved (§11.18.3, §11.19.3); it does not advance StatSN when its ITT is
            # reserved (§11.19.5).
            self._sn(bhs, advances=itt != RESERVED_TAG)
            ttt = struct.unpack_from(">I", bhs, 20)[0]
            if ttt != RESERVED_TAG:
                self.sock.sendall(nop_out_pdu(RESERVED_TAG, ttt, self.cmdsn, self.exp_statsn,
                                              bhs[8:16]))
                self.pings_answered += 1
            return op, bhs, data
        if op == DATA_IN:
            self._data_in(itt, bhs, data)
        elif op == SCSI_RSP:
            self._sn(bhs, advances=True)
            task = self._task(itt, op)
            task.status = bhs[3]
            if bhs[2] != 0:  # the command did not complete at the target (§11.4.3)
                raise ProtocolError(f"SCSI Response with response {bhs[2]:#x}")
            if len(data) >= 2:
                task.sense = data[2:2 + int.from_bytes(data[:2], "big")]
            task.done = True
        elif op == R2T:
            self._sn(bhs, advances=False)  # R2T carries the next StatSN, not its own (§11.8)
            ttt, _, _, _, r2tsn, offset, length = struct.unpack_from(">IIIIIII", bhs, 20)
            task = self._task(itt, op)
            if offset + length > len(task.data):
                raise ProtocolError(f"R2T for [{offset}, +{length}) of a "
                                    f"{len(task.data)}-byte write")
            self.sock.sendall(b"".join(self._data_out(task, ttt, offset, length, 0)))
        elif op in (LOGOUT_RSP, TMF_RSP, ASYNC, REJECT):
            self._sn(bhs, advances=True)
            if op == REJECT:
                raise ProtocolError(f"Reject, reason {bhs[2]:#x}")
            if op == ASYNC:
                raise ProtocolError(f"Asynchronous Message, event {bhs[36]}")
        else:
            raise ProtocolError(f"unexpected opcode {op:#x}")
        return op, bhs, data

    def _task(self, itt, op):
        task = self.tasks.get(itt)
        if task is None:
            raise ProtocolError(f"opcode {op:#x} for unknown ITT {itt:#x}")
        return task

    def _data_in(self, itt, bhs, data):
        """Data-In (§11.7): placed at its Buffer Offset, DataSN in order; the status
        rides in the last one when S is set (§11.7.2)."""
        task = self._task(itt, DATA_IN)
        flags = bhs[1]
        datasn, offset = struct.unpack_from(">II", bhs, 36)
        if datasn != task.next_datasn:
            raise ProtocolError(f"Data-In DataSN {datasn}, expected {task.next_datasn}")
        task.next_datasn += 1
        if task.buf is None or offset + len(data) > len(task.buf):
            raise ProtocolError(f"Data-In [{offset}, +{len(data)}) beyond the read")
        task.buf[offset:offset + len(data)] = data
        task.received += len(data)
        self._sn(bhs, advances=bool(flags & 0x01))
        if flags & 0x01:
            task.status = bhs[3]
            task.done = True

    def idle(self, seconds):
        """Stays logged in for a while doing nothing but answering NOP-In pings."""
        deadline = time.monotonic() + seconds
        while (left := deadline - time.monotonic()) > 0:
            if select.select([self.sock], [], [], left)[0]:
                self.receive()

    def task_management(self, function, referenced=RESERVED_TAG):
        """An immediate Task Management Function Request (§11.5) for LUN 0; its response."""
        itt = self.next_itt()
        self.sock.sendall(struct.pack(">BBH B3s 8s I I I I I I 8s", 0x40 | TMF, 0x80 | function,
                                      0, 0, b"\0\0\0", b"\0" * 8, itt, referenced, self.cmdsn,
                                      self.exp_statsn, 0, 0, b""))
        while True:
            op, bhs, _ = self.receive()
            if op == TMF_RSP:
                return bhs[2]

    def logout(self):
        """Logout, reason "close the session" (§11.14); the target closes afterwards."""
        itt = self.next_itt()
        self.sock.sendall(struct.pack(">BBH B3s 8s I HH I I 16s", 0x40 | LOGOUT, 0x80, 0, 0,
                                      b"\0\0\0", b"\0" * 8, itt, 0, 0, self.cmdsn,
                                      self.exp_statsn, b""))
        while True:
            op, bhs, _ = self.receive()
            if op == LOGOUT_RSP:
                if bhs[2] != 0:
                    raise ProtocolError(f"Logout Response {bhs[2]}")
                return

    def close(self):
        self.sock.close()
