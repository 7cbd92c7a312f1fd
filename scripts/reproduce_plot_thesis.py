# SPDX-License-Identifier: Apache-2.0
"""scripts/reproduce-plot's thesis figures of issue 37: Fig. 5.1 (comparison disks), Fig. 6.8
with its disk half, and §3.6's Figs. 3.6, 3.7 and 3.9.

Published values are drawn only where the thesis excerpt gives them, each named with its
table; docs/reproduction.md compares the rest with what the text says.
"""
import os

import matplotlib.pyplot as plt

from reproduce_plot_more import read_csv, save

# Thesis Table 5.1: the Überdisk's "average access time", 0.88 ms, by the caption its average
# response time under a random workload over its first 3.46 GB.
PUBLISHED_UBERDISK_ACCESS_MS = 0.88
# Thesis Table 3.1: each generation's per-tip data rate (kbit/s) - design points, not results.
TABLE_3_1_RATE_KBIT_S = {"g1": 400, "g2": 700, "g3": 1000}
DEVICE_LABELS = {"g2": "G2 MEMStore", "uberdisk": "Überdisk", "atlas10k": "Atlas 10K",
                 "cheetah4lp": "Cheetah 4LP"}


def comparison_disks(out):
    """Thesis §5.1.5, Fig. 5.1: mean response with one standard deviation as error bar."""
    rows = read_csv(os.path.join(out, "comparison-disks.csv"))
    fig, ax = plt.subplots(figsize=(8, 4.2))
    xs = range(len(rows))
    means = [float(r["mean_response_ms"]) for r in rows]
    sds = [float(r["sd_response_ms"]) for r in rows]
    bars = ax.bar(xs, means, yerr=sds, capsize=5,
                  label="memsim: mean response, error bar = one standard deviation")
    ax.bar_label(bars, fmt="%.2f ms", fontsize=8, padding=3)
    u = next(i for i, r in enumerate(rows) if r["device"] == "uberdisk")
    ax.plot([u], [PUBLISHED_UBERDISK_ACCESS_MS], "r*", markersize=12,
            label="thesis Table 5.1: Überdisk average response 0.88 ms")
    ax.set_xticks(list(xs), [DEVICE_LABELS.get(r["device"], r["device"]) for r in rows])
    ax.set_yscale("log")
    ax.set_ylabel("response time (ms, log scale)")
    ax.set_title("Random workload: 10,000 requests, exponential sizes of mean 4 KB,\n"
                 "one every 50 ms (thesis Fig. 5.1; its values are not in the excerpt)",
                 fontsize=9)
    ax.legend(loc="upper left", fontsize=8)
    save(fig, out, "comparison-disks")


