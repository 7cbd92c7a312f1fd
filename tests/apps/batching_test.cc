// SPDX-License-Identifier: Apache-2.0
// Cutting block lists into MEMS BATCH-sized batches.
#include "apps/batching.h"

#include <gtest/gtest.h>

namespace memstore::apps {
namespace {

TEST(MergeRuns, ConsecutiveBlocksBecomeOneExtent) {
  const std::vector<Lbn> lbns{1, 2, 3, 7, 9, 10};
  EXPECT_EQ(merge_runs(lbns, Op::kRead),
            (std::vector<Extent>{{Op::kRead, 1, 3}, {Op::kRead, 7, 1}, {Op::kRead, 9, 2}}));
  EXPECT_TRUE(merge_runs({}, Op::kRead).empty());
}

// Batches cover the extents exactly, in order, within the limits.
void check(const std::vector<Extent>& in, const BatchLimits& lim) {
  const auto batches = split_batches(in, lim);
  std::vector<Lbn> want, got;
  for (const Extent& e : in) {
    for (Lbn l = e.lbn; l < e.lbn + e.blocks; ++l) want.push_back(l);
  }
  for (const auto& b : batches) {
    ASSERT_FALSE(b.empty());
    EXPECT_LE(b.size(), lim.max_descriptors);
    std::uint64_t blocks = 0;
    for (const Extent& e : b) {
      blocks += e.blocks;
      EXPECT_EQ(e.lbn / lim.blocks_per_sled, b.front().lbn / lim.blocks_per_sled);
      EXPECT_EQ((e.lbn + e.blocks - 1) / lim.blocks_per_sled, b.front().lbn / lim.blocks_per_sled);
      for (Lbn l = e.lbn; l < e.lbn + e.blocks; ++l) got.push_back(l);
    }
    EXPECT_LE(blocks, lim.max_blocks);
  }
  EXPECT_EQ(got, want);
}

TEST(SplitBatches, BlockLimitSplitsAnExtent) {
  check({{Op::kRead, 0, 10000}}, {256, 4096, 1'000'000});
  EXPECT_EQ(
      split_batches(std::vector<Extent>{{Op::kRead, 0, 10000}}, {256, 4096, 1'000'000}).size(), 3u);
}

TEST(SplitBatches, DescriptorLimit) {
  std::vector<Extent> in;
  for (Lbn l = 0; l < 100; ++l) in.push_back({Op::kRead, l * 3, 1});
  check(in, {7, 4096, 1'000'000});
  EXPECT_EQ(split_batches(in, {7, 4096, 1'000'000}).size(), 15u);
}

TEST(SplitBatches, NeverAcrossSleds) {
  check({{Op::kRead, 90, 30}, {Op::kRead, 150, 100}}, {256, 4096, 100});
  EXPECT_EQ(split_batches(std::vector<Extent>{{Op::kRead, 90, 30}}, {256, 4096, 100}).size(), 2u);
}

}  // namespace
}  // namespace memstore::apps
