#!/usr/bin/env python3
# SPDX-License-Identifier: Apache-2.0
"""bench/hybrid-linux's report: fio's JSON per configuration and job into a
table (CSV, JSON, Markdown) and the papers' orderings checked on it.

Each fio result gives, per direction (read, write), the IOPS and the mean and
99th-percentile latency from submission to completion. The orderings (docs/hybrid-linux.md):
  - MEMS alone is faster than the disk alone, for every job;
  - the write buffer (Wang and Brandt): in mean latency over the reads and
    writes of the write-heavy job, the disk alone > the disk behind the MEMS
    write cache > the MEMS alone;
  - the mirror (Uysal, Merchant and Alvarez): reads as fast as the MEMS side
    (within 20%); sustained writes at the disk's pace (within 20%), since a
    write completes on both sides and write-behind only absorbs bursts;
  - the caches: the oltp job (a hot spot) faster than on the disk alone.
A check whose configurations did not run is left out.

With several rounds (--results given once per round), each figure is the
median over the rounds, the mean latency with its range beside it, and the
orderings are decided on the medians.
"""
import argparse
import csv
import json
import os
import statistics
import sys

DIRECTIONS = ("read", "write")


def load(results, configs):
    rows = []
    for config in configs:
        for name in sorted(os.listdir(results)):
            parts = name.split(".")  # CONFIG.JOB.json: neither has a dot
            if len(parts) != 3 or parts[0] != config or parts[2] != "json":
                continue
            job = parts[1]
            with open(os.path.join(results, name)) as f:
                text = f.read()
            # fio may print notes before the JSON document.
            data = json.loads(text[text.index("{"):])
            result = data["jobs"][0]
            for direction in DIRECTIONS:
                d = result[direction]
                if d["total_ios"] == 0:
                    continue
                # Total latency (submission and completion): through a bio-based
                # device (md, dm) the submission is a large part of it. Its
                # percentiles need fio's --lat_percentiles; without them, the
                # completion latency's.
                lat, clat = d.get("lat_ns", d["clat_ns"]), d["clat_ns"]
                p99_of = "lat" if "percentile" in lat else "clat"
                p99 = (lat if p99_of == "lat" else clat).get("percentile", {}).get("99.000000", 0)
                rows.append({
                    "config": config, "job": job, "direction": direction,
                    "ios": d["total_ios"], "iops": round(d["iops"], 1),
                    "mean_us": round(lat["mean"] / 1000, 1),
                    "p99_us": round(p99 / 1000, 1), "p99_of": p99_of,
                    "mb_s": round(d["bw_bytes"] / 1e6, 2),
                })
    return rows


def merge_rounds(rounds):
    """One row per (config, job, direction): the median of each figure over the
    rounds that have it, and the range of the mean latency."""
    groups = {}
    for rows in rounds:
        for r in rows:
            groups.setdefault((r["config"], r["job"], r["direction"]), []).append(r)
    merged = []
    for (config, job, direction), rs in groups.items():
        row = {"config": config, "job": job, "direction": direction, "rounds": len(rs)}
        for key in ("ios", "iops", "mean_us", "p99_us", "mb_s"):
            row[key] = round(statistics.median(r[key] for r in rs), 1)
        row["p99_of"] = "lat" if all(r["p99_of"] == "lat" for r in rs) else "clat"
        row["mean_us_min"] = min(r["mean_us"] for r in rs)
        row["mean_us_max"] = max(r["mean_us"] for r in rs)
        merged.append(row)
    return merged


def checks(rows):
    mean = {(r["config"], r["job"], r["direction"]): r["mean_us"] for r in rows}

    def get(config, job, direction):
        return mean.get((config, job, direction))

    def job_mean(config, job):  # a job's mean over both directions, weighted by I/Os
        parts = [r for r in rows if r["config"] == config and r["job"] == job]
        total = sum(r["ios"] for r in parts)
        return sum(r["mean_us"] * r["ios"] for r in parts) / total if total else None

    out = []

    def check(name, values, holds):
        if all(v is not None for v in values.values()):
            out.append({"check": name, "holds": bool(holds(values)),
                        "values_us": {k: round(v, 1) for k, v in values.items()}})

    for job, direction in sorted({(r["job"], r["direction"]) for r in rows}):
        check(f"MEMS alone faster than the disk alone: {job} {direction}s",
              {"mems": get("mems", job, direction), "disk": get("disk", job, direction)},
              lambda v: v["mems"] < v["disk"])
    check("write buffer: disk > disk behind dm-writecache > MEMS alone (writeheavy, mean of "
          "reads and writes)",
          {"disk": job_mean("disk", "writeheavy"),
           "dm-writecache": job_mean("dm-writecache", "writeheavy"),
           "mems": job_mean("mems", "writeheavy")},
          lambda v: v["disk"] > v["dm-writecache"] > v["mems"])
    check("mirror: random reads within 20% of the MEMS alone, below the disk's",
          {"raid1-write-mostly": get("raid1-write-mostly", "randread", "read"),
           "mems": get("mems", "randread", "read"), "disk": get("disk", "randread", "read")},
          lambda v: v["raid1-write-mostly"] <= 1.2 * v["mems"] and v["raid1-write-mostly"] < v["disk"])
    check("mirror: sustained random writes at the disk's pace (within 20%)",
          {"raid1-write-mostly": get("raid1-write-mostly", "randwrite", "write"),
           "disk": get("disk", "randwrite", "write")},
          lambda v: abs(v["raid1-write-mostly"] - v["disk"]) <= 0.2 * v["disk"])
    for cache in ("dm-cache", "bcache", "dm-writecache"):
        check(f"{cache}: the oltp job faster than on the disk alone",
              {cache: job_mean(cache, "oltp"), "disk": job_mean("disk", "oltp")},
              lambda v, c=cache: v[c] < v["disk"])
    return out


