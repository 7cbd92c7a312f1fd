# SPDX-License-Identifier: Apache-2.0
"""scripts/reproduce-plot's figures of the power paper (ACM ToS 2005, seed 002): its Fig. 4
(seek-time equivalence regions), Figs. 7-9's throughput comparison of ZSPTF, Fig. 10 (where
the energy goes) and Figs. 11-12 (the power strategies), all on its Table I device (tos05).

The excerpt of the paper gives one number these figures can be drawn against: Fig. 4's
equivalence regions are "rectangular with an x:y size ratio of on average about 1:10"
(§4). Every other figure's results are cut from the excerpt, so nothing else published is
drawn; docs/reproduction.md compares what the text says with the curves.
"""
import csv
import os

import matplotlib.pyplot as plt

from reproduce_plot_more import read_csv, save

# §4, Fig. 4: "the seek time equivalence regions are rectangular with an x:y size ratio of
# on average about 1:10".
PUBLISHED_FIG4_X_TO_Y = 1.0 / 10.0
# Table I: "Bits per tip region (M x N) 2500 x 2500", so the centre is 1250 bits from each
# edge. The profile's Y unit is a row of 90 bits (10 servo + 80 data, §5.2.3).
ROW_BITS = 90
# Seek-time levels whose regions Fig. 4's ratio is measured on (ms): §4.2.2's in-zone seek
# time thresholds, 0.3 and 0.4 ms, and one between (docs/reproduction.md names the choice).
FIG4_LEVELS_MS = (0.30, 0.35, 0.40)
STATES = ("inactive", "idle", "seek", "access", "startup")


def write_rows(out, name, header, rows):
    with open(os.path.join(out, name), "w", newline="") as f:
        w = csv.writer(f)
        w.writerow(header)
        w.writerows(rows)


def region_extent(rows, level_ms):
    """The width (X) and height (Y) in bits of the region reached within level_ms: the
    span of every sampled point whose seek is within the level, plus one grid step (a
    sample stands for its cell)."""
    pts = [(int(r["x_cylinders"]), int(r["y_rows"])) for r in rows
           if float(r["seek_ms"]) <= level_ms]
    if not pts:
        return None
    xs = sorted({int(r["x_cylinders"]) for r in rows})
    x_step = xs[1] - xs[0] if len(xs) > 1 else 1
    width = max(x for x, _ in pts) - min(x for x, _ in pts) + x_step
    height = (max(y for _, y in pts) - min(y for _, y in pts) + 1) * ROW_BITS
    return (width, height)


def power_fig4(out):
    """Fig. 4: seek times from the centre to every row of one access direction."""
    rows = read_csv(os.path.join(out, "power-fig4.csv"))
    xs = sorted({int(r["x_cylinders"]) for r in rows})
    ys = sorted({int(r["y_rows"]) for r in rows})
    grid = {(int(r["x_cylinders"]), int(r["y_rows"])): float(r["seek_ms"]) for r in rows}
    z = [[grid[(x, y)] for x in xs] for y in ys]
    fig, axes = plt.subplots(1, 2, figsize=(12, 4.6))
    ax = axes[0]
    # Both axes in bits (one bit is 40 nm both ways, Table I), so the regions' shape shows.
    yb = [y * ROW_BITS for y in ys]
    cs = ax.contourf(xs, yb, z, levels=[0.2 + 0.05 * i for i in range(12)], cmap="viridis")
    ax.contour(xs, yb, z, levels=list(FIG4_LEVELS_MS), colors="white", linewidths=0.6)
    fig.colorbar(cs, ax=ax, label="seek time (ms)")
    ax.set_xlabel("X displacement from the centre (bits, 40 nm)")
    ax.set_ylabel("Y displacement from the centre (bits, 40 nm)")
    ax.set_title("tos05 (Table I): seek time from the centre, rows read upward (Fig. 4)",
                 fontsize=9)
    ax = axes[1]
    ratios = []
    for level in FIG4_LEVELS_MS:
        ext = region_extent(rows, level)
        if ext is None:
            continue
        ratios.append((level, ext[0], ext[1], ext[0] / ext[1]))
    ax.plot([r[0] for r in ratios], [r[3] for r in ratios], "o-", label="measured x:y")
    mean = sum(r[3] for r in ratios) / len(ratios)
    ax.axhline(PUBLISHED_FIG4_X_TO_Y, color="red", ls="--", label="paper §4 (Fig. 4): about 1:10")
    ax.axhline(mean, color="C0", ls=":", label=f"measured mean 1:{1 / mean:.1f}")
    ax.set_xlabel("seek-time level (ms)")
    ax.set_ylabel("x:y size ratio of the region")
    ax.set_ylim(0, max(0.3, max(r[3] for r in ratios) * 1.2))
    ax.set_title("equivalence regions' aspect ratio")
    ax.legend()
    save(fig, out, "power-fig4")
    write_rows(out, "power-fig4-ratios.csv",
               ["level_ms", "x_width_bits", "y_height_bits", "x_to_y"],
               [[f"{a:g}", f"{b:g}", f"{c:g}", f"{d:.4f}"] for a, b, c, d in ratios])


