#!/usr/bin/python3
# SPDX-License-Identifier: Apache-2.0
# One connection of the VM test's guest to a host memstored (scripts/vm-test,
# the Linux initiator case). QEMU's user network keeps restrict=on and runs
# this program, through a guestfwd rule `guestfwd=tcp:ADDR:PORT-cmd:...`, for
# every TCP connection the guest opens to ADDR:PORT; its stdin and stdout are
# that connection. It connects to HOST:PORT on the host (trying again for up
# to 10 s while it is refused) and copies bytes both ways until both
# directions have ended:
#   - the target closes (or memstored is killed): the guest's side is shut
#     for writing, so the guest sees a FIN, as from the target itself;
#   - the guest closes: the target's side is shut for writing.
# Nothing may be printed: stderr is the guest's connection too.
#
# With DOWN_FILE, the relay is one path of a multipath test: while that file
# exists the path is down, as a pulled cable would make it: a connection
# open when it appears is closed, and new ones close at once.
#
# With MEMSTORE_RELAY_LOG set in its environment (QEMU's), each connection
# appends a line to that file: when it started, whether the target took it,
# the bytes each way and which side ended first. A failed reconnection in the
# VM test is then told apart: the daemon refused, or nothing reached it.
#
# Usage: guestfwd-relay.py HOST PORT [DOWN_FILE]
import os
import selectors
import socket
import sys
import time

_started = time.time()


def log(what: str) -> None:
    path = os.environ.get("MEMSTORE_RELAY_LOG")
    if not path:
        return
    stamp = time.strftime("%H:%M:%S", time.localtime(_started)) + f".{int(_started * 1000) % 1000:03d}"
    with open(path, "a", encoding="utf-8") as f:
        f.write(f"{stamp} relay {os.getpid()} {sys.argv[1]}:{sys.argv[2]}: {what}"
                f" ({time.time() - _started:.3f} s)\n")


def main() -> int:
    host, port = sys.argv[1], int(sys.argv[2])
    down_file = sys.argv[3] if len(sys.argv) > 3 else None
    if down_file and os.path.exists(down_file):
        log("path down, closed")
        return 1
    # A daemon restarting (killed and started again by the VM test) refuses
    # for the second or so before it listens: the relay waits that out, as
    # a connect through a slow path would, instead of handing the guest a
    # refusal. Under load, iscsid once took such a refusal and then closed
    # every later connection unused until its recovery timed out.
    deadline = time.time() + 10
    refusals = 0
    while True:
        try:
            target = socket.create_connection((host, port), timeout=5)
            break
        except ConnectionRefusedError as e:
            refusals += 1
            if time.time() >= deadline:
                log(f"target refused for 10 s: {e}")
                return 1  # nothing listens: the guest's connection just closes
            time.sleep(0.2)
        except OSError as e:
            log(f"target unreachable: {e}")
            return 1
    if refusals:
        log(f"target refused {refusals} time(s) before it listened")
    target.settimeout(None)
    target.setsockopt(socket.IPPROTO_TCP, socket.TCP_NODELAY, 1)
    # fds 0 and 1 are the same socket (QEMU's end of the guest connection).
    guest = socket.socket(fileno=os.dup(0))
    sel = selectors.DefaultSelector()
    sel.register(guest, selectors.EVENT_READ, target)
    sel.register(target, selectors.EVENT_READ, guest)
    open_directions = 2
    sent = {guest: 0, target: 0}  # bytes received from each side
    ended = []
    log("connected")

    def done(why: str) -> int:
        log(f"{why}; guest sent {sent[guest]} bytes, target sent {sent[target]} bytes")
        return 0

    while open_directions:
        events = sel.select(timeout=0.5 if down_file else None)
        if down_file and os.path.exists(down_file):
            return done("path down")  # both sides close
        for key, _ in events:
            src, dst = key.fileobj, key.data
            try:
                data = src.recv(1 << 16)
            except OSError:
                data = b""  # a reset counts as the end
            if data:
                sent[src] += len(data)
                try:
                    dst.sendall(data)
                    continue
                except OSError:
                    return done("the other side is gone")  # end both
            sel.unregister(src)
            open_directions -= 1
            ended.append("guest" if src is guest else "target")
            try:
                dst.shutdown(socket.SHUT_WR)
            except OSError:
                pass
    return done("ended, first by the " + ended[0])


if __name__ == "__main__":
    sys.exit(main())
