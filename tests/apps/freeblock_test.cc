// SPDX-License-Identifier: Apache-2.0
// The free-block scan (thesis §6.3.6): foreground placement anywhere, the
// accesses a request makes and the free blocks each leaves (checked against
// the device model's own batch planner), and whole scans on the simulated
// device.
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

// §6.1.1/§6.3.6: random 4 KB requests start anywhere, not at a row of p:
// every offset within a row occurs, and most requests cross a row boundary.
TEST(Foreground, StartsAnywhere) {
  const auto g = geometry_of(testing::g2_params());
  Foreground fg(g, 8, 7);
  std::set<Lbn> offsets;
  int crossing = 0;
  for (int i = 0; i < 5000; ++i) {
    const Lbn l = fg.next();
    ASSERT_LE(l + 8, g.blocks());
    offsets.insert(l % 10);
    if (l % 10 + 8 > 10) ++crossing;
  }
  EXPECT_EQ(offsets.size(), 10u);
  EXPECT_NEAR(crossing / 5000.0, 0.7, 0.03);  // offsets 3..9 of 10
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

// Every choice is unread, outside the request, in the class of one of the
// request's accesses, on a square (and conflict group) that access does not
// use, at most p - (its foreground blocks) per access; and fg + free blocks
// is as many media steps for the model's planner as the foreground alone.
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
    const auto accesses = foreground_accesses(g, first, 8);
    ASSERT_LE(free.size(), accesses.size() * g.parallelism() - 8u);
    total += free.size();
    std::vector<model::BatchExtent> fg_only{{model::Op::kRead, static_cast<model::Lbn>(first), 8}};
    std::vector<model::BatchExtent> batch = fg_only;
    std::size_t at = 0;  // free blocks come access by access
    for (const auto& access : accesses) {
      const std::vector<Lbn> e = g.equivalent(access.front());
      std::set<std::uint32_t> squares, groups;
      for (const Lbn l : access) {
        squares.insert(g.locate(l).square);
        if (g.conflict_group() > 0) groups.insert(g.locate(l).square / g.conflict_group());
      }
      std::size_t mine = 0;
      while (at < free.size() && std::binary_search(e.begin(), e.end(), free[at]) &&
             mine < g.parallelism() - access.size()) {
        const Lbn l = free[at++];
        ++mine;
        EXPECT_FALSE(read.test(l));
        EXPECT_TRUE(l < first || l >= first + 8);
        EXPECT_TRUE(squares.insert(g.locate(l).square).second) << "two blocks on one tip";
        if (g.conflict_group() > 0) {
          EXPECT_TRUE(groups.insert(g.locate(l).square / g.conflict_group()).second);
        }
        batch.push_back({model::Op::kRead, static_cast<model::Lbn>(l), 1});
      }
    }
    EXPECT_EQ(at, free.size()) << "a free block outside its access's class, at " << first;
    if (g.conflict_group() == 0) {
      EXPECT_EQ(model::plan_batch(mg, fg_only).size(), accesses.size()) << "request at " << first;
      EXPECT_EQ(model::plan_batch(mg, batch).size(), accesses.size()) << "request at " << first;
    }
    for (Lbn l = first; l < first + 8; ++l) read.mark(l);
    for (const Lbn l : free) read.mark(l);
  }
  EXPECT_GT(total, 0u);
}

TEST(PickFreeBlocks, NoExtraMediaStepOnG2) {
  check_choices(testing::g2_params(), 2000);
}
TEST(PickFreeBlocks, NoExtraMediaStepWithMicropositioning) {
  check_choices(small_params(2), 3000);
}
TEST(PickFreeBlocks, P20) {
  model::DeviceParams p = testing::g2_params();
  p.active_tips = 1280;
  const auto g = geometry_of(p);
  ReadMap read(g.blocks());
  std::vector<Lbn> free;
  pick_free_blocks(g, 0, 8, read, free);  // inside one row of 20
  EXPECT_EQ(free.size(), 12u);
  pick_free_blocks(g, 15, 8, read, free);  // 5 + 3 blocks of two rows
  EXPECT_EQ(free.size(), 32u);
  check_choices(p, 1000);
}
TEST(PickFreeBlocks, ConflictGroupsRespected) {
  check_choices(small_params(0, 2), 2000);
}

