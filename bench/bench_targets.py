# SPDX-License-Identifier: Apache-2.0
"""Starting, measuring and stopping the targets the bench/ scripts compare.

memstored and tgt run as child processes of the benchmark; each is stopped by
the pid this module started (tgtd through its control socket, since a
foreground tgtd ignores SIGTERM). CPU time and memory come from /proc.
"""
import datetime
import json
import os
import re
import resource
import shlex
import socket
import sys
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


def port(default):
    """The first port a script listens on: BENCH_PORT if set (so that runs side by side
    can keep apart), else the script's default."""
    return int(os.environ.get("BENCH_PORT", default))


def client_prefix(rt_priority=None):
    """chrt -f CLIENT_RT_PRIORITY (or rt_priority, when given) when set: SCHED_FIFO for the
    client too, so that other processes do not delay its reading of a completion."""
    prio = rt_priority or os.environ.get("CLIENT_RT_PRIORITY")
    return ["chrt", "-f", str(prio)] if prio else []


def wait_port(port, proc, log_path, timeout=10.0):
    """Waits until proc listens on port; fails at once if proc has exited (a bad argument,
    a port in use), with the status and where its output went."""
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        if proc.poll() is not None:
            raise RuntimeError(f"{proc.args[0]} exited with status {proc.returncode} before "
                               f"listening on 127.0.0.1:{port} (its log: {log_path or 'none'})")
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


def children_cpu_seconds():
    """User + system CPU time of this process's children that have exited and been waited
    for: around one subprocess.run, that child's CPU time."""
    r = resource.getrusage(resource.RUSAGE_CHILDREN)
    return r.ru_utime + r.ru_stime


def memory_kib(pid):
    """VmRSS and VmHWM (peak RSS) of a process, in KiB."""
    out = {}
    with open(f"/proc/{pid}/status") as f:
        for line in f:
            m = re.match(r"(VmRSS|VmHWM):\s+(\d+) kB", line)
            if m:
                out[m.group(1)] = int(m.group(2))
    return out


MEMSTORED_IQN = "iqn.2026-11.org.memstore:g2"  # memstored's default target name


class Memstored:
    """memstored serving one G2 LUN on 127.0.0.1:port; or, given config (a TOML file from
    write_config), that file's LUNs."""

    def __init__(self, port, backing=None, timing="off", extra=(), log_path=None, config=None):
        self.port = port
        self.iqn = MEMSTORED_IQN
        self.lun = 0
        self.url = self.url_for(self.lun)
        lun = ["--config", config] if config else ["--backing", backing, "--timing", timing]
        args = [os.path.join(build_dir(), "target/daemon/memstored"),
                "--listen", f"127.0.0.1:{port}", *lun, "--log-level", "warn", *extra]
        self.log = open(log_path or os.devnull, "w")
        self.proc = subprocess.Popen(args, stdout=self.log, stderr=subprocess.STDOUT)
        wait_port(port, self.proc, log_path)

    def url_for(self, lun):
        return f"iscsi://127.0.0.1:{self.port}/{self.iqn}/{lun}"

    @property
    def pid(self):
        return self.proc.pid

    def stop(self, discard=False):
        """SIGTERM: memstored flushes its LUN and exits. discard=True: the backing is thrown
        away next, so SIGKILL skips that flush; writing back blocks only to free them costs
        seconds per thousand scattered blocks on a file system mounted with discard."""
        if discard:
            self.proc.kill()
        else:
            self.proc.terminate()
        self.proc.wait(timeout=30)
        self.log.close()


def target_name(index):
    """The name of target `index` in a write_config(..., one_target_per_lun=True) file."""
    return f"{MEMSTORED_IQN}-{index}"


