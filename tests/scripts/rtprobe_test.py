#!/usr/bin/env python3
# SPDX-License-Identifier: Apache-2.0
"""bench/rtprobe.py's reading of cyclictest, on made-up histograms: percentiles by rank
as bench_targets.percentiles takes them, overflows, the threads' counts summed, a broken
file refused; and memstored's excess and the goal's verdict. Usage: rtprobe_test.py
SOURCE_DIR"""
import os
import sys
import unittest

sys.path.insert(0, os.path.join(sys.argv[1], "bench"))
import bench_targets as bt  # noqa: E402
import rtprobe  # noqa: E402

# Two threads, in cyclictest's --histfile layout: a bucket per µs with one count per
# thread, then the summary comments.
HIST = """# Histogram
000000 000000\t000000
000001 000000\t000000
000002 000500\t000400
000003 000480\t000590
000004 000019\t000009
000005 000000\t000000
# Total: 000000999 000000999
# Min Latencies: 00002 00002
# Avg Latencies: 00002 00002
# Max Latencies: 00070 00004
# Histogram Overflows: 00001 00000
# Histogram Overflow at cycle number:
# Thread 0: 00417
# Thread 1:
"""


class Histogram(unittest.TestCase):
    def test_counts_summed_over_threads(self):
        h = rtprobe.parse_histogram(HIST)
        self.assertEqual(h["buckets"], {2: 900, 3: 1070, 4: 28})
        self.assertEqual(h["overflows"], 1)
        self.assertEqual(h["max"], 70)

    def test_percentiles_match_the_sorted_values(self):
        # The same samples, expanded, through the scripts' own percentile rule; the
        # overflow sorts last (its value is unknown: 10^6 stands in).
        h = rtprobe.parse_histogram(HIST)
        values = [b for b, n in sorted(h["buckets"].items()) for _ in range(n)] + [10**6]
        want = bt.percentiles(values)
        got = rtprobe.histogram_percentiles(h)
        self.assertEqual(got["count"], 1999)
        for k in ("p50", "p99", "p99.9"):
            self.assertEqual(got[k], want[k], k)
        self.assertEqual((got["p50"], got["p99"], got["p99.9"]), (3.0, 4.0, 4.0))

    def test_rank_among_overflows_is_unknown(self):
        h = {"buckets": {1: 9}, "overflows": 991, "max": 80000}
        p = rtprobe.histogram_percentiles(h)
        self.assertIsNone(p["p50"])
        self.assertEqual(rtprobe.spread([p["p50"]]), f"> {rtprobe.HISTOGRAM_MAX_US}")

    def test_broken_input_refused(self):
        with self.assertRaisesRegex(ValueError, "no samples"):
            rtprobe.parse_histogram("# Histogram\n# Total: 0\n")
        with self.assertRaisesRegex(ValueError, "unexpected line"):
            rtprobe.parse_histogram("000001 abc\n")
        with self.assertRaisesRegex(ValueError, "without counts"):
            rtprobe.parse_histogram("000001\n")


class Probe(unittest.TestCase):
    def test_cpu_list(self):
        self.assertEqual(rtprobe.parse_cpu_list("0-2,5,7-8\n"), [0, 1, 2, 5, 7, 8])
        self.assertEqual(rtprobe.parse_cpu_list("1"), [1])

    def test_command_follows_memstored(self):
        fifo = rtprobe.cyclictest_cmd("cyclictest", [0, 1], 50, "/h", 1000)
        self.assertIn("--policy=fifo", fifo)
        self.assertIn("--priority=50", fifo)
        self.assertIn("--affinity=0,1", fifo)
        self.assertIn("--threads=2", fifo)
        other = rtprobe.cyclictest_cmd("cyclictest", [1], None, "/h", 500, duration_s=2.4)
        self.assertIn("--policy=other", other)
        self.assertIn("--duration=2", other)
        self.assertIn("--interval=500", other)

    def test_excess_and_verdict(self):
        m = {"p50": 3.0, "p99": 20.0, "p99.9": 50.0}
        c = {"p50": 10.0, "p99": 17.0, "p99.9": 40.0}
        p = rtprobe.point("x", 1, m, 0, c, 0.0, "0.1 0.2 0.3")
        self.assertEqual(p["excess"], {"p50": -7.0, "p99": 3.0, "p99.9": 10.0})
        self.assertEqual(rtprobe.verdict([p]), "met (1/1)")
        late = rtprobe.point("x", 2, {**m, "p99": 30.0}, 0, c, 0.0, "0.1 0.2 0.3")
        self.assertEqual(rtprobe.verdict([late]), "**missed** in 1/1 (median: p99 by 8.0 µs)")
        # The goal is per run: one round over the bound misses it, whatever the median.
        self.assertEqual(rtprobe.verdict([p, p, late]), "**missed** in 1/3")
        early = rtprobe.point("x", 3, m, 1, c, 0.0, "0.1 0.2 0.3")
        self.assertIn("early", rtprobe.verdict([p, early]))
        self.assertEqual(rtprobe.spread([1.0, 3.0, 2.0]), "2.0 (1.0 … 3.0)")


class Bursts(unittest.TestCase):
    def test_a_stall_is_one_burst(self):
        # A 3 ms stall ending at 10.003 s held back three deliveries; a lone late one at
        # 11 s; the rest on time.
        d = [(10_003_000_000, 2_900_000), (10_003_010_000, 1_900_000),
             (10_003_020_000, 900_000), (11_000_000_000, 300_000)]
        d += [(i * 1_000_000, 1_000) for i in range(2000)]
        groups = rtprobe.bursts(d)
        self.assertEqual([len(b) for b in groups], [3, 1])
        once = rtprobe.once_per_burst(d)
        self.assertEqual(len(once), 2002)
        self.assertEqual(sorted(once)[-2:], [300.0, 2900.0])
        # Counted once, the stall's two lesser deliveries leave the tail: p99.9 is the
        # value at rank 2001 of 2004 (the stall's 900 µs), then at rank 1999 of 2002 (on time).
        self.assertEqual(bt.percentiles([x / 1e3 for _, x in d])["p99.9"], 900.0)
        self.assertEqual(bt.percentiles(once)["p99.9"], 1.0)


if __name__ == "__main__":
    unittest.main(argv=sys.argv[:1])
