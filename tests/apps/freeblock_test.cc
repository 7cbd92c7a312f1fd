// SPDX-License-Identifier: Apache-2.0
// The free-block scan (thesis §6.3.6): foreground placement, the choice of
// free blocks (checked against the device model's own batch planner), and
// whole scans on the simulated device.
#include "apps/freeblock.h"

#include <gtest/gtest.h>

#include <algorithm>
#include <set>

#include "model/batch.h"
#include "model/geometry.h"
#include "tests/apps/devices.h"

namespace memstore::apps {
namespace {

using testing::geometry_of;
using testing::small_params;

TEST(Foreground, StartsKeepTheRequestInOneRow) {
  const auto g = geometry_of(testing::g2_params());
  Foreground fg(g, 8, 7);
  std::set<Lbn> offsets;
  for (int i = 0; i < 5000; ++i) {
    const Lbn l = fg.next();
    ASSERT_LT(l + 8, g.blocks() + 1);
    ASSERT_LE(l % 10 + 8, 10u) << l;  // p = 10: offsets 0, 1, 2 only
    offsets.insert(l % 10);
    // One row: every block at the same position (x, y).
    for (Lbn b = l + 1; b < l + 8; ++b) {
      ASSERT_EQ(g.locate(b).x, g.locate(l).x);
      ASSERT_EQ(g.locate(b).y, g.locate(l).y);
    }
  }
  EXPECT_EQ(offsets, (std::set<Lbn>{0, 1, 2}));
}

TEST(Foreground, SameSeedSameSequence) {
  const auto g = geometry_of(testing::g2_params());
  Foreground a(g, 8, 42), b(g, 8, 42), c(g, 8, 43);
  bool differs = false;
  for (int i = 0; i < 100; ++i) {
    const Lbn x = a.next();
    EXPECT_EQ(x, b.next());
    differs = differs || x != c.next();
  }
  EXPECT_TRUE(differs);
}

// Every choice is unread, outside the request, in E(first), on its own
// square, and fg + free blocks is one media step for the model's planner.
void check_choices(const model::DeviceParams& params, int requests) {
  const auto g = geometry_of(params);
  const model::Geometry mg(params);
  ReadMap read(g.blocks());
  Foreground fg(g, 8, 3);
  std::vector<Lbn> free;
  std::uint64_t total = 0;
  for (int i = 0; i < requests; ++i) {
    const Lbn first = fg.next();
    pick_free_blocks(g, first, 8, read, free);
    ASSERT_LE(free.size(), g.parallelism() - 8u);
    total += free.size();
    const std::vector<Lbn> e = g.equivalent(first);
    std::set<std::uint32_t> squares, groups;
    std::vector<model::BatchExtent> batch{{model::Op::kRead, static_cast<model::Lbn>(first), 8}};
    for (Lbn l = first; l < first + 8; ++l) {
      squares.insert(g.locate(l).square);
      if (g.conflict_group() > 0) groups.insert(g.locate(l).square / g.conflict_group());
    }
    for (const Lbn l : free) {
      EXPECT_FALSE(read.test(l));
      EXPECT_TRUE(l < first || l >= first + 8);
      EXPECT_TRUE(std::binary_search(e.begin(), e.end(), l));
      EXPECT_TRUE(squares.insert(g.locate(l).square).second) << "two blocks on one tip";
      if (g.conflict_group() > 0) {
        EXPECT_TRUE(groups.insert(g.locate(l).square / g.conflict_group()).second);
      }
      batch.push_back({model::Op::kRead, static_cast<model::Lbn>(l), 1});
    }
    if (g.conflict_group() == 0) {
      EXPECT_EQ(model::plan_batch(mg, batch).size(), 1u) << "request at " << first;
    }
    for (Lbn l = first; l < first + 8; ++l) read.mark(l);
    for (const Lbn l : free) read.mark(l);
  }
  EXPECT_GT(total, 0u);
}

TEST(PickFreeBlocks, OneMediaStepOnG2) {
  check_choices(testing::g2_params(), 2000);
}
TEST(PickFreeBlocks, OneMediaStepWithMicropositioning) {
  check_choices(small_params(2), 3000);
}
TEST(PickFreeBlocks, P20LeavesTwelve) {
  model::DeviceParams p = testing::g2_params();
  p.active_tips = 1280;
  const auto g = geometry_of(p);
  ReadMap read(g.blocks());
  std::vector<Lbn> free;
  pick_free_blocks(g, 0, 8, read, free);
  EXPECT_EQ(free.size(), 12u);
  check_choices(p, 1000);
}
TEST(PickFreeBlocks, ConflictGroupsRespected) {
  check_choices(small_params(0, 2), 2000);
}

TEST(PickFreeBlocks, NothingLeftNothingPicked) {
  const auto g = geometry_of(small_params());
  ReadMap read(g.blocks());
  for (const Lbn l : g.equivalent(0)) read.mark(l);
  std::vector<Lbn> free{123};
  pick_free_blocks(g, 0, 8, read, free);
  EXPECT_TRUE(free.empty());
}

TEST(RunScan, ReadsTheWholeSmallDevice) {
  auto dev = testing::sim(small_params());
  auto r = run_scan(*dev, {});
  ASSERT_TRUE(r.ok()) << r.error().message;
  EXPECT_TRUE(r->complete);
  EXPECT_EQ(r->blocks_read, dev->blocks());
  EXPECT_EQ(r->foreground_new_blocks + r->free_blocks, dev->blocks());
  EXPECT_EQ(r->media_steps, r->requests);  // every batch one parallel access
  EXPECT_GT(r->mean_free_per_request(), 0.5);
  EXPECT_LE(r->mean_free_per_request(), 2.0);
  EXPECT_GT(r->service_ns, 0);
  // Samples: from 0 to 100 %, time and requests never going back.
  ASSERT_GE(r->samples.size(), 3u);
  EXPECT_EQ(r->samples.front().percent, 0.0);
  EXPECT_EQ(r->samples.back().percent, 100.0);
  for (std::size_t i = 1; i < r->samples.size(); ++i) {
    EXPECT_GE(r->samples[i].percent, r->samples[i - 1].percent);
    EXPECT_GE(r->samples[i].time_s, r->samples[i - 1].time_s);
  }
  EXPECT_DOUBLE_EQ(r->time_to(100), static_cast<double>(r->service_ns) * 1e-9);
}

TEST(RunScan, BackgroundReadsMoreInTheSameRequests) {
  ScanOptions with, without;
  with.max_requests = without.max_requests = 500;
  without.background = false;
  auto a = run_scan(*testing::sim(small_params()), with);
  auto b = run_scan(*testing::sim(small_params()), without);
  ASSERT_TRUE(a.ok() && b.ok());
  EXPECT_EQ(b->free_blocks, 0u);
  EXPECT_EQ(a->foreground_new_blocks + a->free_blocks, a->blocks_read);
  EXPECT_GT(a->blocks_read, b->blocks_read + 500);
}

TEST(RunScan, MicropositioningFinishesSooner) {
  auto m0 = run_scan(*testing::sim(small_params(0)), {});
  auto m2 = run_scan(*testing::sim(small_params(2)), {});
  ASSERT_TRUE(m0.ok() && m2.ok());
  EXPECT_TRUE(m0->complete && m2->complete);
  EXPECT_LT(m2->requests, m0->requests);
  EXPECT_GT(m2->mean_free_per_request(), m0->mean_free_per_request());
}

TEST(RunScan, CapsStopTheRun) {
  ScanOptions o;
  o.max_requests = 10;
  auto r = run_scan(*testing::sim(small_params()), o);
  ASSERT_TRUE(r.ok());
  EXPECT_EQ(r->requests, 10u);
  EXPECT_FALSE(r->complete);
}

TEST(RunScan, RequestLargerThanPIsRefused) {
  ScanOptions o;
  o.request_blocks = 11;
  auto r = run_scan(*testing::sim(small_params()), o);
  ASSERT_FALSE(r.ok());
  EXPECT_EQ(r.error().code, host::Error::Code::kInvalidArgument);
  EXPECT_NE(r.error().message.find("p = 10"), std::string::npos) << r.error().message;
}

}  // namespace
}  // namespace memstore::apps
