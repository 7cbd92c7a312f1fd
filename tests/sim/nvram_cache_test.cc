// SPDX-License-Identifier: Apache-2.0
// The array's mirrored NVRAM write cache (Uysal, Merchant and Alvarez, FAST '03, §3):
// write-behind, folding of overwrites, reads from the cache, destaging forced at the
// high-water mark, in ascending order, and rewrites during a destage kept dirty.
#include "sim/nvram_cache.h"

#include <gtest/gtest.h>

namespace memstore::sim {
namespace {

NvramParams small(std::int64_t lines, double high_water = 0.5) {
  NvramParams p;
  p.line_blocks = 8;
  p.capacity_blocks = lines * 8;
  p.high_water = high_water;
  p.max_destage_lines = 4;
  return p;
}

TEST(NvramCache, DestagingIsForcedFromTheHighWaterMark) {
  NvramCache c(small(10, 0.5));  // high water: 5 dirty lines
  for (int i = 0; i < 4; ++i) {
    c.write(i * 100 * 8, 8);
    EXPECT_FALSE(c.over_high_water()) << i;
  }
  c.write(400 * 8, 8);
  EXPECT_EQ(c.dirty_lines(), 5);
  EXPECT_TRUE(c.over_high_water());
  const auto run = c.next_destage();
  ASSERT_TRUE(run);
  c.destaged(*run);
  EXPECT_EQ(c.dirty_lines(), 4);
  EXPECT_FALSE(c.over_high_water());
}

TEST(NvramCache, OverwritesFoldIntoOneDestage) {
  NvramCache c(small(10));
  c.write(0, 8);
  c.write(0, 8);
  c.write(4, 2);  // part of the same line
  EXPECT_EQ(c.dirty_lines(), 1);
  const auto run = c.next_destage();
  ASSERT_TRUE(run);
  EXPECT_EQ(run->first_line, 0);
  EXPECT_EQ(run->lines, 1);
  EXPECT_FALSE(c.next_destage());  // nothing else waits
}

TEST(NvramCache, DestagesJoinContiguousLinesInAscendingOrder) {
  NvramCache c(small(20));
  for (int line : {7, 3, 4, 5, 12}) c.write(line * 8, 8);
  auto a = c.next_destage();
  auto b = c.next_destage();
  auto d = c.next_destage();
  ASSERT_TRUE(a && b && d);
  EXPECT_EQ(a->first_line, 3);
  EXPECT_EQ(a->lines, 3);  // 3, 4, 5 in one
  EXPECT_EQ(b->first_line, 7);
  EXPECT_EQ(d->first_line, 12);
  EXPECT_FALSE(c.next_destage());
}

TEST(NvramCache, RewriteDuringDestageStaysDirty) {
  NvramCache c(small(10));
  c.write(0, 8);
  const auto run = c.next_destage();
  ASSERT_TRUE(run);
  c.write(0, 8);  // new data while the old goes to the back-end
  c.destaged(*run);
  EXPECT_EQ(c.dirty_lines(), 1);
  EXPECT_TRUE(c.next_destage());
}

TEST(NvramCache, ReadsHitWrittenAndFilledLines) {
  NvramCache c(small(4));
  EXPECT_FALSE(c.read_hit(0, 16));
  c.write(0, 8);
  EXPECT_FALSE(c.read_hit(0, 16));  // the second line is not cached
  c.fill_clean(8, 8);
  EXPECT_TRUE(c.read_hit(0, 16));
}

TEST(NvramCache, AFullCacheOfDirtyLinesRefusesNewWritesButNotOverwrites) {
  NvramCache c(small(3));
  c.fill_clean(100 * 8, 8);
  for (int i = 0; i < 3; ++i) {
    ASSERT_TRUE(c.can_write(i * 8, 8));
    c.write(i * 8, 8);  // the clean line is evicted for the third
  }
  EXPECT_FALSE(c.read_hit(100 * 8, 8));
  EXPECT_FALSE(c.can_write(50 * 8, 8));
  EXPECT_TRUE(c.can_write(8, 8));
  const auto run = c.next_destage();
  ASSERT_TRUE(run);
  c.destaged(*run);
  EXPECT_TRUE(c.can_write(50 * 8, 8));
}

}  // namespace
}  // namespace memstore::sim
