# SPDX-License-Identifier: Apache-2.0
"""cyclictest beside memstored: the machine's own lateness, as the realtime benchmarks'
yardstick.

On a virtual machine whose host stops its vCPUs for milliseconds, memstored's lateness
tail says more about the host than about memstored. cyclictest (Debian's rt-tests) wakes
a thread on a timer and records how late it ran: the lateness any timer-driven thread
gets on those CPUs at that priority. bench/timing-fidelity, bench/isolation and
bench/lun-scale run it beside memstored (the same CPUs, the same scheduling, for the
same span of time) and report memstored's excess over it at p50, p99 and p99.9, and a
short run of it alone, before the round's points, as the probe's own view of the machine.

As a command, it reads one completion log for the section of docs/benchmarks.md that
compares the two:  python3 bench/rtprobe.py bursts COMPLETIONS.csv [THRESHOLD_US]
groups the deliveries later than THRESHOLD_US (default 200) into bursts (each delivered
within THRESHOLD_US of the previous late one: one stall of the loop's CPU), and gives each
burst's size, worst lateness and end modulo 100 ms, and p99.9 with each burst counted
once, as cyclictest counts a stall.

Environment (shared by the three scripts):
  PROBE_INTERVAL_US  cyclictest's wake-up interval (default 1000)
  PROBE_ALONE_S      seconds of cyclictest alone per round (default 2; 0: none)
  ROUNDS             rounds over all of a script's points, in turn (default 1)
"""
import os
import shutil
import signal
import statistics
import subprocess
import time

# Beside this file: the scripts put bench/ on sys.path, and Python does when this is run.
import bench_targets as bt

# The goal of issue 42: memstored's lateness at most this far above cyclictest's, in µs,
# in the same run, and never early.
GOAL_EXCESS_US = {"p99": 5.0, "p99.9": 20.0}
# cyclictest's histogram has one bucket per µs up to this; later wake-ups are counted as
# overflows only, and a percentile that falls among them is reported as "> this", not
# guessed. 50 ms keeps each histogram file near 1 MB and the percentiles up to p99.9 in
# range in these runs (the longest stalls are tens of ms, and rare).
HISTOGRAM_MAX_US = 50000
PERCENTILES = ("p50", "p99", "p99.9")
ENV_KEYS = ("PROBE_INTERVAL_US", "PROBE_ALONE_S", "ROUNDS")


def rounds():
    n = int(os.environ.get("ROUNDS", "1"))
    if n < 1:
        raise SystemExit("ROUNDS: give 1 or more")
    return n


def require():
    """The path of cyclictest; exits with what to install when it is missing."""
    exe = shutil.which("cyclictest")
    if not exe:
        raise SystemExit("cyclictest not found: the realtime benchmarks run it beside memstored "
                         "as the machine's own lateness (install rt-tests: "
                         "scripts/install-deps bench)")
    return exe


def parse_cpu_list(text):
    """The CPUs of a list such as "0-2,5" (/proc's Cpus_allowed_list)."""
    cpus = set()
    for part in text.strip().split(","):
        if not part:
            continue
        lo, _, hi = part.partition("-")
        cpus.update(range(int(lo), int(hi or lo) + 1))
    return sorted(cpus)


def cpus_of(pid):
    """Every CPU some thread of pid may run on (the union of their affinities): memstored
    pins some threads (--awake-cpus), and the probe must cover each CPU any of them uses."""
    cpus = set()
    for tid in os.listdir(f"/proc/{pid}/task"):
        try:
            with open(f"/proc/{pid}/task/{tid}/status") as f:
                for line in f:
                    if line.startswith("Cpus_allowed_list:"):
                        cpus.update(parse_cpu_list(line.split(":", 1)[1]))
        except FileNotFoundError:
            continue  # a thread that ended meanwhile
    return sorted(cpus)


def own_cpus():
    """The CPUs a memstored started now would inherit: where the alone phase runs."""
    return sorted(os.sched_getaffinity(0))


def rt_priority():
    """memstored's --rt-priority as the scripts set it (RT_PRIORITY), or None."""
    p = os.environ.get("RT_PRIORITY")
    return int(p) if p else None


