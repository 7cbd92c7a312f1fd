// SPDX-License-Identifier: Apache-2.0
// The subregion map of thesis Fig. 6.7 (sim/subregion_map.h): the figure's
// quantity is service time, positioning plus the media transfer, for the
// Random workload's requests (§6.1.1) kept inside each subregion.
#include "sim/subregion_map.h"

#include <gtest/gtest.h>

namespace memstore::sim {
namespace {

model::DeviceParams g2() {
  model::DeviceParams p = *model::preset("g2");
  p.power.idle_timeout_ns = -1;  // as memsim subregions runs it
  return p;
}

const SubregionCell& at(const std::vector<SubregionCell>& cells, int cx, int cy) {
  return cells[static_cast<std::size_t>(cy * kSubregionsPerSide + cx)];
}

// Service time is what Fig. 6.7 shows: every cell's value carries a media
// transfer on top of positioning. A 4 KB request is at least one media
// step, and "each 640 sector (5 KB) access takes 0.129 ms" (thesis §2.2,
// G2), so the service time exceeds positioning by at least that much; a map
// of positioning time would fail this.
TEST(SubregionMap, ReportsServiceTimeNotPositioning) {
  SubregionMapSpec spec;
  spec.requests = 300;
  const auto cells = measure_subregions(g2(), spec);
  ASSERT_TRUE(cells.ok()) << cells.error().message;
  ASSERT_EQ(cells->size(), 25u);
  for (const SubregionCell& c : *cells) {
    EXPECT_EQ(c.requests, 300);
    EXPECT_GE(c.service_ms, c.seek_ms + 0.129) << c.cx << "," << c.cy;
    EXPECT_NEAR(c.service_ms, c.seek_ms + c.transfer_ms, 1e-6) << c.cx << "," << c.cy;
  }
}

// §6.2.1: the springs make short seeks slower away from the centre, and the
// same requests (every cell draws the same sizes) cost more service time in
// every outer subregion than in the centre one.
TEST(SubregionMap, CentreServesFasterThanEveryOuterSubregion) {
  SubregionMapSpec spec;
  spec.requests = 500;
  const auto cells = measure_subregions(g2(), spec);
  ASSERT_TRUE(cells.ok()) << cells.error().message;
  const double centre = at(*cells, 2, 2).service_ms;
  for (int k = 0; k < kSubregionsPerSide; ++k) {
    EXPECT_GT(at(*cells, k, 0).service_ms, centre);
    EXPECT_GT(at(*cells, k, 4).service_ms, centre);
    EXPECT_GT(at(*cells, 0, k).service_ms, centre);
    EXPECT_GT(at(*cells, 4, k).service_ms, centre);
  }
}

// The sizes are §6.1.1's: exponential, mean 4 KB, rounded up to 512-byte
// blocks (a mean of about 8.5 blocks), the same in every subregion.
TEST(SubregionMap, RandomWorkloadSizesInEveryCell) {
  SubregionMapSpec spec;
  spec.requests = 2000;
  const auto cells = measure_subregions(g2(), spec);
  ASSERT_TRUE(cells.ok()) << cells.error().message;
  for (const SubregionCell& c : *cells) {
    EXPECT_EQ(c.mean_blocks, cells->front().mean_blocks);
  }
  EXPECT_GT(cells->front().mean_blocks, 7.8);
  EXPECT_LT(cells->front().mean_blocks, 9.2);
}

TEST(SubregionMap, UnusableSpecsAreErrors) {
  SubregionMapSpec spec;
  spec.requests = 0;
  EXPECT_FALSE(measure_subregions(g2(), spec).ok());
  spec.requests = 10;
  spec.mean_size_kb = 100;  // beyond the 50 blocks a G2 subregion holds in a track
  const auto big = measure_subregions(g2(), spec);
  ASSERT_FALSE(big.ok());
  EXPECT_NE(big.error().message.find("--mean-size-kb"), std::string::npos) << big.error().message;
  spec.mean_size_kb = 4;
  spec.read_fraction = 1.5;
  EXPECT_FALSE(measure_subregions(g2(), spec).ok());
}

}  // namespace
}  // namespace memstore::sim