def write_config(path, backings, threads, timing="realtime", one_target_per_lun=False,
                 durability=None):
    """A memstored TOML configuration: one target (memstored's default name) with a G2 LUN
    per backing (an image path or "memory"), LUN ids 0, 1, ... in order, and `threads`
    event-loop threads (0: one per core); or, with one_target_per_lun, one target per backing
    (target_name(i)), each with its LUN 0. `durability` ("volatile", ...) is every LUN's when
    given. memstored's --listen gives the portal."""
    lines = ["[daemon]", f"threads = {int(threads)}"]
    for i, backing in enumerate(backings):
        if i == 0 or one_target_per_lun:
            name = target_name(i) if one_target_per_lun else MEMSTORED_IQN
            lines += ["", "[[target]]", f"name = {json.dumps(name)}"]
        lines += ["", "[[target.lun]]", f"id = {0 if one_target_per_lun else i}", 'device = "g2"',
                  f"backing = {json.dumps(backing)}", f"timing = {json.dumps(timing)}"]
        if durability:
            lines.append(f"durability = {json.dumps(durability)}")
    with open(path, "w") as f:
        f.write("\n".join(lines) + "\n")


class Tgt:
    """tgtd (Debian's tgt) with one rdwr LUN on an image file; needs root."""

    def __init__(self, port, image, size_bytes, log_path=None):
        self.port = port
        self.iqn = "iqn.2026-11.org.memstore.bench:tgt"
        self.lun = 1  # LUN 0 is tgt's controller
        self.url = f"iscsi://127.0.0.1:{port}/{self.iqn}/{self.lun}"
        if not os.path.exists(image):
            with open(image, "wb") as f:
                f.truncate(size_bytes)
        # The management socket is named after the portal's port, so that a tgtd
        # started by another run on another port is not the one configured here.
        self.control = ["--control-port", str(port)]
        self.log = open(log_path or os.devnull, "w")
        self.proc = subprocess.Popen(["tgtd", "-f", *self.control,
                                      "--iscsi", f"portal=127.0.0.1:{port}"],
                                     stdout=self.log, stderr=subprocess.STDOUT)
        try:
            wait_port(port, self.proc, log_path)
            self._configure(image)
        except BaseException:
            self.stop()  # a tgtd left running would hold the port and the image
            raise

    def _configure(self, image):
        adm = ["tgtadm", *self.control, "--lld", "iscsi"]
        subprocess.run(adm + ["--op", "new", "--mode", "target", "--tid", "1", "-T", self.iqn],
                       check=True)
        subprocess.run(adm + ["--op", "new", "--mode", "logicalunit", "--tid", "1", "--lun",
                              str(self.lun), "--bstype", "rdwr", "-b", image], check=True)
        subprocess.run(adm + ["--op", "bind", "--mode", "target", "--tid", "1", "-I", "ALL"],
                       check=True)

    @property
    def pid(self):
        return self.proc.pid

    def stop(self, discard=False):
        # tgtd closes its image without a flush either way (discard is for symmetry with
        # Memstored.stop). It refuses to shut down while a target exists.
        subprocess.run(["tgtadm", *self.control, "--lld", "iscsi", "--op", "delete",
                        "--mode", "target", "--tid", "1", "--force"], capture_output=True)
        r = subprocess.run(["tgtadm", *self.control, "--op", "delete", "--mode", "system"],
                           capture_output=True)
        try:
            self.proc.wait(timeout=10)
        except subprocess.TimeoutExpired:
            self.proc.kill()
            self.proc.wait()
        if r.returncode != 0 and self.proc.returncode not in (0, -9):
            raise RuntimeError("tgtd did not shut down")
        self.log.close()


def iscsi_load_cmd(url, *args, csv=None, rt_priority=None):
    """The command line of bench/iscsi-load with a JSON summary (under chrt -f rt_priority,
    else CLIENT_RT_PRIORITY, when either is set)."""
    # ISCSI_LOAD: one client for runs that compare two builds (bench/throughput-ab).
    client = os.environ.get("ISCSI_LOAD", os.path.join(build_dir(), "bench/iscsi-load"))
    cmd = [*client_prefix(rt_priority), client, "--json", *map(str, args)]
    if csv:
        cmd += ["--csv", csv]
    cmd.append(url)
    return cmd


def iscsi_load(url, *args, csv=None, rt_priority=None):
    """Runs bench/iscsi-load; returns its JSON summary."""
    cmd = iscsi_load_cmd(url, *args, csv=csv, rt_priority=rt_priority)
    r = subprocess.run(cmd, capture_output=True, text=True)
    if r.returncode != 0:
        raise RuntimeError(f"{' '.join(cmd)} failed: {r.stderr.strip()}")
    return json.loads(r.stdout)


