// SPDX-License-Identifier: Apache-2.0
// The cost model of Uysal, Merchant and Alvarez (FAST '03, §4.1, §4.3.4) and Isocost-X.
#include "sim/array_cost.h"

#include <gtest/gtest.h>

namespace memstore::sim {
namespace {

TEST(ArrayCost, DisksNvramAndMemsAtThePapersPrices) {
  CostModel m;
  m.mems_to_disk_ratio = 5;
  // 2 TB of disk, 2 GB of NVRAM, 1 TB of MEMS: $12,000 + $16,000 + $30,000.
  EXPECT_DOUBLE_EQ(array_cost_dollars(m, {2e12, 2e9, 1e12}), 12'000 + 16'000 + 30'000);
}

TEST(ArrayCost, IsocostAddsDiskPairsUpToTheTargetCost) {
  CostModel m;
  // 36 GB disks at $216 each and $16,000 of NVRAM; target: 10 disks' worth more.
  const double base = array_cost_dollars(m, {4 * 36e9, 2e9, 0});
  EXPECT_EQ(isocost_disks(m, 36e9, 2e9, base + 10 * 216, 4), 14);
  EXPECT_EQ(isocost_disks(m, 36e9, 2e9, base + 10 * 216 - 1, 4), 12);
  EXPECT_EQ(isocost_disks(m, 36e9, 2e9, base, 4), 4);
}

}  // namespace
}  // namespace memstore::sim
