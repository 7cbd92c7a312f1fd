# SPDX-License-Identifier: Apache-2.0
"""The power-cut workloads of the VM test (tests/vm/guest-powercut.sh) and
their checks (docs/crash-consistency.md, "Under Linux").

  files-run DIR LOG SECONDS [MAX [DEVICE LBA]]
                               files written, fsynced and renamed into place,
                               every tenth one an older file unlinked; LOG
                               gets a line once each step is durable; at most
                               MAX files. With DEVICE and LBA, the number of
                               durable steps is also written there after
                               each (4 KiB, direct, past the file system's
                               end), so that a write log shows where each
                               step had become durable (progress_in_log)
  files-check DIR LOG [STEPS]  what LOG says was durable is there, whole;
                               only LOG's first STEPS lines when given
  sqlite-run DB LOG SECONDS    numbered rows committed one transaction each
                               (WAL, synchronous=FULL); LOG gets each row
                               once its COMMIT has returned
  sqlite-check DB LOG          every committed row is there, whole

A run ends at its first I/O error (the device lost its power) or after
SECONDS. LOG lives outside the device under test and is appended across
runs, so a check also covers what earlier cuts left. A check prints one
line, "ok ..." or "FAIL ...", and exits 0 or 1.
"""
import hashlib
import mmap
import os
import struct
import sqlite3
import sys
import time