def qemu_img_bench(image_opts, *args):
    """Runs qemu-img bench on an image given as --image-opts; returns the seconds it
    reports for the run (its clock starts once the image is open, after the login)."""
    cmd = [*client_prefix(), "qemu-img", "bench", *map(str, args), "--image-opts", image_opts]
    r = subprocess.run(cmd, capture_output=True, text=True)
    m = re.search(r"Run completed in ([0-9.]+) seconds", r.stdout)
    if r.returncode != 0 or not m:
        raise RuntimeError(f"{' '.join(cmd)} failed: {(r.stderr or r.stdout).strip()}")
    return float(m.group(1))


def machine():
    """One line on the CPUs, the kernel and the load, for the record of a run."""
    model = ""
    with open("/proc/cpuinfo") as f:
        for line in f:
            if line.startswith("model name"):
                model = line.split(":", 1)[1].strip()
                break
    return (f"{os.cpu_count()} CPUs ({model}), kernel {os.uname().release}, "
            f"load average {load_average()}")


def load_average():
    """The 1, 5 and 15 minute load averages, as /proc/loadavg gives them."""
    with open("/proc/loadavg") as f:
        return " ".join(f.read().split()[:3])


def steal_seconds():
    """CPU time the host took from this virtual machine's CPUs (the steal field of
    /proc/stat, summed over the CPUs), in seconds; 0 on bare metal. A vCPU that the
    host stops delays whatever runs on it, real-time threads included (bench/vm-stalls)."""
    with open("/proc/stat") as f:
        fields = f.readline().split()
    return int(fields[8]) / CLK_TCK if len(fields) > 8 else 0.0


class StealMeter:
    """The host's steal time (steal_seconds) from its creation on, in ms per second of wall
    time, summed over the CPUs."""

    def __init__(self):
        self.start, self.t0 = steal_seconds(), time.monotonic()

    def ms_per_s(self):
        return (steal_seconds() - self.start) * 1e3 / (time.monotonic() - self.t0)


def date_now():
    """The local date and time, for the record of a run."""
    return datetime.datetime.now().astimezone().isoformat(timespec="seconds")


def command_line(env_keys):
    """The command as it was given, with those of env_keys set in the environment."""
    env = [f"{k}={shlex.quote(os.environ[k])}" for k in env_keys if k in os.environ]
    return " ".join(env + [shlex.quote(a) for a in sys.argv])


def percentiles(values):
    """count, p50, p99, p99.9 and max of values, each percentile taken as the value at rank
    floor(p × count) of the sorted values, as bench/timing-report takes them."""
    v = sorted(values)
    at = lambda p: float(v[min(len(v) - 1, int(p / 100.0 * len(v)))]) if v else 0.0
    return {"count": len(v), "p50": at(50), "p99": at(99), "p99.9": at(99.9),
            "max": float(v[-1]) if v else 0.0}


def lateness_by_lun(completion_log, by_target=False):
    """How late each delivery in memstored's --completion-log was, in µs, per LUN id (with
    by_target: per (target name, LUN id))."""
    late = {}
    with open(completion_log) as f:
        columns = f.readline().rstrip("\n").split(",")
        target, lun = columns.index("target"), columns.index("lun")
        late_ns = columns.index("late_ns")
        for line in f:
            fields = line.split(",")
            key = (fields[target], int(fields[lun])) if by_target else int(fields[lun])
            late.setdefault(key, []).append(int(fields[late_ns]) / 1e3)
    return late


def timing_report(completion_log, client_csv):
    """bench/timing-report's JSON on one client's commands: target-side lateness and
    client latency against the model, joined on the task tag."""
    r = subprocess.run([os.path.join(repo_root(), "bench/timing-report"), completion_log,
                        client_csv, "--json"], capture_output=True, text=True)
    if not r.stdout:
        raise RuntimeError(f"bench/timing-report failed: {r.stderr.strip()}")
    return json.loads(r.stdout)
