// SPDX-License-Identifier: Apache-2.0
// MEMScache's log of cache lines (Uysal, Merchant and Alvarez, FAST '03, §3.5): appends to
// the log, older copies marked empty, flushing between the high- and low-water marks, in
// ascending address order with contiguous lines joined.
#include "sim/mems_cache_log.h"

#include <gtest/gtest.h>

namespace memstore::sim {
namespace {

MemsCacheLogParams small(std::int64_t slots) {
  MemsCacheLogParams p;
  p.slots = slots;
  p.high_water = 0.8;
  p.low_water = 0.5;
  p.max_flush_lines = 8;
  return p;
}

TEST(MemsCacheLog, ARewriteIsAppendedAndTheOlderSlotEmptied) {
  MemsCacheLog c(small(10));
  EXPECT_EQ(c.append(42, true), 0);
  EXPECT_EQ(c.append(7, false), 1);
  EXPECT_EQ(c.append(42, true), 2);
  EXPECT_EQ(c.slot_of(42), 2);
  EXPECT_EQ(c.cached_lines(), 2);
  EXPECT_EQ(c.dirty_lines(), 1);
}

TEST(MemsCacheLog, TheHeadEvictsCleanLinesAndSkipsDirtyOnes) {
  MemsCacheLog c(small(3));
  c.append(1, true);
  c.append(2, false);
  c.append(3, true);
  EXPECT_EQ(c.append(4, false), 1);  // slot 0 holds dirty 1: skipped; clean 2 evicted
  EXPECT_FALSE(c.slot_of(2));
  EXPECT_TRUE(c.slot_of(1));
  EXPECT_FALSE(c.append(5, true) && c.append(6, true) && c.append(8, true));
}

TEST(MemsCacheLog, FlushingRunsFromTheHighToTheLowWaterMark) {
  MemsCacheLog c(small(10));  // high water 8 dirty lines, low water 5
  for (int line = 0; line < 7; ++line) c.append(line * 10, true);
  EXPECT_FALSE(c.flushing());
  c.append(70, true);
  EXPECT_TRUE(c.flushing());
  int flushed = 0;
  while (c.flushing()) {
    const auto run = c.next_flush();
    ASSERT_TRUE(run);
    c.flushed(*run);
    ++flushed;
  }
  EXPECT_EQ(flushed, 4);  // 8 dirty down to 4, below 5
  EXPECT_EQ(c.dirty_lines(), 4);
  c.append(200, true);  // 5 dirty: between the marks, not flushing
  EXPECT_FALSE(c.flushing());
}

TEST(MemsCacheLog, FlushesGoInAscendingOrderWithContiguousLinesJoined) {
  MemsCacheLog c(small(20));
  for (int line : {30, 10, 11, 12, 20}) c.append(line, true);
  const auto a = c.next_flush();
  const auto b = c.next_flush();
  const auto d = c.next_flush();
  ASSERT_TRUE(a && b && d);
  EXPECT_EQ(a->first_line, 10);
  EXPECT_EQ(a->lines, 3);
  EXPECT_EQ(b->first_line, 20);
  EXPECT_EQ(d->first_line, 30);
  c.flushed(*a);
  EXPECT_EQ(c.dirty_lines(), 2);
  EXPECT_TRUE(c.slot_of(11));  // flushed lines stay cached, clean
}

}  // namespace
}  // namespace memstore::sim
