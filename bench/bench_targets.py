"""Starting, measuring and stopping the targets the bench/ scripts compare.

memstored and tgt run as child processes of the benchmark; each is stopped by
the pid this module started (tgtd through its control socket, since a
foreground tgtd ignores SIGTERM). CPU time and memory come from /proc.
"""
import json
import os
import re
import socket
import subprocess
import time

CLK_TCK = os.sysconf("SC_CLK_TCK")


def repo_root():
    return os.path.dirname(os.path.dirname(os.path.abspath(__file__)))


def build_dir():
    return os.environ.get("MEMSTORE_BUILD_DIR", os.path.join(repo_root(), "build"))


def ensure_built():
    """Builds memstored and iscsi-load with scripts/build (a no-op when up to date),
    unless NO_BUILD=1."""
    if os.environ.get("NO_BUILD") == "1":
        return
    subprocess.run([os.path.join(repo_root(), "scripts/build")], check=True,
                   stdout=subprocess.DEVNULL)


def wait_port(port, timeout=10.0):
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        try:
            with socket.create_connection(("127.0.0.1", port), timeout=0.2):
                return
        except OSError:
            time.sleep(0.05)
    raise RuntimeError(f"nothing listens on 127.0.0.1:{port} after {timeout} s")


def cpu_seconds(pid):
    """User + system CPU time of a process and all its threads, in seconds."""
    with open(f"/proc/{pid}/stat") as f:
        fields = f.read().rsplit(")", 1)[1].split()
    # Fields 14 and 15 of proc(5) (utime, stime), counted after the ")".
    return (int(fields[11]) + int(fields[12])) / CLK_TCK


def memory_kib(pid):
    """VmRSS and VmHWM (peak RSS) of a process, in KiB."""
    out = {}
    with open(f"/proc/{pid}/status") as f:
        for line in f:
            m = re.match(r"(VmRSS|VmHWM):\s+(\d+) kB", line)
            if m:
                out[m.group(1)] = int(m.group(2))
    return out


class Memstored:
    """memstored serving one G2 LUN on 127.0.0.1:port."""

    def __init__(self, port, backing, timing="off", extra=(), log_path=None):
        self.port = port
        self.url = f"iscsi://127.0.0.1:{port}/iqn.2026-11.org.memstore:g2/0"
        args = [os.path.join(build_dir(), "target/daemon/memstored"),
                "--listen", f"127.0.0.1:{port}", "--backing", backing,
                "--timing", timing, "--log-level", "warn", *extra]
        self.log = open(log_path or os.devnull, "w")
        self.proc = subprocess.Popen(args, stdout=self.log, stderr=subprocess.STDOUT)
        wait_port(port)

    @property
    def pid(self):
        return self.proc.pid

    def stop(self):
        self.proc.terminate()
        self.proc.wait(timeout=30)
        self.log.close()


class Tgt:
    """tgtd (Debian's tgt) with one rdwr LUN on an image file; needs root."""

    def __init__(self, port, image, size_bytes, log_path=None):
        self.port = port
        self.iqn = "iqn.2026-11.org.memstore.bench:tgt"
        self.url = f"iscsi://127.0.0.1:{port}/{self.iqn}/1"
        if not os.path.exists(image):
            with open(image, "wb") as f:
                f.truncate(size_bytes)
        self.log = open(log_path or os.devnull, "w")
        self.proc = subprocess.Popen(["tgtd", "-f", "--iscsi", f"portal=127.0.0.1:{port}"],
                                     stdout=self.log, stderr=subprocess.STDOUT)
        wait_port(port)
        adm = ["tgtadm", "--lld", "iscsi"]
        subprocess.run(adm + ["--op", "new", "--mode", "target", "--tid", "1", "-T", self.iqn],
                       check=True)
        subprocess.run(adm + ["--op", "new", "--mode", "logicalunit", "--tid", "1", "--lun", "1",
                              "--bstype", "rdwr", "-b", image], check=True)
        subprocess.run(adm + ["--op", "bind", "--mode", "target", "--tid", "1", "-I", "ALL"],
                       check=True)

    @property
    def pid(self):
        return self.proc.pid

    def stop(self):
        # tgtd refuses to shut down while a target exists.
        subprocess.run(["tgtadm", "--lld", "iscsi", "--op", "delete", "--mode", "target",
                        "--tid", "1", "--force"], capture_output=True)
        r = subprocess.run(["tgtadm", "--op", "delete", "--mode", "system"], capture_output=True)
        try:
            self.proc.wait(timeout=10)
        except subprocess.TimeoutExpired:
            self.proc.kill()
            self.proc.wait()
        if r.returncode != 0 and self.proc.returncode not in (0, -9):
            raise RuntimeError("tgtd did not shut down")
        self.log.close()


def iscsi_load(url, *args, csv=None):
    """Runs bench/iscsi-load; returns its JSON summary."""
    cmd = [os.path.join(build_dir(), "bench/iscsi-load"), "--json", *map(str, args)]
    if os.environ.get("CLIENT_RT_PRIORITY"):
        # SCHED_FIFO for the client too, so that other processes do not
        # delay its reading of a completion.
        cmd = ["chrt", "-f", os.environ["CLIENT_RT_PRIORITY"], *cmd]
    if csv:
        cmd += ["--csv", csv]
    cmd.append(url)
    r = subprocess.run(cmd, capture_output=True, text=True)
    if r.returncode != 0:
        raise RuntimeError(f"{' '.join(cmd)} failed: {r.stderr.strip()}")
    return json.loads(r.stdout)


def machine():
    """One line on the CPU and the load, for the record of a run."""
    model = ""
    with open("/proc/cpuinfo") as f:
        for line in f:
            if line.startswith("model name"):
                model = line.split(":", 1)[1].strip()
                break
    with open("/proc/loadavg") as f:
        load = " ".join(f.read().split()[:3])
    return f"{os.cpu_count()} CPUs ({model}), load average {load}"