def cyclictest_cmd(exe, cpus, priority, histfile, interval_us, duration_s=None):
    """One measuring thread per CPU of cpus, each pinned to its CPU, at SCHED_FIFO priority
    (all threads alike: --histogram gives every thread the same priority) or, with priority
    None, at normal scheduling, as memstored without --rt-priority."""
    sched = (["--policy=fifo", f"--priority={priority}"] if priority
             else ["--policy=other", "--priority=0"])
    cmd = [exe, "--quiet", "--mlockall",
           # --laptop: cyclictest leaves /dev/cpu_dma_latency alone. Holding it at 0 would
           # change the CPUs' idle states for memstored too, and what is measured here is
           # the machine memstored has, not a tuned one.
           "--laptop",
           f"--affinity={','.join(map(str, cpus))}", f"--threads={len(cpus)}",
           f"--interval={int(interval_us)}", *sched,
           f"--histogram={HISTOGRAM_MAX_US}", f"--histfile={histfile}"]
    if duration_s:
        cmd.append(f"--duration={max(1, round(duration_s))}")
    return cmd


def parse_histogram(text):
    """cyclictest's --histfile: lines "BUCKET COUNT COUNT ..." (one count per thread, the
    bucket in µs) and comment lines, of which "# Histogram Overflows:" (wake-ups later than
    the histogram) and "# Max Latencies:" are read. Returns {"buckets": {µs: count} summed
    over the threads, "overflows": n, "max": µs}."""
    buckets, overflows, max_us = {}, 0, 0
    for line in text.splitlines():
        line = line.strip()
        if not line:
            continue
        if line.startswith("#"):
            key, _, values = line[1:].partition(":")
            numbers = [int(v) for v in values.split() if v.isdigit()]
            if key.strip() == "Histogram Overflows":
                overflows = sum(numbers)
            elif key.strip() == "Max Latencies":
                max_us = max(numbers, default=0)
            continue
        fields = line.split()
        try:
            bucket, counts = int(fields[0]), [int(c) for c in fields[1:]]
        except ValueError:
            raise ValueError(f"cyclictest histogram: unexpected line {line!r}") from None
        if not counts:
            raise ValueError(f"cyclictest histogram: a bucket without counts: {line!r}")
        if sum(counts):
            buckets[bucket] = buckets.get(bucket, 0) + sum(counts)
    if not buckets and not overflows:
        raise ValueError("cyclictest histogram: no samples (did it run?)")
    return {"buckets": buckets, "overflows": overflows, "max": max_us}


def histogram_percentiles(hist):
    """count, p50, p99, p99.9 and max in µs of a parse_histogram result, each percentile
    the value at rank floor(p × count), as bench_targets.percentiles takes them. A bucket
    holds the wake-ups late by [bucket, bucket + 1) µs, so a percentile is its lower edge.
    A rank among the overflows gives None: later than HISTOGRAM_MAX_US, no more known."""
    in_range = sum(hist["buckets"].values())
    count = in_range + hist["overflows"]
    out = {"count": count, "overflows": hist["overflows"], "max": float(hist["max"])}
    order = sorted(hist["buckets"].items())
    for name in PERCENTILES:
        rank = min(count - 1, int(float(name[1:]) / 100.0 * count))
        out[name] = None
        seen = 0
        for bucket, n in order:
            seen += n
            if seen > rank:
                out[name] = float(bucket)
                break
    return out


class Probe:
    """cyclictest running beside memstored, from its creation to stop()."""

    def __init__(self, cpus, priority, histfile, duration_s=None):
        self.cpus, self.priority, self.histfile = cpus, priority, histfile
        interval = int(os.environ.get("PROBE_INTERVAL_US", "1000"))
        self.cmd = cyclictest_cmd(require(), cpus, priority, histfile, interval, duration_s)
        if os.path.exists(histfile):
            os.remove(histfile)
        self.err = open(histfile + ".log", "w")
        self.proc = subprocess.Popen(self.cmd, stdout=self.err, stderr=subprocess.STDOUT)
        # cyclictest fails at once on a bad argument or a refused priority: say so now,
        # not after the measured run.
        time.sleep(0.05)
        if self.proc.poll() not in (None, 0):
            self.err.close()
            raise RuntimeError(f"cyclictest exited with status {self.proc.returncode}: "
                               f"{open(histfile + '.log').read().strip()}")

    def stop(self):
        """SIGINT (cyclictest writes its histogram as it ends); the percentiles."""
        if self.proc.poll() is None:
            self.proc.send_signal(signal.SIGINT)
        self.proc.wait(timeout=30)
        self.err.close()
        if self.proc.returncode != 0 or not os.path.exists(self.histfile):
            raise RuntimeError(f"cyclictest failed (status {self.proc.returncode}; "
                               f"its output: {self.histfile}.log)")
        with open(self.histfile) as f:
            return histogram_percentiles(parse_histogram(f.read()))

    def kill(self):
        """After a failure: stops cyclictest if it still runs."""
        if self.proc.poll() is None:
            self.proc.kill()
            self.proc.wait()
        self.err.close()


