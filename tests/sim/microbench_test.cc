// SPDX-License-Identifier: Apache-2.0
// Seed 003's microbenchmark (ASPLOS IX, §3.2, Fig. 5): the method as the paper states it,
// the workload it generates, and what a row reports.
#include "sim/microbench.h"

#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>

#include "model/device_factory.h"
#include "sim/workload.h"

namespace memstore::sim {
namespace {

TEST(Microbench, MethodIsSection32s) {
  const MicrobenchSpec spec;
  EXPECT_EQ(spec.requests, 10'000);               // "a set of 10,000 random requests"
  EXPECT_DOUBLE_EQ(spec.read_fraction, 2.0 / 3);  // "Two thirds of the requests were reads"
  EXPECT_DOUBLE_EQ(spec.rate_per_s, 20);          // "20 requests per second"
  EXPECT_EQ(spec.scheduler, "fcfs");
  const RandomWorkloadSpec w = microbench_workload(spec);
  EXPECT_EQ(w.requests, 10'000);
  EXPECT_DOUBLE_EQ(w.interarrival_ms, 50);  // the mean gap of 20 arrivals a second
  EXPECT_DOUBLE_EQ(w.read_fraction, 2.0 / 3);
  EXPECT_DOUBLE_EQ(w.mean_size_kb, 4);
  // Fig. 5's five devices, in its order.
  EXPECT_EQ(microbench_devices(),
            (std::vector<std::string>{"cheetah4lp", "superdisk", "asplos99-g1", "asplos99-g2",
                                      "asplos99-g3"}));
  for (const std::string& d : microbench_devices()) {
    EXPECT_TRUE(model::is_zoned_disk(d) || model::preset(d).has_value()) << d;
  }
}

// The generated requests: random over the device, two thirds reads, 20 a second.
TEST(Microbench, WorkloadIsRandomTwoThirdsReadsAtTwentyPerSecond) {
  RandomWorkloadSpec w = microbench_workload(MicrobenchSpec{});
  w.capacity_blocks = 8'887'940;  // the Cheetah 4LP
  RandomWorkload gen(w);
  std::int64_t n = 0, reads = 0, blocks = 0;
  double first_half = 0;
  model::Ns last_arrival = 0;
  while (const auto r = gen.next()) {
    ++n;
    if (r->op == model::Op::kRead) ++reads;
    blocks += r->blocks;
    if (r->lbn < w.capacity_blocks / 2) ++first_half;
    last_arrival = r->arrival_ns;
  }
  ASSERT_EQ(n, 10'000);
  const auto count = static_cast<double>(n);
  EXPECT_NEAR(static_cast<double>(reads) / count, 2.0 / 3, 0.015);
  EXPECT_NEAR(count / (static_cast<double>(last_arrival) / 1e9), 20, 0.6);
  EXPECT_NEAR(first_half / count, 0.5, 0.02);  // start blocks spread over the whole device
  // Exponential sizes of mean 4 KB, rounded up to 512-byte blocks: a mean of about 8.5.
  EXPECT_NEAR(static_cast<double>(blocks) / count, 8.5, 0.5);
}

TEST(Microbench, RowReportsResponseAndTheAccessTimesVariation) {
  MicrobenchSpec spec;
  spec.requests = 2'000;
  const std::optional<MicrobenchRow> row = run_microbench("asplos99-g2", spec);
  ASSERT_TRUE(row);
  EXPECT_EQ(row->device, "asplos99-g2");
  EXPECT_EQ(row->requests, 2'000);
  // Response = queue + access, so it is never below the access time.
  EXPECT_GE(row->mean_response_ms, row->mean_access_ms);
  EXPECT_GT(row->mean_access_ms, 0);
  EXPECT_DOUBLE_EQ(row->cov_access, row->sd_access_ms / row->mean_access_ms);
  EXPECT_FALSE(run_microbench("no-such-device", spec));
  const std::string line = microbench_csv_line(*row);
  EXPECT_EQ(line.rfind("asplos99-g2,2000,", 0), 0u) << line;
  const std::string header = microbench_csv_header();
  EXPECT_EQ(std::count(line.begin(), line.end(), ','),
            std::count(header.begin(), header.end(), ','));
}

// At 20 requests a second every device is far from saturation, so the ranking is the
// devices' own: each MEMS generation faster than the one before and than both disks, and
// the SuperDisk faster than the Cheetah.
TEST(Microbench, FasterDevicesRespondSooner) {
  MicrobenchSpec spec;
  spec.requests = 2'000;
  double previous = 1e9;
  for (const std::string& d : microbench_devices()) {
    const double ms = run_microbench(d, spec)->mean_response_ms;
    EXPECT_LT(ms, previous) << d;
    previous = ms;
  }
}

}  // namespace
}  // namespace memstore::sim
