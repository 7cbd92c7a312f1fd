# SPDX-License-Identifier: Apache-2.0
"""scripts/reproduce-plot's shared helpers, and its later figures: seed 003's Fig. 5 and
the thesis figures 3.8 and 6.1.

Kept apart from scripts/reproduce-plot so that neither file grows past the project's
size limit. The excerpts give no numbers for these figures, so no published values are
drawn; docs/reproduction.md compares the curves with what the texts say.
"""
import csv
import os

import matplotlib.pyplot as plt


def read_csv(path):
    with open(path, newline="") as f:
        return list(csv.DictReader(f))


def save(fig, out, name):
    fig.tight_layout()
    fig.savefig(os.path.join(out, name + ".png"), dpi=90)
    plt.close(fig)


def seek_profile_settle0(out):
    """Thesis §3.6, Fig. 3.8: Fig. 3.3's experiment (G2, from the centre) with no X settle."""
    rows = read_csv(os.path.join(out, "seek-profile-centre-settle0.csv"))
    fig, axes = plt.subplots(1, 2, figsize=(11, 4.2))
    ax = axes[0]
    xs = sorted({int(r["x_cylinders"]) for r in rows})
    ys = sorted({int(r["y_rows"]) for r in rows})
    grid = {(int(r["x_cylinders"]), int(r["y_rows"])): float(r["seek_ms"]) for r in rows}
    z = [[grid[(x, y)] for x in xs] for y in ys]
    # Same colour scale as seek-profile.png's Fig. 3.3 panel, so the two compare by eye.
    im = ax.pcolormesh(xs, ys, z, shading="nearest", cmap="viridis", vmin=0, vmax=0.9)
    ax.set_title("G2 positioning from the centre, X settle 0 (Fig. 3.8)")
    ax.set_xlabel("X displacement (cylinders)")
    ax.set_ylabel("Y displacement (rows of 90 bits)")
    fig.colorbar(im, ax=ax, label="ms")
    ax = axes[1]
    for y, style in ((0, "-"), (6, "--"), (13, ":")):
        pts = [(int(r["x_cylinders"]), float(r["seek_ms"])) for r in rows if int(r["y_rows"]) == y]
        ax.plot([p[0] for p in pts], [p[1] for p in pts], style, label=f"Y +{y} rows")
    ax.set_xlabel("X displacement from the centre (cylinders)")
    ax.set_ylabel("positioning (ms)")
    ax.set_ylim(0, 0.9)
    ax.set_title("By X, settle 0: the Y seek now shows\n(no published values in the excerpt)",
                 fontsize=9)
    ax.legend()
    save(fig, out, "seek-profile-settle0")


def schedulers_atlas10k(out):
    """Thesis §6.1.2, Fig. 6.1: the four disk schedulers on the Atlas 10K, Random workload."""
    rows = read_csv(os.path.join(out, "schedulers-atlas10k.csv"))
    fig, axes = plt.subplots(1, 2, figsize=(11, 4.2))
    for ax, key, label in ((axes[0], "mean_response_ms", "mean response (ms)"),
                           (axes[1], "scv_response", "squared coefficient of variation")):
        for sched in dict.fromkeys(r["scheduler"] for r in rows):
            pts = [(float(r["rate_per_s"]), float(r[key])) for r in rows if r["scheduler"] == sched]
            ax.plot(*zip(*pts), marker=".", label=sched)
        ax.set_xlabel("arrival rate (requests/s)")
        ax.set_ylabel(label)
        ax.legend()
    axes[0].set_yscale("log")
    axes[0].set_ylim(5, 1000)
    axes[0].set_title("Atlas 10K, Random workload (Fig. 6.1a)\n"
                      "(no published values in the excerpt)", fontsize=9)
    axes[1].set_ylim(0, 2)
    axes[1].set_title("starvation resistance (Fig. 6.1b)", fontsize=9)
    save(fig, out, "schedulers-atlas10k")


def asplos99_fig5(out):
    # Seed 003 (Schlosser et al., ASPLOS IX), Fig. 5: each device's average total response
    # time with its variation, under §3.2's microbenchmark. The excerpt leaves the figure's
    # values out, so nothing is drawn as published; the CSV is memsim microbench's.
    rows = read_csv(os.path.join(out, "asplos99-fig5.csv"))
    labels = {"cheetah4lp": "Cheetah 4LP", "superdisk": "SuperDisk", "asplos99-g1": "G1",
              "asplos99-g2": "G2", "asplos99-g3": "G3"}
    fig, ax = plt.subplots(figsize=(7, 4))
    xs = range(len(rows))
    means = [float(r["mean_response_ms"]) for r in rows]
    sds = [float(r["sd_response_ms"]) for r in rows]
    ax.bar(xs, means, yerr=sds, capsize=5, color="tab:blue",
           label="memsim: mean response, error bar = one standard deviation")
    for i, r in enumerate(rows):
        ax.annotate(f"{means[i]:.2f} ms\naccess CoV {float(r['cov_access']):.2f}",
                    (i, means[i] + sds[i]), textcoords="offset points", xytext=(0, 4),
                    ha="center", fontsize=7)
    ax.set_xticks(list(xs), [labels.get(r["device"], r["device"]) for r in rows])
    ax.set_ylabel("average total response time (ms)")
    ax.set_ylim(0, max(m + s for m, s in zip(means, sds)) * 1.25)
    n = rows[0]["requests"] if rows else "?"
    ax.set_title(f"Seed 003, Fig. 5: {n} random requests, 2/3 reads, 20 requests/s\n"
                 "(published values left out of the excerpt: none drawn)", fontsize=9)
    ax.legend(loc="upper right")
    save(fig, out, "asplos99-fig5")


FIGURES = {"asplos99-fig5": asplos99_fig5, "seek-profile-settle0": seek_profile_settle0,
           "schedulers-atlas10k": schedulers_atlas10k}