# The two comparisons of the paper's §4, a row per measure: the disk algorithms against ZSPTF
# (§4.3, Figs. 8-9), and ZSPTF against its in-zone variants (§4.2.1), by mean response
# (Fig. 7(a)) and by starvation resistance, the response's squared coefficient of variation
# (Fig. 7(b)). ZSPTF is in every row.
DISK_ALGORITHMS = ["fcfs", "clook", "sstf", "sptf", "zsptf"]
IN_ZONE = ["zfcfs", "ztsptf", "zsptf"]
ZSPTF_ROWS = [("Figs. 8-9, §4.3", DISK_ALGORITHMS, "mean_response_ms", "mean response (ms)",
               "log"),
              ("Fig. 7(a), §4.2.1", IN_ZONE, "mean_response_ms", "mean response (ms)", "log"),
              ("Fig. 7(b), §4.2.1", IN_ZONE, "scv_response",
               "squared coefficient of variation of response", "linear")]


def zsptf_throughput(out):
    """Figs. 7-9's comparisons: mean response against the throughput each scheduler carries."""
    rows = read_csv(os.path.join(out, "zsptf-throughput.csv"))
    workloads = list(dict.fromkeys(r["workload"] for r in rows))
    fig, axes = plt.subplots(len(ZSPTF_ROWS), len(workloads),
                             figsize=(6 * len(workloads), 4.4 * len(ZSPTF_ROWS)), squeeze=False)
    for ax_row, (figure, schedulers, column, label, yscale) in zip(axes, ZSPTF_ROWS):
        for ax, wl in zip(ax_row, workloads):
            w_rows = [r for r in rows if r["workload"] == wl]
            for sched in schedulers:
                pts = [r for r in w_rows if r["scheduler"] == sched]
                ax.plot([float(r["throughput_per_s"]) for r in pts],
                        [float(r[column]) for r in pts], "o-", ms=3, label=sched)
            ax.set_yscale(yscale)
            ax.set_xlabel("throughput (requests/s completed)")
            ax.set_ylabel(label)
            how = {"random": "Poisson arrivals, exp. 4 KB",
                   "streams": "sequential streams, K times faster"}.get(
                       wl, "replayed K times faster")
            ax.set_title(f"tos05, {wl}: {how} ({figure})", fontsize=9)
            ax.legend(fontsize=8)
    save(fig, out, "zsptf-throughput")


BASELINES = {"sector": "64 tips a sector (§5.2.3)", "logical": "all 1280 tips a row (§2)"}


def power_fig10(out):
    """Fig. 10: the share of the energy spent in each power state, per workload and policy,
    under both readings of which tips an access activates."""
    rows = read_csv(os.path.join(out, "power-fig10.csv"))
    runs = [r for r in rows if r["study"] == "timeout"]
    labels, shares = [], []
    for r in runs:
        t = float(r["idle_timeout_ms"])
        policy = "never" if t < 0 else ("at once" if t == 0 else f"{t:g} ms")
        labels.append(f"{r['shape']}, {r['baseline']}\nspin-down {policy}")
        total = float(r["total_j"])
        shares.append([100.0 * float(r[s + "_j"]) / total for s in STATES])
    fig, ax = plt.subplots(figsize=(14, 4.8))
    bottom = [0.0] * len(labels)
    for i, state in enumerate(STATES):
        vals = [s[i] for s in shares]
        ax.bar(range(len(labels)), vals, bottom=bottom, label=state.upper())
        bottom = [b + v for b, v in zip(bottom, vals)]
    ax.set_xticks(range(len(labels)), labels, fontsize=7)
    ax.set_ylabel("share of the total energy (%)")
    ax.set_title("tos05: where the energy goes (Fig. 10), 20,000 requests a run; "
                 "sector = " + BASELINES["sector"] + ", logical = " + BASELINES["logical"],
                 fontsize=9)
    ax.legend(loc="upper center", bbox_to_anchor=(0.5, -0.22), ncol=5)
    save(fig, out, "power-fig10")


