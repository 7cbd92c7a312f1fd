#!/usr/bin/env python3
# SPDX-License-Identifier: Apache-2.0
"""bench/hybrid-report.py on fio JSON made up for the test: it reads each
configuration's jobs (fio's notes before the JSON included) by their total
latency, weights a mixed job's mean by each direction's I/Os, writes the CSV,
and decides each of the papers' orderings as the numbers say, leaving out the
ones whose configurations did not run.

Usage: hybrid_report_test.py PATH/TO/hybrid-report.py"""
import csv
import json
import os
import subprocess
import sys
import tempfile


def fio(path, read=None, write=None, note=""):
    """A fio JSON result; read and write are (ios, mean_us) or None. mean_us is
    the total latency; the completion latency alone is 100 us less."""
    def side(d):
        ios, mean_us = d if d else (0, 0)
        return {"total_ios": ios, "iops": ios / 20.0, "bw_bytes": ios * 4096 / 20.0,
                "lat_ns": {"mean": mean_us * 1000.0},
                "clat_ns": {"mean": (mean_us - 100) * 1000.0,
                            "percentile": {"99.000000": mean_us * 3000.0}}}
    with open(path, "w") as f:
        f.write(note + json.dumps({"jobs": [{"read": side(read), "write": side(write)}]}))


def main():
    report = sys.argv[1]
    with tempfile.TemporaryDirectory() as tmp:
        res = os.path.join(tmp, "results")
        os.mkdir(res)
        lat = {  # config: (randwrite, randread, oltp read, oltp write, writeheavy read, writeheavy write)
            "mems": (1500, 1600, 5000, 5000, 3000, 3000),
            "disk": (7000, 7500, 14000, 18000, 20000, 20000),
            "dm-writecache": (1300, 7000, 12000, 2000, 9000, 2000),
            "raid1-write-mostly": (6800, 1500, 4000, 13000, 1, 1),
            "dm-cache": (16000, 20000, 18000, 23000, 1, 1),  # slower than the disk
        }
        for config, (rw, rr, orr, orw, wr, ww) in lat.items():
            fio(os.path.join(res, f"{config}.randwrite.json"), write=(100, rw),
                note="fio: note: a line fio prints before its JSON\n")
            fio(os.path.join(res, f"{config}.randread.json"), read=(100, rr))
            fio(os.path.join(res, f"{config}.oltp.json"), read=(300, orr), write=(100, orw))
            fio(os.path.join(res, f"{config}.writeheavy.json"), read=(30, wr), write=(70, ww))
        configs = "mems disk dm-writecache raid1-write-mostly dm-cache bcache"
        out = subprocess.run([sys.executable, report, "--results", res, "--configs", configs,
                              "--jobs", "randwrite randread oltp writeheavy", "--out", tmp],
                             capture_output=True, text=True)
        assert out.returncode == 0, out.stderr
        with open(os.path.join(tmp, "hybrid.csv")) as f:
            rows = list(csv.DictReader(f))
        # 5 configurations: randwrite, randread (one direction each), oltp and writeheavy (two).
        assert len(rows) == 5 * 6, len(rows)
        assert rows[0]["config"] == "mems" and rows[0]["job"] == "randwrite", rows[0]
        with open(os.path.join(tmp, "hybrid.json")) as f:
            checks = {c["check"]: c for c in json.load(f)["orderings"]}

        def find(prefix):
            hits = [c for name, c in checks.items() if name.startswith(prefix)]
            assert len(hits) == 1, (prefix, list(checks))
            return hits[0]

        wb = find("write buffer")
        assert wb["holds"], wb
        # writeheavy on dm-writecache: (30 x 9000 + 70 x 2000) / 100 = 4100 us, of the
        # total latency (fio's lat), not the completion's alone.
        assert wb["values_us"]["dm-writecache"] == 4100.0, wb
        assert find("mirror: random reads")["holds"]
        assert find("mirror: sustained")["holds"]
        assert not find("dm-cache: the oltp job")["holds"]
        assert find("dm-writecache: the oltp job")["holds"]
        assert not [n for n in checks if n.startswith("bcache")], "bcache did not run"
        assert all(c["holds"] for n, c in checks.items() if n.startswith("MEMS alone"))
        assert "**no**" in open(os.path.join(tmp, "hybrid.md")).read()
    print("hybrid_report: ok")


if __name__ == "__main__":
    main()