def large_reads(out):
    """Thesis §6.2.2, Fig. 6.8: 256 KB reads against X (arm) seek distance, G2 and Atlas 10K."""
    rows = read_csv(os.path.join(out, "large-reads.csv"))
    devices = list(dict.fromkeys(r["device"] for r in rows))
    fig, axes = plt.subplots(1, len(devices), figsize=(6 * len(devices), 4.2))
    for ax, device in zip(axes, devices):
        mine = [r for r in rows if r["device"] == device]
        xs = [int(r["x_distance_cylinders"]) for r in mine]
        ax.scatter(xs, [float(r["service_ms"]) for r in mine], s=3, alpha=0.35,
                   label="service time, one read each")
        width = max(xs) // 20 + 1  # twenty bins of distance
        for key, label, style in (("service_ms", "mean service", "-"),
                                  ("seek_ms", "mean positioning", "--"),
                                  ("media_ms", "mean transfer + switches", ":")):
            bins = {}
            for x, r in zip(xs, mine):
                bins.setdefault(x // width, []).append(float(r[key]))
            keys = sorted(bins)
            ax.plot([(k + 0.5) * width for k in keys],
                    [sum(bins[k]) / len(bins[k]) for k in keys], style,
                    color="black" if key == "service_ms" else None, label=label)
        ax.set_xlabel("X (arm) distance between initial and final positions (cylinders)")
        ax.set_ylabel("ms")
        ax.set_ylim(0, None)
        ax.set_title(f"{DEVICE_LABELS.get(device, device)}: {len(mine)} reads of 256 KB "
                     "(Fig. 6.8)\n(no published values in the excerpt)", fontsize=9)
        ax.legend(loc="lower right", fontsize=8)
    save(fig, out, "large-reads")


def tip_rate(out):
    """Thesis §3.6, Fig. 3.6: one tip's sustained bandwidth against its data rate."""
    rows = read_csv(os.path.join(out, "tip-rate.csv"))
    fig, ax = plt.subplots(figsize=(7, 4.2))
    for device in dict.fromkeys(r["device"] for r in rows):
        pts = [(float(r["rate_kbit_s"]), float(r["sustained_kbit_s"]))
               for r in rows if r["device"] == device]
        line, = ax.plot(*zip(*pts), marker=".", label=device.upper())
        best = max(pts, key=lambda p: p[1])
        ax.annotate(f"max {best[1]:.0f} at {best[0]:.0f}", best, textcoords="offset points",
                    xytext=(0, 6), ha="center", fontsize=7, color=line.get_color())
        rate = TABLE_3_1_RATE_KBIT_S.get(device)
        if rate:
            ax.axvline(rate, color=line.get_color(), linestyle=":", linewidth=1)
    ax.set_xscale("log")
    ax.set_xlabel("per-tip data rate (kbit/s); dotted: Table 3.1's design points")
    ax.set_ylabel("sustained bandwidth of one tip (kbit/s)")
    ax.set_title("Sensitivity to the per-tip data rate (Fig. 3.6)\n"
                 "(no published values in the excerpt)", fontsize=9)
    ax.legend()
    save(fig, out, "tip-rate")


def seek_profile_springs(out):
    """Thesis §3.6, Fig. 3.7: seek time with spring factor 0.75 minus with 0, G2 from the corner."""
    rows = read_csv(os.path.join(out, "seek-profile-springs.csv"))
    xs = sorted({int(r["x_cylinders"]) for r in rows})
    ys = sorted({int(r["y_rows"]) for r in rows})
    grid = {(int(r["x_cylinders"]), int(r["y_rows"])): 1e3 * float(r["delta_ms"]) for r in rows}
    z = [[grid[(x, y)] for x in xs] for y in ys]
    lim = max(abs(v) for v in grid.values())
    fig, ax = plt.subplots(figsize=(7.5, 4.2))
    im = ax.pcolormesh(xs, ys, z, shading="nearest", cmap="RdBu_r", vmin=-lim, vmax=lim)
    ax.set_xlabel("X displacement from the corner (cylinders)")
    ax.set_ylabel("Y displacement (rows of 90 bits)")
    ax.set_title("G2 seek time with springs (75%) minus without, from the corner (Fig. 3.7)\n"
                 "red: the springs lengthen the seek (no published values in the excerpt)",
                 fontsize=9)
    fig.colorbar(im, ax=ax, label="delta (µs)")
    save(fig, out, "seek-profile-springs")


def turnarounds(out):
    """Thesis §3.6, Fig. 3.9: G1's turnaround time against displacement, moving +Y."""
    rows = read_csv(os.path.join(out, "turnarounds.csv"))
    xs = [float(r["displacement_um"]) for r in rows]
    fig, ax = plt.subplots(figsize=(7, 4.2))
    ax.plot(xs, [1e3 * float(r["with_springs_ms"]) for r in rows], label="springs (75%)")
    ax.plot(xs, [1e3 * float(r["without_springs_ms"]) for r in rows], "--",
            label="spring factor 0 (constant)")
    ax.set_xlabel("Y displacement from centre (µm)")
    ax.set_ylabel("turnaround time (µs)")
    ax.set_ylim(0, None)
    ax.set_title("G1 turnaround at the access velocity, moving +Y (Fig. 3.9)\n"
                 "(no published values in the excerpt)", fontsize=9)
    ax.legend()
    save(fig, out, "turnarounds")


FIGURES = {"comparison-disks": comparison_disks, "large-reads": large_reads,
           "tip-rate": tip_rate, "seek-profile-springs": seek_profile_springs,
           "turnarounds": turnarounds}