def power(out):
    """Figs. 11-12: the idle timeout, then request merging and subsector accesses."""
    rows = read_csv(os.path.join(out, "power.csv"))
    shapes = list(dict.fromkeys(r["shape"] for r in rows))
    fig, axes = plt.subplots(1, 5, figsize=(24, 4.6))
    summary = []

    def pct(new, old):
        return 100.0 * (1.0 - float(new) / float(old))

    colour = {shape: f"C{i}" for i, shape in enumerate(shapes)}
    style = {"sector": "o-", "logical": "s--"}
    ax, rax = axes[0], axes[1]
    for base in BASELINES:
        for shape in shapes:
            t = [r for r in rows if r["study"] == "timeout" and r["shape"] == shape and
                 r["baseline"] == base]
            never = next(r for r in t if float(r["idle_timeout_ms"]) < 0)
            timed = [r for r in t if float(r["idle_timeout_ms"]) >= 0]
            xs = [max(float(r["idle_timeout_ms"]), 0.01) for r in timed]  # 0 drawn at 0.01
            ax.plot(xs, [pct(r["total_j"], never["total_j"]) for r in timed], style[base],
                    label=f"{shape}, {base}", color=colour[shape])
            if base == "sector":  # the timeout's response is the same under both readings
                rax.plot(xs, [float(r["response_ms"]) for r in timed], "o-", label=shape,
                         color=colour[shape])
            for r in timed:
                summary.append([base, shape, "idle timeout",
                                f"{float(r['idle_timeout_ms']):g} ms", "total energy", 1,
                                pct(r["total_j"], never["total_j"])])
    for a in (ax, rax):
        a.set_xscale("log")
        a.set_xlabel("idle timeout (ms; 0 drawn at 0.01)")
        a.legend(fontsize=8)
    ax.set_ylabel("total energy saved vs never spinning down (%)")
    ax.set_title("Fig. 11: idle timeout, energy")
    rax.set_ylabel("mean response (ms)")
    rax.set_title("Fig. 11: idle timeout, response")

    # Fig. 12: each strategy under aggressive spin-down as the workload is replayed faster.
    # Merging is measured on the servicing energy (SEEK + ACCESS, what it can save, §5.2.2),
    # subsector accesses on the ACCESS energy (the tips they switch off, §5.2.3).
    max_ax, sub_ax, tax = axes[2], axes[3], axes[4]
    for base in BASELINES:
        for shape in shapes:
            s_rows = [r for r in rows if r["study"] == "strategies" and r["shape"] == shape and
                      r["baseline"] == base]
            scales = sorted({float(r["scale"]) for r in s_rows})

            def pick(scale, merge, sub):
                return next(r for r in s_rows if float(r["scale"]) == scale and
                            r["merge"] == merge and r["subsector"] == sub)

            for a, name, m, sb, key in ((max_ax, "merging", "1", "0", "servicing_j"),
                                        (sub_ax, "subsector", "0", "1", "access_j")):
                savings = [pct(pick(k, m, sb)[key], pick(k, "0", "0")[key]) for k in scales]
                a.plot(scales, savings, style[base], label=f"{shape}, {base}",
                       color=colour[shape])
                for k, v in zip(scales, savings):
                    summary.append([base, shape, name, "-", key[:-2] + " energy", k, v])
            if base == "sector":  # merging's response is the same under both readings
                cuts = [pct(pick(k, "1", "0")["response_ms"], pick(k, "0", "0")["response_ms"])
                        for k in scales]
                tax.plot(scales, cuts, "o-", label=shape, color=colour[shape])
                for k, v in zip(scales, cuts):
                    summary.append([base, shape, "merging", "-", "mean response", k, v])
    max_ax.set_title("Fig. 12: merging, seek + access energy saved")
    sub_ax.set_title("Fig. 12: subsector accesses, access energy saved")
    tax.set_title("Fig. 12: mean response cut by merging")
    for a in (max_ax, sub_ax):
        a.set_ylabel("energy saved (%)")
    tax.set_ylabel("response time cut (%)")
    for a in (max_ax, sub_ax, tax):
        a.set_xscale("log", base=2)
        a.set_xlabel("replay speed (gaps divided by), aggressive spin-down")
        a.legend(fontsize=8)
    fig.suptitle("tos05 (Table I), user (hplajw-like) and server (cello-like); sector = "
                 + BASELINES["sector"] + ", logical = " + BASELINES["logical"], fontsize=10)
    save(fig, out, "power")
    write_rows(out, "power-summary.csv",
               ["baseline", "shape", "strategy", "setting", "measure", "scale",
                "measured_saving_pct"],
               [row[:6] + [f"{row[6]:.2f}"] for row in summary])


FIGURES = {"power": power, "power-fig4": power_fig4, "power-fig10": power_fig10,
           "zsptf-throughput": zsptf_throughput}
