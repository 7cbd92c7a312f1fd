// SPDX-License-Identifier: Apache-2.0
// Batches (thesis §6.3.3-6.3.5): planning parallel media steps on the small
// device of Fig. 6.10, and serving batches on a G2 sled.
#include "model/batch.h"

#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <cstdint>
#include <cstdlib>
#include <initializer_list>
#include <vector>

#include "model/geometry.h"
#include "model/mems_mechanism.h"
#include "model/params.h"

namespace memstore::model {
namespace {

// Thesis Fig. 6.10 / Table 6.1: 9 squares, 3 active at once, 3 x 3 blocks per
// square. 8-byte blocks on one tip each keep the encoding rule (80 data bits);
// 3 rows of 90 bits plus the closing servo field give Sy = 3. The slow
// per-tip rate lets the sled reverse within its 3-bit range.
DeviceParams fig_6_10(std::int32_t micropositioning = 0, std::int32_t conflict_group = 0) {
  DeviceParams p;
  p.name = "fig6.10";
  p.tips = 9;
  p.active_tips = 3;
  p.tips_per_block = 1;
  p.block_bytes = 8;
  p.data_bits_per_sector = 80;
  p.region_bits_x = 3;
  p.region_bits_y = 3 * 90 + 10;
  p.per_tip_rate_bit_s = 100'000;
  p.micropositioning = micropositioning;
  p.conflict_group = conflict_group;
  return p;
}

std::vector<BatchExtent> blocks(std::initializer_list<Lbn> lbns) {
  std::vector<BatchExtent> out;
  for (Lbn l : lbns) out.push_back({Op::kRead, l, 1});
  return out;
}

std::vector<BatchExtent> blocks(const std::vector<Lbn>& lbns) {
  std::vector<BatchExtent> out;
  for (Lbn l : lbns) out.push_back({Op::kRead, l, 1});
  return out;
}

// The LBN sets of the steps, in a canonical order (steps at the same position
// may come out in any order).
std::vector<std::vector<Lbn>> lbn_sets(const std::vector<MediaStep>& steps) {
  std::vector<std::vector<Lbn>> out;
  for (const MediaStep& s : steps) out.push_back(s.lbns);
  std::sort(out.begin(), out.end());
  return out;
}

using Sets = std::vector<std::vector<Lbn>>;

TEST(BatchDeviceTest, Fig610DeviceIsValidWithTheThesisGeometry) {
  const DeviceParams p = fig_6_10();
  EXPECT_TRUE(validate(p).empty());
  const Geometry g(p);
  EXPECT_EQ(g.p(), 3);
  EXPECT_EQ(g.n(), 9);
  EXPECT_EQ(g.sx(), 3);
  EXPECT_EQ(g.sy(), 3);
  EXPECT_EQ(g.blocks(), 81);
  EXPECT_EQ(g.equivalence_class(33), (std::vector<Lbn>{33, 34, 35, 36, 37, 38, 51, 52, 53}));
  EXPECT_EQ(g.to_physical(33), (PhysicalAddress{0, 1, 0, 0}));
  EXPECT_TRUE(validate(fig_6_10(1, 3)).empty());
}

// --- Planning ----------------------------------------------------------------

TEST(BatchPlanTest, WholeEquivalenceClassTakesCeilNOverPStepsAtItsPosition) {
  const Geometry g(fig_6_10());
  const auto steps = plan_batch(g, blocks(g.equivalence_class(33)));
  ASSERT_EQ(steps.size(), 3u);  // ceil(9 / 3)
  for (const MediaStep& s : steps) {
    EXPECT_EQ(s.sled, 0);
    EXPECT_EQ(s.x, 1);
    EXPECT_EQ(s.y, 0);
    EXPECT_TRUE(std::is_sorted(s.lbns.begin(), s.lbns.end()));
  }
  EXPECT_EQ(lbn_sets(steps), (Sets{{33, 34, 35}, {36, 37, 38}, {51, 52, 53}}));
}

TEST(BatchPlanTest, MultiBlockExtentsPlanLikeTheirBlocks) {
  const Geometry g(fig_6_10());
  const std::vector<BatchExtent> extents = {
      {Op::kRead, 33, 3}, {Op::kRead, 36, 3}, {Op::kWrite, 51, 3}};
  EXPECT_EQ(lbn_sets(plan_batch(g, extents)), (Sets{{33, 34, 35}, {36, 37, 38}, {51, 52, 53}}));
}

TEST(BatchPlanTest, UpToPDisjointBlocksOfOneClassShareOneStep) {
  const Geometry g(fig_6_10());
  const auto steps = plan_batch(g, blocks({52, 33, 38}));  // the thesis' example
  ASSERT_EQ(steps.size(), 1u);
  EXPECT_EQ(steps[0].x, 1);
  EXPECT_EQ(steps[0].y, 0);
  EXPECT_EQ(steps[0].lbns, (std::vector<Lbn>{33, 38, 52}));
}

TEST(BatchPlanTest, BlocksInDifferentRowsTakeSeparateSteps) {
  const Geometry g(fig_6_10());
  ASSERT_EQ(g.to_physical(30).y, 1);  // same cylinder and square as 33, next row
  const auto steps = plan_batch(g, blocks({33, 30}));
  ASSERT_EQ(steps.size(), 2u);
  EXPECT_EQ(steps[0].x, 1);
  EXPECT_EQ(steps[1].x, 1);
  EXPECT_NE(steps[0].y, steps[1].y);
  EXPECT_EQ(lbn_sets(steps), (Sets{{30}, {33}}));
}

TEST(BatchPlanTest, BlocksInDifferentCylindersTakeSeparateStepsWithoutMicropositioning) {
  const Geometry g(fig_6_10());
  ASSERT_EQ(g.to_physical(1), (PhysicalAddress{0, 0, 0, 1}));
  const auto steps = plan_batch(g, blocks({1, 33}));
  ASSERT_EQ(steps.size(), 2u);
  EXPECT_EQ(steps[0].x, 0);  // sorted by (sled, x, y)
  EXPECT_EQ(steps[0].lbns, (std::vector<Lbn>{1}));
  EXPECT_EQ(steps[1].x, 1);
  EXPECT_EQ(steps[1].lbns, (std::vector<Lbn>{33}));
}

TEST(BatchPlanTest, TheSameBlockTwiceNeverSharesAStep) {
  const Geometry g(fig_6_10());
  const auto steps = plan_batch(g, blocks({33, 34, 33}));
  ASSERT_EQ(steps.size(), 2u);
  EXPECT_EQ(lbn_sets(steps), (Sets{{33}, {33, 34}}));
}

TEST(BatchPlanTest, ConflictGroupKeepsBlocksOfOneGroupApart) {
  const Geometry g(fig_6_10(0, 3));  // squares 0-2, 3-5, 6-8 share components
  // 33 (square 0) and 34 (square 1) conflict; 36 (square 3) does not.
  EXPECT_EQ(lbn_sets(plan_batch(g, blocks({33, 34}))), (Sets{{33}, {34}}));
  EXPECT_EQ(lbn_sets(plan_batch(g, blocks({33, 36}))), (Sets{{33, 36}}));
  // One block from each group fills a step: 33, 36, 51 (squares 0, 3, 6).
  const auto steps = plan_batch(g, blocks(g.equivalence_class(33)));
  ASSERT_EQ(steps.size(), 3u);
  for (const MediaStep& s : steps) {
    ASSERT_EQ(s.lbns.size(), 3u);
    for (std::size_t i = 0; i < s.lbns.size(); ++i) {
      for (std::size_t j = i + 1; j < s.lbns.size(); ++j) {
        EXPECT_NE(g.to_physical(s.lbns[i]).square / 3, g.to_physical(s.lbns[j]).square / 3);
      }
    }
  }
}

TEST(BatchPlanTest, MicropositioningLetsAdjacentCylindersShareAStep) {
  const Geometry g(fig_6_10(1));
  // 1 is (x 0, y 0, square 1); 33 is (x 1, y 0, square 0).
  const auto steps = plan_batch(g, blocks({1, 33}));
  ASSERT_EQ(steps.size(), 1u);
  EXPECT_EQ(steps[0].lbns, (std::vector<Lbn>{1, 33}));
  EXPECT_EQ(steps[0].y, 0);
  for (Lbn l : steps[0].lbns) EXPECT_LE(std::abs(steps[0].x - g.to_physical(l).x), 1) << l;
}

TEST(BatchPlanTest, MicropositioningReachesOneCylinderEachWay) {
  const Geometry g(fig_6_10(1));
  ASSERT_EQ(g.to_physical(69), (PhysicalAddress{0, 2, 0, 3}));
  // x 0 and x 2: the sled stops at x 1 and the tips reach both.
  const auto steps = plan_batch(g, blocks({1, 69}));
  ASSERT_EQ(steps.size(), 1u);
  EXPECT_EQ(steps[0].x, 1);
  EXPECT_EQ(steps[0].lbns, (std::vector<Lbn>{1, 69}));
}

TEST(BatchPlanTest, MicropositioningStillNeedsOneTipPerSquare) {
  const Geometry g(fig_6_10(1));
  // 0 (x 0) and 33 (x 1) are both in square 0: one tip, one column at a time.
  ASSERT_EQ(g.to_physical(0).square, g.to_physical(33).square);
  EXPECT_EQ(lbn_sets(plan_batch(g, blocks({0, 33}))), (Sets{{0}, {33}}));
}

TEST(BatchPlanTest, EmptyBatchPlansNoSteps) {
  const Geometry g(fig_6_10());
  EXPECT_TRUE(plan_batch(g, std::vector<BatchExtent>{}).empty());
}

// --- Serving batches on a G2 sled ------------------------------------------

constexpr Lbn kHome = 1'234'567;

// One block from each of the p tracks of kHome's equivalence class: one row
// of p distinct squares, i.e. one parallel access.
std::vector<Lbn> one_per_track(const Geometry& g) {
  const std::vector<Lbn> e = g.equivalence_class(kHome);
  std::vector<Lbn> out;
  for (std::size_t i = 0; i < e.size(); i += static_cast<std::size_t>(g.p())) out.push_back(e[i]);
  return out;
}

TEST(BatchServiceTest, ReportsAsManyMediaStepsAsPlanned) {
  MemsMechanism m(*preset("g2"));
  const auto extents = blocks(m.geometry().equivalence_class(kHome));
  ASSERT_EQ(extents.size(), 100u);
  const std::size_t planned = plan_batch(m.geometry(), extents).size();
  EXPECT_EQ(planned, 10u);
  const BatchOutcome out = m.service_batch(extents, 0);
  EXPECT_EQ(out.breakdown.media_steps, static_cast<std::int32_t>(planned));
  EXPECT_EQ(out.steps.size(), planned);
  EXPECT_EQ(out.breakdown.transfer_ns, std::llround(m.row_s() * 10 * 1e9));
}

TEST(BatchServiceTest, SingleStepCostsOneRowPlusItsPositioning) {
  const DeviceParams p = *preset("g2");
  MemsMechanism m(p);
  const std::vector<Lbn> lbns = one_per_track(m.geometry());
  ASSERT_EQ(lbns.size(), 10u);
  ASSERT_EQ(plan_batch(m.geometry(), blocks(lbns)).size(), 1u);

  Request first;
  first.lbn = kHome;
  const Ns positioning = m.positioning_ns(first, 0);
  const BatchOutcome out = m.service_batch(blocks(lbns), 0);
  const Breakdown& b = out.breakdown;
  EXPECT_EQ(b.media_steps, 1);
  EXPECT_EQ(b.transfer_ns, std::llround(m.row_s() * 1e9));
  EXPECT_EQ(b.switch_ns, 0);
  EXPECT_EQ(b.seek_ns, positioning);
  EXPECT_EQ(b.service_ns(), p.power.startup_ns + positioning + b.transfer_ns);
}

TEST(BatchServiceTest, OneClassAsABatchBeatsTheSameBlocksAsSeparateRequests) {
  const DeviceParams p = *preset("g2");
  MemsMechanism batched(p);
  MemsMechanism separate(p);
  const std::vector<Lbn> lbns = one_per_track(batched.geometry());
  const Ns batch_ns = batched.service_batch(blocks(lbns), 0).breakdown.service_ns();
  Ns now = 0;
  for (Lbn l : lbns) {
    Request r;
    r.lbn = l;
    now += separate.service(r, now).service_ns();
  }
  EXPECT_LT(batch_ns, now);
}

TEST(BatchServiceTest, LeavesTheSledIdleAtTheEndOfTheLastStep) {
  const DeviceParams p = *preset("g2");
  MemsMechanism m(p);
  const BatchOutcome out = m.service_batch(blocks(one_per_track(m.geometry())), 0);
  const Ns done = out.breakdown.service_ns();
  // Back-to-back work after the batch pays no startup; the energy accounts
  // for every nanosecond of the batch.
  EXPECT_FALSE(m.inactive());
  Ns total = 0;
  for (Ns t : m.energy(done).time_ns) total += t;
  EXPECT_EQ(total, done);
  Request next;
  next.lbn = kHome + 1;
  EXPECT_EQ(m.service(next, done).startup_ns, 0);
}

}  // namespace
}  // namespace memstore::model