def markdown(rows, found, note):
    jobs, configs = [], []
    for r in rows:
        if (r["job"], r["direction"]) not in jobs:
            jobs.append((r["job"], r["direction"]))
        if r["config"] not in configs:
            configs.append(r["config"])
    by = {(r["config"], r["job"], r["direction"]): r for r in rows}
    rounds = max((r["rounds"] for r in rows), default=1)
    lines = [f"Measured by `bench/hybrid-linux` ({note}). Latency in µs from submission to "
             "completion, as fio reports it in the guest; IOPS in square brackets"
             + (f"; the median of {rounds} rounds, the range of the mean in round brackets"
                if rounds > 1 else "") + ".", ""]
    def mean_cell(r):
        spread = f" ({r['mean_us_min']:.0f}–{r['mean_us_max']:.0f})" if r["rounds"] > 1 else ""
        return f"{r['mean_us']:.0f}{spread} [{r['iops']:.0f}]"

    for title, cell in (("mean [IOPS]", mean_cell),
                        ("p99" if all(r["p99_of"] == "lat" for r in rows)
                         else "p99 of the completion latency alone (fio's clat)",
                         lambda r: f"{r['p99_us']:.0f}")):
        lines.append(f"| job, {title} | " + " | ".join(configs) + " |")
        lines.append("|---" * (len(configs) + 1) + "|")
        for j, d in jobs:
            cells = [cell(by[(c, j, d)]) if (c, j, d) in by else "" for c in configs]
            lines.append(f"| {j} {d}s | " + " | ".join(cells) + " |")
        lines.append("")
    lines += ["| ordering | holds | mean latency, µs |", "|---|---|---|"]
    for c in found:
        values = ", ".join(f"{k} {v:.0f}" for k, v in c["values_us"].items())
        lines.append(f"| {c['check']} | {'yes' if c['holds'] else '**no**'} | {values} |")
    return "\n".join(lines) + "\n"


def main():
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--results", required=True, action="append",
                    help="directory of CONFIG.JOB.json files; once per round")
    ap.add_argument("--configs", required=True, help="the configurations, space-separated, in order")
    ap.add_argument("--jobs", default="", help="the job names, space-separated, in run order")
    ap.add_argument("--out", required=True, help="directory for hybrid.csv, hybrid.json, hybrid.md")
    ap.add_argument("--note", default="", help="the run's settings, for the Markdown")
    args = ap.parse_args()
    os.makedirs(args.out, exist_ok=True)
    for d in args.results:
        if not os.path.isdir(d):
            sys.exit(f"hybrid-report: no results directory {d}")
    rows = merge_rounds([load(d, args.configs.split()) for d in args.results])
    order = args.jobs.split()
    rows.sort(key=lambda r: (args.configs.split().index(r["config"]),
                             order.index(r["job"]) if r["job"] in order else len(order), r["job"]))
    found = checks(rows)
    with open(os.path.join(args.out, "hybrid.csv"), "w", newline="") as f:
        w = csv.DictWriter(f, fieldnames=["config", "job", "direction", "rounds", "ios", "iops",
                                          "mean_us", "mean_us_min", "mean_us_max", "p99_us",
                                          "p99_of", "mb_s"])
        w.writeheader()
        w.writerows(rows)
    with open(os.path.join(args.out, "hybrid.json"), "w") as f:
        json.dump({"results": rows, "orderings": found}, f, indent=1)
    text = markdown(rows, found, args.note)
    with open(os.path.join(args.out, "hybrid.md"), "w") as f:
        f.write(text)
    print(text)


if __name__ == "__main__":
    main()
