// SPDX-License-Identifier: Apache-2.0
// DualStripe's sequentiality detection (Uysal, Merchant and Alvarez, FAST '03, §3.4): a read
// is sequential when the 32 KB before it were read among the last 300 reads.
#include "sim/sequential_detector.h"

#include <gtest/gtest.h>

namespace memstore::sim {
namespace {

TEST(SequentialDetector, TheThirtyTwoKilobytesBeforeMustHaveBeenRead) {
  SequentialDetector d({});
  EXPECT_FALSE(d.read(1000, 32));  // nothing recorded
  EXPECT_FALSE(d.read(1032, 32));  // only 16 KB before it
  EXPECT_TRUE(d.read(1064, 8));    // 1000-1063: 32 KB
}

TEST(SequentialDetector, SmallReadsTogetherCoverTheThreshold) {
  SequentialDetector d({});
  for (int i = 0; i < 8; ++i) d.read(5000 + i * 8, 8);  // 4 KB each, 32 KB in all
  EXPECT_TRUE(d.read(5064, 8));
}

TEST(SequentialDetector, AGapBreaksTheRun) {
  SequentialDetector d({});
  d.read(5000, 30);
  d.read(5031, 33);  // block 5030 never read
  EXPECT_FALSE(d.read(5064, 8));
}

TEST(SequentialDetector, OnlyTheLastWindowReadsCount) {
  SequentialDetector d({});
  d.read(9000, 64);
  for (int i = 0; i < 299; ++i) d.read(100'000 + i * 1000, 1);
  EXPECT_TRUE(d.read(9064, 1));  // 9000 is the 300th read back: still in the window
  SequentialDetector e({});
  e.read(9000, 64);
  for (int i = 0; i < 300; ++i) e.read(100'000 + i * 1000, 1);
  EXPECT_FALSE(e.read(9064, 1));  // pushed out of the window
}

TEST(SequentialDetector, UsesThePapersWindowAndThreshold) {
  const SequentialityParams p;
  EXPECT_EQ(p.window, 300);
  EXPECT_EQ(p.threshold_blocks * 512, 32 * 1024);
}

}  // namespace
}  // namespace memstore::sim