def alone(histfile, priority=None, cpus=None):
    """cyclictest with nothing of the benchmark running, PROBE_ALONE_S seconds on the CPUs
    memstored would get; None when PROBE_ALONE_S is 0."""
    seconds = float(os.environ.get("PROBE_ALONE_S", "2"))
    if seconds <= 0:
        return None
    p = Probe(cpus or own_cpus(), priority, histfile, duration_s=seconds)
    p.proc.wait(timeout=seconds + 30)
    return p.stop()


def excess(memstored, probe):
    """memstored's lateness minus cyclictest's, per percentile (None where cyclictest's is
    past its histogram)."""
    return {k: (memstored[k] - probe[k] if probe.get(k) is not None else None)
            for k in PERCENTILES}


def point(label, round_no, memstored_late, early, probe, steal, load_start, command=""):
    """One point of one round, as the comparison table takes it."""
    return {"point": label, "round": round_no, "memstored": memstored_late,
            "early": early, "probe": probe, "excess": excess(memstored_late, probe),
            "steal_ms_per_s": steal, "load_average_start": load_start}


def spread(values):
    """median (min–max) of the values, "—" when none; None (a probe percentile past its
    histogram) reads as "> HISTOGRAM_MAX_US"."""
    if any(v is None for v in values):
        return f"> {HISTOGRAM_MAX_US}"
    if not values:
        return "—"
    med = statistics.median(values)
    if len(values) == 1:
        return f"{med:.1f}"
    return f"{med:.1f} ({min(values):.1f} … {max(values):.1f})"


def triple(rows, side):
    return " / ".join(spread([r[side][k] for r in rows]) for k in PERCENTILES)


def verdict(rows):
    """The goal is per run: met when every round's excess is within GOAL_EXCESS_US and no
    delivery was early; else in how many rounds it was missed, and by how much the median
    excess is over each bound it exceeds."""
    if any(r["early"] for r in rows):
        return "**missed** (early)"
    if any(r["excess"][k] is None for r in rows for k in GOAL_EXCESS_US):
        return "— (probe overflowed)"
    ok = sum(all(r["excess"][k] <= bound for k, bound in GOAL_EXCESS_US.items()) for r in rows)
    if ok == len(rows):
        return f"met ({ok}/{len(rows)})"
    over = []
    for k, bound in GOAL_EXCESS_US.items():
        med = statistics.median(r["excess"][k] for r in rows)
        if med > bound:
            over.append(f"{k} by {med - bound:.1f} µs")
    text = f"**missed** in {len(rows) - ok}/{len(rows)}"
    return text + (" (median: " + ", ".join(over) + ")" if over else "")


def table(points):
    """Per point (in first-seen order): memstored's and cyclictest's p50 / p99 / p99.9, the
    excess, each as median (min–max) over the rounds; each round's steal and load average
    at its start; early deliveries; the goal."""
    order, by = [], {}
    for p in points:
        if p["point"] not in by:
            order.append(p["point"])
            by[p["point"]] = []
        by[p["point"]].append(p)
    lines = ["| point | rounds | memstored late µs: p50 / p99 / p99.9 | cyclictest µs: p50 / p99 / "
             "p99.9 | excess µs: p50 / p99 / p99.9 | early | steal ms/s per round | "
             "load avg at start per round | p99 ≤ +5, p99.9 ≤ +20 µs |",
             "|---|---|---|---|---|---|---|---|---|"]
    for label in order:
        rows = by[label]
        steal = ", ".join(f"{r['steal_ms_per_s']:.0f}" for r in rows)
        load = ", ".join(r["load_average_start"].split()[0] for r in rows)
        lines.append(f"| {label} | {len(rows)} | {triple(rows, 'memstored')} | "
                     f"{triple(rows, 'probe')} | {triple(rows, 'excess')} | "
                     f"{sum(r['early'] for r in rows)} | {steal} | {load} | {verdict(rows)} |")
    return lines


