#!/usr/bin/python3
# SPDX-License-Identifier: Apache-2.0
"""scripts/reproduce_plot_power.py measures Fig. 4's quantity: an equivalence region's
width (X, bits) over its height (Y, rows of 90 bits), the region being every sampled
point within a seek-time level (power paper §4).

    reproduce_plot_power_test.py REPO [OUT]

With OUT (a directory where scripts/reproduce power-fig4 wrote), the ratios it wrote are
checked against the profile too.
"""
import csv
import os
import sys


def main():
    sys.path.insert(0, os.path.join(sys.argv[1], "scripts"))
    import reproduce_plot_power as plot

    # A region of X half-width 30 (3 samples each side, step 10) and Y rows -2..+4 within
    # 0.3 ms; everything else slower.
    rows = []
    for x in range(-100, 101, 10):
        for y in range(-13, 14):
            inside = abs(x) <= 30 and -2 <= y <= 4
            rows.append({"x_cylinders": str(x), "y_rows": str(y),
                         "seek_ms": "0.25" if inside else "0.5"})
    width, height = plot.region_extent(rows, 0.3)
    assert width == 70, f"width {width}: 7 samples of 10 cylinders"
    assert height == 7 * plot.ROW_BITS, f"height {height}: 7 rows of 90 bits"
    assert plot.region_extent(rows, 0.1) is None, "no point within 0.1 ms"
    assert plot.PUBLISHED_FIG4_X_TO_Y == 0.1, "§4: about 1:10"
    if len(sys.argv) > 2:
        out = sys.argv[2]
        profile = plot.read_csv(os.path.join(out, "power-fig4.csv"))
        with open(os.path.join(out, "power-fig4-ratios.csv"), newline="") as f:
            for r in csv.DictReader(f):
                w, h = plot.region_extent(profile, float(r["level_ms"]))
                assert abs(float(r["x_to_y"]) - w / h) < 1e-4, r
                # X costs the settle (0.215 ms, Table I) at any distance: narrow and tall.
                assert w < h, r


if __name__ == "__main__":
    main()
