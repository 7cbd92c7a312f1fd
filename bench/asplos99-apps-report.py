#!/usr/bin/env python3
# SPDX-License-Identifier: Apache-2.0
"""bench/asplos99-apps' report: seed 003's Figs. 7-11 (ASPLOS IX, §4.2) from the rounds.

Reads the guest's round-K.csv files (round, device, app, wall, user, sys in seconds), takes
per application and device the median over the rounds of the wall time, of the CPU time
(user + system), of its user and system parts, and of the I/O stall (wall - CPU, per round),
with the wall time's min and max, and writes OUT/asplos99-apps.csv (the plotted values),
OUT/asplos99-apps.md (the table) and OUT/asplos99-apps.png: one panel per application, one
stacked bar per device, as the paper's figures split each runtime into CPU and I/O stall.
The CPU part is drawn in its two parts: the guest's system time also holds its own I/O
path (iSCSI initiator, TCP, the emulated NIC), which the user time does not.

Usage: asplos99-apps-report.py --out DIR --devices "D ..." --apps "A ..." [--note TEXT]
                               ROUND.csv...
"""
import argparse
import csv
import os
import statistics

LABELS = {"cheetah4lp": "Cheetah", "superdisk": "SuperDisk", "asplos99-g1": "G1",
          "asplos99-g2": "G2", "asplos99-g3": "G3"}
TITLES = {"andrew": "Andrew-like", "postmark": "PostMark", "gnuld": "GNULD",
          "tpcd-q4": "TPC-D Q4", "tpcd-q6": "TPC-D Q6"}


def rows(paths):
    for path in paths:
        with open(path) as f:
            for r in csv.reader(f):
                _, device, app, wall, user, sys_ = r
                yield device, app, float(wall), float(user), float(sys_)


def summarize(paths, devices, apps):
    runs = {}
    for device, app, wall, user, sys_ in rows(paths):
        runs.setdefault((app, device), []).append((wall, user, sys_))
    out = []
    for app in apps:
        for device in devices:
            r = runs.get((app, device))
            if not r:
                continue
            walls = [w for w, _, _ in r]
            out.append({"app": app, "device": device,
                        "wall_s": statistics.median(walls),
                        "cpu_s": statistics.median([u + s for _, u, s in r]),
                        "user_s": statistics.median([u for _, u, _ in r]),
                        "sys_s": statistics.median([s for _, _, s in r]),
                        "io_stall_s": statistics.median([w - u - s for w, u, s in r]),
                        "wall_min_s": min(walls), "wall_max_s": max(walls),
                        "rounds": len(r)})
    return out


def plot(summary, apps, devices, path, note):
    import matplotlib
    matplotlib.use("Agg")
    import matplotlib.pyplot as plt
    present = [a for a in apps if any(s["app"] == a for s in summary)]
    fig, axes = plt.subplots(1, len(present), figsize=(3.2 * len(present), 3.6), squeeze=False)
    for ax, app in zip(axes[0], present):
        s = {r["device"]: r for r in summary if r["app"] == app}
        names = [d for d in devices if d in s]
        x = range(len(names))
        user = [s[d]["user_s"] for d in names]
        cpu = [s[d]["user_s"] + s[d]["sys_s"] for d in names]
        stall = [max(0.0, s[d]["io_stall_s"]) for d in names]
        ax.bar(x, user, color="#4c72b0", label="CPU: user")
        ax.bar(x, [c - u for c, u in zip(cpu, user)], bottom=user, color="#8fa8d6",
               label="CPU: system (with the I/O path)")
        ax.bar(x, stall, bottom=cpu, color="#dd8452", label="I/O stall")
        # The wall time's range over the rounds, at the bar's top.
        tops = [c + t for c, t in zip(cpu, stall)]
        # The medians of the parts need not add up to the median wall time: clamp at 0.
        ax.errorbar(x, tops, yerr=[[max(0.0, t - s[d]["wall_min_s"]) for t, d in zip(tops, names)],
                                   [max(0.0, s[d]["wall_max_s"] - t) for t, d in zip(tops, names)]],
                    fmt="none", ecolor="black", capsize=3, lw=0.8)
        ax.set_xticks(list(x), [LABELS.get(d, d) for d in names], rotation=30)
        ax.set_title(TITLES.get(app, app))
        ax.set_ylabel("runtime (s)")
    handles, labels = axes[0][0].get_legend_handles_labels()
    fig.legend(handles, labels, loc="lower center", ncol=len(labels), fontsize=8)
    fig.suptitle("Seed 003 Figs. 7-11, live through memstored: median runtime, CPU and "
                 f"I/O stall ({note})", fontsize=9)
    fig.tight_layout(rect=(0, 0.07, 1, 1))
    fig.savefig(path, dpi=110)


def main():
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--out", required=True)
    ap.add_argument("--devices", required=True)
    ap.add_argument("--apps", required=True)
    ap.add_argument("--note", default="")
    ap.add_argument("rounds", nargs="+")
    a = ap.parse_args()
    devices, apps = a.devices.split(), a.apps.split()
    summary = summarize(a.rounds, devices, apps)
    with open(os.path.join(a.out, "asplos99-apps.csv"), "w", newline="") as f:
        w = csv.DictWriter(f, fieldnames=list(summary[0]))
        w.writeheader()
        for r in summary:
            w.writerow({k: f"{v:.3f}" if isinstance(v, float) else v for k, v in r.items()})
    lines = ["| application | device | wall (s), median [min-max] | CPU (s) | user (s) | "
             "system (s) | I/O stall (s) | stall share | rounds |",
             "|---|---|---|---|---|---|---|---|---|"]
    for r in summary:
        share = r["io_stall_s"] / r["wall_s"] if r["wall_s"] > 0 else 0.0
        lines.append(f"| {TITLES.get(r['app'], r['app'])} | {LABELS.get(r['device'], r['device'])}"
                     f" | {r['wall_s']:.2f} [{r['wall_min_s']:.2f}-{r['wall_max_s']:.2f}]"
                     f" | {r['cpu_s']:.2f} | {r['user_s']:.2f} | {r['sys_s']:.2f}"
                     f" | {r['io_stall_s']:.2f} | {share:.0%} | {r['rounds']} |")
    with open(os.path.join(a.out, "asplos99-apps.md"), "w") as f:
        f.write("\n".join(lines) + "\n")
    print("\n".join(lines))
    rounds = max(r["rounds"] for r in summary)
    plot(summary, apps, devices, os.path.join(a.out, "asplos99-apps.png"),
         f"rounds: {rounds}; whiskers: the wall time's range")


if __name__ == "__main__":
    main()
