// SPDX-License-Identifier: Apache-2.0
// A weak actuator or spring over part of the sled's travel (model::SlowRegion,
// the "slow-seek" fault of docs/faults.md): positioning into the region
// takes `factor` times as long; elsewhere nothing changes.
#include <gtest/gtest.h>

#include <vector>

#include "model/geometry.h"
#include "model/mems_mechanism.h"

namespace memstore::model {
namespace {

Request read(Lbn lbn, std::int32_t blocks) {
  Request r;
  r.lbn = lbn;
  r.blocks = blocks;
  return r;
}

// Spun up, the sled where reading `lbn` left it.
MemsMechanism warmed_up(Lbn lbn) {
  MemsMechanism m(*preset("g2"));
  m.service(read(lbn, 1), 0);
  return m;
}

// The one-cylinder, one-row region around `lbn`'s sled position.
SlowRegion around(Lbn lbn, double factor) {
  const PhysicalAddress a = Geometry(*preset("g2")).to_physical(lbn);
  return {a.x, a.x, a.y, a.y, factor};
}

constexpr Lbn kFrom = 1000;
constexpr Lbn kTo = 3'000'000;  // far away in X and Y
constexpr Ns kNow = 1'000'000;

TEST(SlowRegion, PositioningIntoTheRegionTakesFactorTimesAsLong) {
  MemsMechanism healthy = warmed_up(kFrom);
  MemsMechanism weak = warmed_up(kFrom);
  const std::vector<SlowRegion> regions{around(kTo, 2.5)};
  weak.set_slow_regions(regions);
  const Breakdown h = healthy.service(read(kTo, 8), kNow);
  const Breakdown w = weak.service(read(kTo, 8), kNow);
  ASSERT_GT(h.seek_ns, 100'000);  // a real seek, so the factor shows
  // Each part is scaled before it is rounded to whole ns.
  EXPECT_NEAR(static_cast<double>(w.seek_ns), 2.5 * static_cast<double>(h.seek_ns), 2.0);
  EXPECT_NEAR(static_cast<double>(w.seek_x_ns), 2.5 * static_cast<double>(h.seek_x_ns), 2.0);
  EXPECT_NEAR(static_cast<double>(w.settle_ns), 2.5 * static_cast<double>(h.settle_ns), 2.0);
  EXPECT_NEAR(static_cast<double>(w.seek_y_ns), 2.5 * static_cast<double>(h.seek_y_ns), 2.0);
  // A fault in timing only: the media access itself is the same.
  EXPECT_EQ(w.transfer_ns, h.transfer_ns);
  EXPECT_EQ(w.media_steps, h.media_steps);
  EXPECT_EQ(weak.state(), healthy.state());
}

TEST(SlowRegion, PositioningElsewhereIsUnchanged) {
  MemsMechanism healthy = warmed_up(kFrom);
  MemsMechanism weak = warmed_up(kFrom);
  // The region around kTo; the access goes to kFrom's neighbour track.
  const std::vector<SlowRegion> regions{around(kTo, 4)};
  weak.set_slow_regions(regions);
  const Lbn elsewhere = 2'000'000;
  ASSERT_NE(around(elsewhere, 1), around(kTo, 1));
  const Breakdown h = healthy.service(read(elsewhere, 8), kNow);
  const Breakdown w = weak.service(read(elsewhere, 8), kNow);
  EXPECT_EQ(w.seek_ns, h.seek_ns);
  EXPECT_EQ(w.service_ns(), h.service_ns());
}

TEST(SlowRegion, RemovingTheRegionsRestoresTheHealthyTiming) {
  MemsMechanism healthy = warmed_up(kFrom);
  MemsMechanism weak = warmed_up(kFrom);
  const std::vector<SlowRegion> regions{around(kTo, 3)};
  weak.set_slow_regions(regions);
  weak.set_slow_regions({});
  EXPECT_EQ(weak.service(read(kTo, 8), kNow).service_ns(),
            healthy.service(read(kTo, 8), kNow).service_ns());
}

TEST(SlowRegion, OverlappingRegionsTakeTheLargestFactor) {
  MemsMechanism healthy = warmed_up(kFrom);
  MemsMechanism weak = warmed_up(kFrom);
  SlowRegion wide = around(kTo, 1.5);
  wide.x_first = 0;
  wide.y_last += 1;
  const std::vector<SlowRegion> regions{wide, around(kTo, 3)};
  weak.set_slow_regions(regions);
  const Breakdown h = healthy.service(read(kTo, 8), kNow);
  const Breakdown w = weak.service(read(kTo, 8), kNow);
  EXPECT_NEAR(static_cast<double>(w.seek_ns), 3.0 * static_cast<double>(h.seek_ns), 2.0);
}

TEST(SlowRegion, TheSchedulersEstimateDoesNotSeeIt) {
  // The device plans with its healthy model, as firmware would.
  MemsMechanism healthy = warmed_up(kFrom);
  MemsMechanism weak = warmed_up(kFrom);
  const std::vector<SlowRegion> regions{around(kTo, 2)};
  weak.set_slow_regions(regions);
  EXPECT_EQ(weak.positioning_ns(read(kTo, 8), kNow), healthy.positioning_ns(read(kTo, 8), kNow));
}

}  // namespace
}  // namespace memstore::model