def alone_table(alones):
    """The probe alone, per round: p50 / p99 / p99.9 / max and its steal."""
    lines = ["| round | cyclictest alone µs: p50 / p99 / p99.9 / max | wake-ups | "
             "steal ms/s | load avg at start |", "|---|---|---|---|---|"]
    for a in alones:
        p = a["probe"]
        vals = " / ".join("—" if p[k] is None else f"{p[k]:.0f}" for k in PERCENTILES)
        lines.append(f"| {a['round']} | {vals} / {p['max']:.0f} | {p['count']} | "
                     f"{a['steal_ms_per_s']:.0f} | {a['load_average_start'].split()[0]} |")
    return lines


def measure_alone(out, round_no, priority=None):
    """The round's alone phase, as a record for alone_table (None when PROBE_ALONE_S=0)."""
    load = bt.load_average()
    stolen = bt.StealMeter()
    p = alone(os.path.join(out, f"round{round_no}.cyclictest-alone.hist"), priority)
    if p is None:
        return None
    return {"round": round_no, "probe": p, "steal_ms_per_s": stolen.ms_per_s(),
            "load_average_start": load}


def describe(priority):
    """One line for a report: how cyclictest ran."""
    sched = f"SCHED_FIFO {priority}" if priority else "normal scheduling (SCHED_OTHER)"
    interval = int(os.environ.get("PROBE_INTERVAL_US", "1000"))
    return (f"- cyclictest beside memstored: one thread per CPU memstored may run on, {sched} "
            f"as memstored, waking every {interval} µs, from the start of the measured "
            f"clients to their end; its histogram has 1 µs buckets (a percentile is its "
            f"bucket's lower edge), memstored's lateness is delivered − due from its "
            f"completion log. cyclictest skips the periods it missed, so a stall of the CPU "
            f"gives each of its threads one late sample, where memstored delivers every "
            f"command due in it late. Goal: memstored's p99 ≤ cyclictest's + 5 µs, p99.9 ≤ "
            f"+ 20 µs in every round, never early")


def bursts(deliveries, threshold_ns=200_000):
    """deliveries: (delivered_ns, late_ns) pairs. The late ones (over threshold_ns) grouped in
    delivery order into bursts, a burst ending where the next late delivery comes more than
    threshold_ns after the previous one: the commands one stall held back, delivered as it
    ended."""
    out = []
    for delivered, late in sorted(d for d in deliveries if d[1] > threshold_ns):
        if out and delivered - out[-1][-1][0] <= threshold_ns:
            out[-1].append((delivered, late))
        else:
            out.append([(delivered, late)])
    return out


def once_per_burst(deliveries, threshold_ns=200_000):
    """Lateness in µs with each burst counted once, by its worst delivery: the sampling of a
    periodic probe that skips the periods a stall made it miss."""
    values = [late for _, late in deliveries if late <= threshold_ns]
    values += [max(late for _, late in b) for b in bursts(deliveries, threshold_ns)]
    return [v / 1e3 for v in values]


def read_deliveries(completion_log):
    """(delivered_ns, late_ns) of every delivery in memstored's --completion-log."""
    with open(completion_log) as f:
        columns = f.readline().rstrip("\n").split(",")
        delivered, late = columns.index("delivered_ns"), columns.index("late_ns")
        return [(int(x[delivered]), int(x[late])) for x in (line.split(",") for line in f)]


def main(argv):
    if len(argv) not in (3, 4) or argv[1] != "bursts":
        raise SystemExit("usage: python3 bench/rtprobe.py bursts COMPLETIONS.csv [THRESHOLD_US]")
    threshold = int(float(argv[3]) * 1e3) if len(argv) == 4 else 200_000
    d = read_deliveries(argv[2])
    groups = bursts(d, threshold)
    print(f"{len(d)} deliveries, {sum(map(len, groups))} later than {threshold / 1e3:g} µs, "
          f"in {len(groups)} bursts")
    for b in groups:
        print(f"  ends at {b[-1][0] / 1e9:.3f} s ({b[-1][0] % 100_000_000 / 1e6:.1f} ms mod "
              f"100 ms): {len(b)} deliveries, worst {max(x for _, x in b) / 1e3:.0f} µs")
    every = bt.percentiles([x / 1e3 for _, x in d])["p99.9"]
    once = bt.percentiles(once_per_burst(d, threshold))["p99.9"]
    print(f"p99.9: {every:.1f} µs over every delivery, {once:.1f} µs with each burst once")


if __name__ == "__main__":
    import sys
    main(sys.argv)
