// SPDX-License-Identifier: Apache-2.0
// LogDisk's log-structured disk copy (Uysal, Merchant and Alvarez, FAST '03, §3.3): appends
// at the end of the current extent, an overwrite supersedes the older extent's block,
// cleaning moves only the active blocks and one extent at a time.
#include "sim/extent_log.h"

#include <gmock/gmock.h>
#include <gtest/gtest.h>

namespace memstore::sim {
namespace {

using ::testing::ElementsAre;

// One disk of 6 extents of 4 units; the volume's 10 units fill extents 0-1 and half of 2.
ExtentLogParams small() {
  ExtentLogParams p;
  p.disks = 1;
  p.extents_per_disk = 6;
  p.extent_units = 4;
  p.unit_blocks = 8;
  p.volume_units = 10;
  return p;
}

TEST(ExtentLog, StartsWithTheDataInAddressOrder) {
  const ExtentLog log(small());
  EXPECT_EQ(log.where(5).lbn, 5 * 8);
  EXPECT_THAT(log.live_units(1), ElementsAre(4, 5, 6, 7));
  EXPECT_EQ(log.live_units_in(2), 2);
}

TEST(ExtentLog, AppendsAtTheEndOfTheCurrentExtent) {
  ExtentLog log(small());
  const auto a = log.append(5, 0);
  const auto b = log.append(1, 0);
  ASSERT_TRUE(a && b);
  // The current extent is the first clean one, 3: slots 12 and 13, one after the other.
  EXPECT_EQ(a->lbn, 12 * 8);
  EXPECT_EQ(b->lbn, 13 * 8);
  EXPECT_EQ(log.where(5).lbn, 12 * 8);
}

TEST(ExtentLog, AnOverwriteSupersedesTheOlderExtentsBlock) {
  ExtentLog log(small());
  ASSERT_TRUE(log.append(5, 0));
  EXPECT_THAT(log.live_units(1), ElementsAre(4, 6, 7));
  EXPECT_EQ(log.live_units_in(1), 3);
  ASSERT_TRUE(log.append(5, 0));  // again: the copy in the current extent is superseded
  EXPECT_THAT(log.live_units(3), ElementsAre(5));
}

TEST(ExtentLog, CleaningMovesOnlyLiveBlocksAndFreesTheExtent) {
  ExtentLog log(small());
  for (std::int64_t u : {4, 6}) ASSERT_TRUE(log.append(u, 0));
  // Extent 1 keeps 5 and 7, extent 2 (8, 9) also two: the tie goes to the lower extent.
  const auto cleaning = log.begin_cleaning();
  ASSERT_TRUE(cleaning);
  EXPECT_EQ(*cleaning, 1);
  EXPECT_FALSE(log.begin_cleaning());  // one extent at a time
  const std::vector<std::int64_t> live = log.live_units(*cleaning);
  EXPECT_THAT(live, ElementsAre(5, 7));
  for (std::int64_t u : live) ASSERT_TRUE(log.append(u, 0));
  EXPECT_TRUE(log.is_clean(1));
  EXPECT_FALSE(log.being_cleaned());
  EXPECT_EQ(log.extents_cleaned(), 1);
  EXPECT_EQ(log.where(7).lbn, 15 * 8);  // the end of the current extent
}

TEST(ExtentLog, AFullDiskRefusesUntilCleanedAndTheCleanerHasItsReserve) {
  ExtentLogParams p = small();
  p.extents_per_disk = 7;
  p.volume_units = 20;  // extents 0-4 hold the data; 5 is current, 6 the cleaner's reserve
  ExtentLog log(p);
  for (std::int64_t u : {0, 4, 8, 12}) ASSERT_TRUE(log.append(u, 0));  // extent 5 full
  EXPECT_FALSE(log.append(16, 0));       // the reserve is not the foreground's
  EXPECT_EQ(log.where(16).lbn, 16 * 8);  // unchanged
  const auto e = log.begin_cleaning();
  ASSERT_TRUE(e);
  EXPECT_EQ(*e, 0);
  for (std::int64_t u : log.live_units(*e)) ASSERT_TRUE(log.append(u, 0, /*cleaning=*/true));
  EXPECT_TRUE(log.is_clean(0));
  ASSERT_TRUE(log.append(16, 0));   // the last slot of extent 6
  EXPECT_FALSE(log.append(17, 0));  // extent 0 is the reserve now
}

TEST(ExtentLog, EveryDiskAppendsToItsOwnCurrentExtent) {
  ExtentLogParams p = small();
  p.disks = 2;  // extents alternate between the disks
  ExtentLog log(p);
  const auto a = log.append(0, 0);
  const auto b = log.append(1, 1);
  ASSERT_TRUE(a && b);
  EXPECT_EQ(a->disk, 0);
  EXPECT_EQ(b->disk, 1);
  EXPECT_EQ(log.where(1).disk, 1);
}

}  // namespace
}  // namespace memstore::sim