def payload(i):
    """File or row i's bytes: 1 to 60 KiB, from its number alone."""
    size = 1024 * (1 + (i * 7919) % 60) + i % 512
    block = hashlib.sha256(str(i).encode()).digest()
    return (block * (size // len(block) + 1))[:size]


def read_log(path):
    """The steps LOG records: ('+', i) a file or row durable, ('-', i) a file's unlink durable."""
    steps = []
    try:
        with open(path) as f:
            for line in f:
                line = line.strip()
                if line:
                    steps.append((line[0], int(line[1:])))
    except FileNotFoundError:
        pass
    return steps


def next_number(steps):
    return max((i for _, i in steps), default=0) + 1


def fsync_dir(path):
    fd = os.open(path, os.O_RDONLY | os.O_DIRECTORY)
    try:
        os.fsync(fd)
    finally:
        os.close(fd)


class Progress:
    """The count of durable steps, written to a raw device block with
    O_DIRECT after each step: it reaches the device right after the step's
    last flush, so the device's write log orders it after that flush."""

    def __init__(self, device, lba):
        self.fd = os.open(device, os.O_WRONLY | os.O_DIRECT)
        self.offset = lba * 512
        self.buf = mmap.mmap(-1, 4096)  # page-aligned, as O_DIRECT wants
        self.steps = 0

    def step(self):
        self.steps += 1
        self.buf.seek(0)
        self.buf.write(PROGRESS_TAG + b"%d\n" % self.steps + b"\0" * 64)
        os.pwrite(self.fd, self.buf, self.offset)


PROGRESS_TAG = b"memstore-progress "


def files_run(d, log, seconds, most=None, progress=None):
    os.makedirs(d, exist_ok=True)
    i = next_number(read_log(log))
    done = 0
    deadline = time.monotonic() + seconds

    def durable(line):
        out.write(line)
        out.flush()
        if progress:
            progress.step()

    with open(log, "a") as out:
        try:
            while time.monotonic() < deadline and (most is None or done < most):
                tmp, final = os.path.join(d, f"{i}.tmp"), os.path.join(d, str(i))
                # The pattern applications use for an atomic replace: data
                # made durable before the name points at it, then the
                # directory entry made durable.
                with open(tmp, "wb") as f:
                    f.write(payload(i))
                    f.flush()
                    os.fsync(f.fileno())
                os.rename(tmp, final)
                fsync_dir(d)
                durable(f"+{i}\n")
                if i % 10 == 0 and os.path.exists(os.path.join(d, str(i - 5))):
                    os.unlink(os.path.join(d, str(i - 5)))
                    fsync_dir(d)
                    durable(f"-{i - 5}\n")
                i += 1
                done += 1
        except OSError as e:
            print(f"files-run: stopped after {done} files: {e}")
            return 0
    print(f"files-run: {done} files without an I/O error")
    return 0


def files_check(d, log, upto=None):
    """With UPTO (a crash state's check), only the first UPTO steps are
    known durable; the state may hold later ones too, so a durable file
    that a later step unlinks may be gone."""
    steps = read_log(log)
    durable = {}
    for sign, i in steps[:upto]:
        durable[i] = sign
    unlinked_later = {i for sign, i in steps[upto:] if sign == "-"} if upto is not None else set()
    missing, wrong, undead, extra_ok = [], [], [], 0
    for i, sign in durable.items():
        path = os.path.join(d, str(i))
        if sign == "-":
            if os.path.exists(path):
                undead.append(i)
            continue
        try:
            with open(path, "rb") as f:
                if f.read() != payload(i):
                    wrong.append(i)
        except FileNotFoundError:
            if i not in unlinked_later:
                missing.append(i)
    # A file under its final name that the log does not list (its rename
    # made it in, the log line did not) must still be whole: its data was
    # durable before the rename.
    for name in os.listdir(d) if os.path.isdir(d) else []:
        if name.isdigit() and int(name) not in durable:
            with open(os.path.join(d, name), "rb") as f:
                if f.read() != payload(int(name)):
                    wrong.append(int(name))
                else:
                    extra_ok += 1
    kept = sum(1 for s in durable.values() if s == "+")
    if missing or wrong or undead:
        print(f"FAIL {len(missing)} fsynced files missing {missing[:5]}, {len(wrong)} damaged "
              f"{wrong[:5]}, {len(undead)} unlinked files back {undead[:5]} (of {kept} durable)")
        return 1
    print(f"ok {kept} fsynced files whole, {len(durable) - kept} unlinks held, "
          f"{extra_ok} more under their final names (not yet known durable) also whole")
    return 0


def progress_in_log(path, lba, cuts):
    """For each K of CUTS, the durable steps the last progress write among
    the write log's first K entries says (0 when none): what a crash state
    cut after K entries must hold. The log is dm-log-writes' format
    (docs/crash-consistency.md, "The write log"): a super block, then per
    entry a block with sector, blocks, flags and data length (u64 each,
    little-endian), a write's data in the blocks after it."""
    with open(path, "rb") as f:
        raw = f.read()
    magic, _, count, bs = struct.unpack_from("<QQQI", raw, 0)
    if magic != 0x6A736677736872:
        raise SystemExit(f"progress-in-log: {path}: not a write log")
    seen, at, entry = [0], bs, 0
    while entry < count and at + bs <= len(raw):
        sector, blocks, flags, _ = struct.unpack_from("<QQQQ", raw, at)
        at += bs
        last = seen[-1]
        if flags & (1 | 4 | 8) == 0:  # a write
            if sector <= lba < sector + blocks:
                block = raw[at + (lba - sector) * bs:at + (lba - sector + 1) * bs]
                if block.startswith(PROGRESS_TAG):
                    last = int(block[len(PROGRESS_TAG):].split(b"\n")[0])
            at += blocks * bs
        seen.append(last)
        entry += 1
    for k in cuts:
        print(k, seen[min(k, len(seen) - 1)])
    return 0


def open_db(path):
    db = sqlite3.connect(path, isolation_level=None, timeout=1)
    db.execute("PRAGMA journal_mode=WAL")
    db.execute("PRAGMA synchronous=FULL")
    return db


def sqlite_run(path, log, seconds):
    done = 0
    deadline = time.monotonic() + seconds
    with open(log, "a") as out:
        try:
            db = open_db(path)
            db.execute("CREATE TABLE IF NOT EXISTS r (i INTEGER PRIMARY KEY, v BLOB)")
            # A row whose COMMIT was durable but not yet logged when the
            # power went is there: the next number follows the table's.
            top = db.execute("SELECT max(i) FROM r").fetchone()[0] or 0
            i = max(next_number(read_log(log)), top + 1)
            while time.monotonic() < deadline:
                db.execute("BEGIN")
                db.execute("INSERT INTO r VALUES (?, ?)", (i, payload(i)[:4096]))
                db.execute("COMMIT")
                out.write(f"+{i}\n")
                out.flush()
                i += 1
                done += 1
        except (OSError, sqlite3.Error) as e:
            print(f"sqlite-run: stopped after {done} commits: {e}")
            return 0
    print(f"sqlite-run: {done} commits in {seconds} s without an I/O error")
    return 0


def sqlite_check(path, log):
    committed = [i for _, i in read_log(log)]
    try:
        db = open_db(path)
        check = db.execute("PRAGMA integrity_check").fetchone()[0]
        rows = dict(db.execute("SELECT i, v FROM r"))
    except sqlite3.Error as e:
        print(f"FAIL the database does not open: {e}")
        return 1
    missing = [i for i in committed if i not in rows]
    wrong = [i for i, v in rows.items() if v != payload(i)[:4096]]
    top = max(rows, default=0)
    gaps = [i for i in range(1, top + 1) if i not in rows]
    if check != "ok" or missing or wrong or gaps:
        print(f"FAIL integrity_check {check!r}, {len(missing)} committed rows missing "
              f"{missing[:5]}, {len(wrong)} damaged, {len(gaps)} gaps (of {len(committed)} committed)")
        return 1
    print(f"ok {len(committed)} committed rows whole, {top - len(committed)} more after the last "
          f"logged COMMIT, integrity_check ok")
    return 0


def main(argv):
    commands = {
        "files-run": lambda a: files_run(a[0], a[1], float(a[2]), int(a[3]) if len(a) > 3 else None,
                                         Progress(a[4], int(a[5])) if len(a) > 5 else None),
        "progress-in-log": lambda a: progress_in_log(a[0], int(a[1]), [int(k) for k in a[2:]]),
        "files-check": lambda a: files_check(a[0], a[1], int(a[2]) if len(a) > 2 else None),
        "sqlite-run": lambda a: sqlite_run(a[0], a[1], float(a[2])),
        "sqlite-check": lambda a: sqlite_check(a[0], a[1]),
    }
    if len(argv) < 2 or argv[1] not in commands:
        print(__doc__, file=sys.stderr)
        return 2
    return commands[argv[1]](argv[2:])


if __name__ == "__main__":
    sys.exit(main(sys.argv))