// The thesis' count (§6.3.6) on G2, p = 10: each position the sled is at
// gives p blocks, the foreground takes its own. A request inside a row
// leaves p - 8 = 2; one that straddles two rows of tips (5 blocks of one
// row, 3 of the next) is two accesses and leaves (10 - 5) + (10 - 3) = 12,
// 5 from the first row's class and 7 from the second's. The device serves
// either batch in the foreground's own media steps.
TEST(PickFreeBlocks, StraddlingRequestLeavesTheFreeBlocksTheThesisCounts) {
  const model::DeviceParams params = testing::g2_params();
  const auto g = geometry_of(params);
  ReadMap read(g.blocks());
  std::vector<Lbn> free;

  pick_free_blocks(g, 1000, 8, read, free);  // offsets 0..7 of row 100
  EXPECT_EQ(foreground_accesses(g, 1000, 8).size(), 1u);
  EXPECT_EQ(free.size(), 2u);

  const Lbn first = 1005;  // offsets 5..9 of row 100, 0..2 of row 101
  const auto accesses = foreground_accesses(g, first, 8);
  ASSERT_EQ(accesses.size(), 2u);
  EXPECT_EQ(accesses[0].size(), 5u);
  EXPECT_EQ(accesses[1].size(), 3u);
  pick_free_blocks(g, first, 8, read, free);
  ASSERT_EQ(free.size(), 12u);
  const auto e0 = g.equivalent(1005), e1 = g.equivalent(1010);
  int in0 = 0, in1 = 0;
  for (const Lbn l : free) {
    in0 += std::binary_search(e0.begin(), e0.end(), l) ? 1 : 0;
    in1 += std::binary_search(e1.begin(), e1.end(), l) ? 1 : 0;
  }
  EXPECT_EQ(in0, 5);
  EXPECT_EQ(in1, 7);

  auto dev = testing::sim(params);
  std::vector<Extent> alone{{Op::kRead, first, 8}};
  std::vector<Extent> batch = alone;
  for (const Lbn l : free) batch.push_back({Op::kRead, l, 1});
  auto a = dev->read(alone);
  auto b = dev->read(batch);
  ASSERT_TRUE(a.ok() && b.ok());
  EXPECT_EQ(a->media_steps, 2u);
  EXPECT_EQ(b->media_steps, 2u);
}

// Where a request crosses a track within its cylinder, the next track runs
// the other way (§2.4) and starts at the same row position: one access, on
// other squares. Across a cylinder it is two accesses, or one when the tips
// reach the next cylinder by micropositioning (M >= 1).
TEST(PickFreeBlocks, TrackAndCylinderBoundaries) {
  model::DeviceParams params = testing::g2_params();
  const auto g = geometry_of(params);
  ReadMap read(g.blocks());
  std::vector<Lbn> free;
  pick_free_blocks(g, 270 - 5, 8, read, free);  // track 0 -> track 1
  EXPECT_EQ(foreground_accesses(g, 270 - 5, 8).size(), 1u);
  EXPECT_EQ(free.size(), 2u);
  pick_free_blocks(g, 2700 - 5, 8, read, free);  // cylinder 0 -> cylinder 1
  EXPECT_EQ(foreground_accesses(g, 2700 - 5, 8).size(), 2u);
  EXPECT_EQ(free.size(), 12u);
  params.micropositioning = 5;
  const auto gm = geometry_of(params);
  pick_free_blocks(gm, 2700 - 5, 8, read, free);
  EXPECT_EQ(foreground_accesses(gm, 2700 - 5, 8).size(), 1u);
  EXPECT_EQ(free.size(), 2u);
}

// Averaged over random starts on an unread G2 (p = 10, M = 0), the count
// above gives: of a cylinder's 2,700 starts, 1,827 cross into another
// position (offsets 3-9 of the 26 rows of each track that are followed by
// another row, and of the last row of the cylinder's last track) and leave
// 12; the other 873 leave 2: (873·2 + 1827·12) / 2700 = 8.767 free blocks
// and 1.677 accesses per request.
TEST(PickFreeBlocks, MeanOverRandomStartsOnAnUnreadG2) {
  const auto g = geometry_of(testing::g2_params());
  const ReadMap unread(g.blocks());
  Foreground fg(g, 8, 11);
  std::vector<Lbn> free;
  double total = 0, accesses = 0;
  constexpr int kRequests = 40'000;
  for (int i = 0; i < kRequests; ++i) {
    const Lbn first = fg.next();
    pick_free_blocks(g, first, 8, unread, free);
    total += static_cast<double>(free.size());
    accesses += static_cast<double>(foreground_accesses(g, first, 8).size());
  }
  EXPECT_NEAR(total / kRequests, 23670.0 / 2700, 0.1);
  EXPECT_NEAR(accesses / kRequests, 1.0 + 1827.0 / 2700, 0.01);
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
  // Free blocks cost no media step: the device needed the foreground's.
  EXPECT_EQ(r->media_steps, r->foreground_accesses);
  EXPECT_GT(r->mean_accesses_per_request(), 1.3);  // most requests cross a row
  EXPECT_GT(r->mean_free_per_request(), 0.0);
  EXPECT_LE(r->mean_free_per_request(), 12.0);
  // While the scan is young, far more than p - 8 = 2 per request: most
  // requests visit two positions and leave 12.
  ASSERT_GE(r->samples.size(), 2u);
  EXPECT_GT(
      static_cast<double>(r->samples[1].free_blocks) / static_cast<double>(r->samples[1].requests),
      5.0);
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

TEST(RunScan, RequestLargerThanTheDeviceIsRefused) {
  ScanOptions o;
  o.request_blocks = 20'001;
  auto r = run_scan(*testing::sim(small_params()), o);
  ASSERT_FALSE(r.ok());
  EXPECT_EQ(r.error().code, host::Error::Code::kInvalidArgument);
  EXPECT_NE(r.error().message.find("20000 blocks"), std::string::npos) << r.error().message;
  o.request_blocks = 0;
  EXPECT_FALSE(run_scan(*testing::sim(small_params()), o).ok());
}

}  // namespace
}  // namespace memstore::apps
