#!/usr/bin/python3
# SPDX-License-Identifier: Apache-2.0
"""scripts/reproduce-plot draws the quantity each source figure shows.

    reproduce_plot_test.py REPO [OUT]

Fig. 6.7 (thesis §6.2.1) is a map of service time: the subregion figure must
be drawn from memsim subregions' mean_service_ms, not its mean_seek_ms. With
OUT (a directory scripts/reproduce subregions wrote), the CSVs it plotted are
checked too: every value drawn exceeds positioning by at least one media step
(0.129 ms, thesis §2.2), which a map of positioning time would not.
"""
import csv
import importlib.machinery
import importlib.util
import os
import sys


def load_plot(repo):
    path = os.path.join(repo, "scripts", "reproduce-plot")
    loader = importlib.machinery.SourceFileLoader("reproduce_plot", path)
    spec = importlib.util.spec_from_loader("reproduce_plot", loader)
    module = importlib.util.module_from_spec(spec)
    loader.exec_module(module)
    return module


def main():
    repo = sys.argv[1]
    plot = load_plot(repo)
    rows = [{"cx": str(cx), "cy": str(cy), "mean_service_ms": str(1 + cx + 10 * cy),
             "mean_seek_ms": str(0.5 + cx + 10 * cy)} for cy in range(5) for cx in range(5)]
    z = plot.subregion_grid(rows)
    for cy in range(5):
        for cx in range(5):
            assert z[cy][cx] == 1 + cx + 10 * cy, f"cell {cx},{cy} drew {z[cy][cx]}, not service"
    if len(sys.argv) > 2:
        for settle in ("default", "zero"):
            with open(os.path.join(sys.argv[2], f"subregions-settle-{settle}.csv")) as f:
                real = list(csv.DictReader(f))
            assert len(real) == 25, f"{settle}: {len(real)} rows"
            z = plot.subregion_grid(real)
            for r in real:
                drawn = z[int(r["cy"])][int(r["cx"])]
                assert drawn >= float(r["mean_seek_ms"]) + 0.129, (settle, r, drawn)
    print("reproduce-plot: the subregion figure draws service time")


if __name__ == "__main__":
    main()
