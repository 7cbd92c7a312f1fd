// SPDX-License-Identifier: Apache-2.0
// memsim's progress line (sim/progress.h): what it shows, how often, and
// that it leaves nothing behind.
#include "sim/progress.h"

#include <gmock/gmock.h>
#include <gtest/gtest.h>

#include <sstream>

namespace memstore::sim {
namespace {

using std::chrono::milliseconds;
using Time = std::chrono::steady_clock::time_point;

TEST(Progress, ShowsDoneOfTotalTheRateAndTheTimeLeft) {
  Time now{};
  std::ostringstream out;
  {
    Progress p("memsim sweep", 10, "points", &out, [&] { return now; });
    now += milliseconds(2000);
    p.step(4);  // 4 in 2 s: 2/s, 6 left: 3 s
    EXPECT_EQ(out.str(), "\rmemsim sweep: 4/10 points, 2/s, 3 s left");
  }
  // Cleared at the end: the line is overwritten with spaces.
  EXPECT_THAT(out.str(), ::testing::EndsWith("\r" + std::string(40, ' ') + "\r"));
}

TEST(Progress, RedrawsAtMostTwiceASecondButAlwaysShowsTheLastStep) {
  Time now{};
  std::ostringstream out;
  Progress p("memsim array", 3, "runs", &out, [&] { return now; });
  now += milliseconds(100);
  p.step();  // too soon after the start
  EXPECT_EQ(out.str(), "");
  now += milliseconds(500);
  p.step();
  EXPECT_THAT(out.str(), ::testing::HasSubstr("2/3 runs"));
  now += milliseconds(10);
  p.step();  // the last one, however soon
  EXPECT_THAT(out.str(), ::testing::HasSubstr("3/3 runs"));
}

TEST(Progress, WithoutATerminalNothingIsWritten) {
  Time now{};
  Progress p("memsim power", 2, "runs", nullptr, [&] { return now; });
  now += milliseconds(1000);
  p.step(2);
  EXPECT_EQ(p.line(0, 0), "memsim power: 0/2 runs");
}

}  // namespace
}  // namespace memstore::sim
