// SPDX-License-Identifier: Apache-2.0
// Device-internal schedulers (thesis §6.1; second paper §4.1): the choice
// rule of each, checked on a fake mechanism whose positioning times and media
// points the test controls, and SPTF checked against the real G2 sled.
#include "model/scheduler.h"

#include <gtest/gtest.h>

#include <algorithm>
#include <cstdint>
#include <cstdlib>
#include <limits>
#include <map>
#include <memory>
#include <random>
#include <string>
#include <utility>
#include <vector>

#include "model/mems_mechanism.h"
#include "model/params.h"
#include "model/schedulers_positioning.h"

namespace memstore::model {
namespace {

// A mechanism whose positioning time is |lbn - head| * kNsPerBlock unless the
// test overrides it per LBN, and whose media points are u = lbn / blocks()
// (v = 0, running up) unless overridden.
class FakeMechanism final : public Mechanism {
 public:
  static constexpr Ns kNsPerBlock = 10;

  std::int64_t blocks() const override { return 1'000'000; }
  Ns positioning_ns(const Request& r, Ns) const override {
    const auto it = cost.find(r.lbn);
    return it != cost.end() ? it->second : std::abs(r.lbn - head) * kNsPerBlock;
  }
  Breakdown service(const Request& r, Ns now) override {
    Breakdown b;
    b.seek_ns = positioning_ns(r, now);
    b.transfer_ns = r.blocks * kNsPerBlock;
    b.media_steps = 1;
    head = r.lbn + r.blocks;
    return b;
  }
  MediaPoint point_of(Lbn lbn) const override {
    const auto it = points.find(lbn);
    if (it != points.end()) return it->second;
    return {static_cast<double>(lbn) / static_cast<double>(blocks()), 0.0, true};
  }
  MediaPoint current_point() const override { return here; }

  Lbn head = 0;
  MediaPoint here{0.5, 0.5, true};
  std::map<Lbn, Ns> cost;
  std::map<Lbn, MediaPoint> points;
};

Request req(std::uint64_t id, Lbn lbn, Ns arrival_ns = 0, std::int32_t blocks = 1) {
  Request r;
  r.id = id;
  r.lbn = lbn;
  r.arrival_ns = arrival_ns;
  r.blocks = blocks;
  return r;
}

// Picks until the queue is empty, serving each pick on `m`; returns the ids in
// service order.
std::vector<std::uint64_t> serve_all(Scheduler& s, FakeMechanism& m, Ns now = 0) {
  std::vector<std::uint64_t> ids;
  while (!s.empty()) {
    const Request r = s.pick(m, now);
    m.service(r, now);
    ids.push_back(r.id);
  }
  return ids;
}

std::unique_ptr<Scheduler> make(const char* name, const SchedulerOptions& o = {}) {
  auto s = make_scheduler(name, o);
  EXPECT_NE(s, nullptr) << name;
  return s;
}

using Ids = std::vector<std::uint64_t>;

// --- Factory ---------------------------------------------------------------

TEST(SchedulerFactoryTest, ListsTheSevenSchedulersOfTheThesisAndPaper) {
  EXPECT_EQ(scheduler_names(), (std::vector<std::string>{"fcfs", "clook", "sstf", "sptf", "asptf",
                                                         "sdf", "zsptf", "zfcfs", "ztsptf"}));
}

TEST(SchedulerFactoryTest, EveryListedNameMakesASchedulerOfThatName) {
  for (const std::string& name : scheduler_names()) {
    const auto s = make_scheduler(name);
    ASSERT_NE(s, nullptr) << name;
    EXPECT_EQ(std::string(s->name()), name);
    EXPECT_TRUE(s->empty());
  }
}

TEST(SchedulerFactoryTest, UnknownNameGivesNull) {
  EXPECT_EQ(make_scheduler("lifo"), nullptr);
  EXPECT_EQ(make_scheduler(""), nullptr);
  EXPECT_EQ(make_scheduler("sptf "), nullptr);
}

TEST(SchedulerFactoryTest, SizeCountsAddedAndNotYetPicked) {
  FakeMechanism m;
  for (const std::string& name : scheduler_names()) {
    auto s = make_scheduler(name);
    s->add(req(1, 10));
    s->add(req(2, 20));
    EXPECT_EQ(s->size(), 2u) << name;
    s->pick(m, 0);
    EXPECT_EQ(s->size(), 1u) << name;
  }
}

// --- FCFS ------------------------------------------------------------------

TEST(SchedulerFcfsTest, ServesInSubmitOrderWhateverThePosition) {
  FakeMechanism m;
  auto s = make("fcfs");
  const std::vector<std::pair<std::uint64_t, Lbn>> queue = {
      {1, 900}, {2, 5}, {3, 400}, {4, 5}, {5, 0}};
  for (const auto& [id, lbn] : queue) s->add(req(id, lbn));
  EXPECT_EQ(serve_all(*s, m), (Ids{1, 2, 3, 4, 5}));
}

// --- C-LOOK ----------------------------------------------------------------

TEST(SchedulerClookTest, AscendsFromTheLastRequestsEndThenWrapsToTheLowest) {
  FakeMechanism m;
  auto s = make("clook");
  s->add(req(1, 100, 0, 8));  // alone: served first, ends at 108
  EXPECT_EQ(s->pick(m, 0).id, 1u);
  s->add(req(2, 50));
  s->add(req(3, 200));
  s->add(req(4, 108));  // exactly at the last end: still ahead
  s->add(req(5, 104));  // inside the last request: behind, waits for the wrap
  s->add(req(6, 20));
  EXPECT_EQ(serve_all(*s, m), (Ids{4, 3, 6, 2, 5}));
}

TEST(SchedulerClookTest, EqualLbnsGoEarliestArrivalFirstAndTheRepeatWaitsForTheNextSweep) {
  FakeMechanism m;
  auto s = make("clook");
  s->add(req(1, 300));
  s->add(req(2, 300));
  s->add(req(3, 10));
  s->add(req(4, 10));
  // From 0: the first 10 ends at 11, so the second 10 lies behind the head
  // and waits for the wrap; likewise at 300.
  EXPECT_EQ(serve_all(*s, m), (Ids{3, 1, 4, 2}));
}

// --- SSTF ------------------------------------------------------------------

TEST(SchedulerSstfTest, PicksTheLbnClosestToTheLastEndInEitherDirection) {
  FakeMechanism m;
  auto s = make("sstf");
  s->add(req(1, 1000));  // ends at 1001
  EXPECT_EQ(s->pick(m, 0).id, 1u);
  s->add(req(2, 900));   // 101 below
  s->add(req(3, 1200));  // 199 above
  s->add(req(4, 1050));  // 49 above: first; ends at 1051
  // Then 900 is 151 below and 1200 is 149 above: 1200; then 900.
  EXPECT_EQ(serve_all(*s, m), (Ids{4, 3, 2}));
}

TEST(SchedulerSstfTest, TieGoesToTheLowerLbnAndEqualLbnsToTheEarlierArrival) {
  FakeMechanism m;
  auto s = make("sstf");
  s->add(req(1, 100, 0, 10));  // ends at 110
  EXPECT_EQ(s->pick(m, 0).id, 1u);
  s->add(req(2, 120));  // 10 above
  s->add(req(3, 100));  // 10 below: the tie goes here
  s->add(req(4, 100));  // same LBN, later
  // After 3 the head is at 101: 4 is 1 away, 2 is 19.
  EXPECT_EQ(serve_all(*s, m), (Ids{3, 4, 2}));
}

TEST(SchedulerSstfTest, EqualLbnsAllBelowTheHeadKeepArrivalOrder) {
  FakeMechanism m;
  auto s = make("sstf");
  s->add(req(1, 1000));  // ends at 1001; everything after lies below
  EXPECT_EQ(s->pick(m, 0).id, 1u);
  s->add(req(2, 100));
  s->add(req(3, 100));
  s->add(req(4, 100));
  EXPECT_EQ(serve_all(*s, m), (Ids{2, 3, 4}));
}

// --- SPTF ------------------------------------------------------------------

TEST(SchedulerSptfTest, PicksTheMinimumPositioningTimeNotTheNearestLbn) {
  FakeMechanism m;
  m.cost = {{10, 500}, {20, 100}, {30, 300}};
  auto s = make("sptf");
  s->add(req(1, 10));
  s->add(req(2, 20));
  s->add(req(3, 30));
  EXPECT_EQ(serve_all(*s, m), (Ids{2, 3, 1}));
}

TEST(SchedulerSptfTest, TieGoesToTheEarliestArrival) {
  FakeMechanism m;
  m.head = 100;  // 50 and 150 are both 500 ns away
  {
    auto s = make("sptf");
    s->add(req(1, 150));
    s->add(req(2, 50));
    EXPECT_EQ(s->pick(m, 0).id, 1u);
  }
  {
    auto s = make("sptf");
    s->add(req(1, 50));
    s->add(req(2, 150));
    EXPECT_EQ(s->pick(m, 0).id, 1u);
  }
}

// --- Aged SPTF -------------------------------------------------------------

// An old request (arrived at 0, 5000 ns away) against a new one (arrived
// now, 4000 ns away): the old one wins once age_weight * wait > 1000 ns.
std::uint64_t old_or_new(const char* name, double age_weight, Ns now) {
  FakeMechanism m;
  m.cost = {{1, 5000}, {2, 4000}};
  SchedulerOptions o;
  o.age_weight = age_weight;
  auto s = make_scheduler(name, o);
  s->add(req(1, 1, 0));
  s->add(req(2, 2, now));
  return s->pick(m, now).id;
}

TEST(SchedulerAsptfTest, OldRequestWinsOnceWeightedWaitExceedsThePositioningDifference) {
  // w = 0.5: the break-even wait is exactly 2000 ns.
  EXPECT_EQ(old_or_new("asptf", 0.5, 1999), 2u);
  EXPECT_EQ(old_or_new("asptf", 0.5, 2000), 1u);  // equal cost: earlier arrival
  EXPECT_EQ(old_or_new("asptf", 0.5, 2001), 1u);
  // The default w = 0.01: the break-even wait is 100 us.
  EXPECT_EQ(old_or_new("asptf", 0.01, 99'900), 2u);
  EXPECT_EQ(old_or_new("asptf", 0.01, 100'100), 1u);
}

TEST(SchedulerAsptfTest, PlainSptfNeverAges) {
  EXPECT_EQ(old_or_new("sptf", 0.5, 1'000'000'000), 2u);
}

// --- SDF -------------------------------------------------------------------

TEST(SchedulerSdfTest, PicksTheShortestEuclideanDistanceOnTheMediaIgnoringPositioningTime) {
  FakeMechanism m;
  m.here = {0.5, 0.5, true};
  m.points = {{1, {0.5, 0.875, true}},   // distance 0.375 (along v only)
              {2, {0.75, 0.75, false}},  // distance sqrt(0.125) = 0.354
              {3, {0.125, 0.5, true}}};  // distance 0.375 (along u only)
  m.cost = {{1, 10}, {2, 1'000'000}, {3, 5}};
  auto s = make("sdf");
  s->add(req(1, 1));
  s->add(req(2, 2));
  s->add(req(3, 3));
  // Euclidean, not Manhattan (2 would be 0.5 away) nor SPTF (3 first);
  // then 1 and 3 tie at 0.375 and the earlier arrival goes first.
  EXPECT_EQ(serve_all(*s, m), (Ids{2, 1, 3}));
}

// --- ZSPTF -----------------------------------------------------------------

TEST(SchedulerZsptfTest, ZoneGridOf20By2CellsHas80ZonesAndCoarsensByHalves) {
  const ZsptfScheduler z{SchedulerOptions{}};
  EXPECT_EQ(z.zones_at(0), 80);  // 20 x 2 cells, two directions each
  EXPECT_EQ(z.zones_at(1), 20);  // 10 x 1
  EXPECT_EQ(z.zones_at(2), 10);  // 5 x 1
  EXPECT_EQ(z.zones_at(3), 4);   // 2 x 1
  EXPECT_EQ(z.zones_at(4), 2);   // one cell, two directions
  EXPECT_EQ(z.zones_at(5), 1);   // everything: SPTF
  EXPECT_EQ(z.zones_at(9), 1);
}

TEST(SchedulerZsptfTest, ZonesAreNumberedXMajorThenYThenDirection) {
  const ZsptfScheduler z{SchedulerOptions{}};
  EXPECT_EQ(z.zone_of({0.0, 0.0, true}, 0), 0);
  EXPECT_EQ(z.zone_of({0.0, 0.0, false}, 0), 1);
  EXPECT_EQ(z.zone_of({0.0, 0.6, true}, 0), 2);  // upper Y cell of the same X
  EXPECT_EQ(z.zone_of({0.0, 0.6, false}, 0), 3);
  EXPECT_EQ(z.zone_of({0.06, 0.0, true}, 0), 4);    // next X cell
  EXPECT_EQ(z.zone_of({0.55, 0.3, false}, 0), 45);  // cell x 11, y 0
  EXPECT_EQ(z.zone_of({0.999, 0.999, false}, 0), 79);
  EXPECT_EQ(z.zone_of({1.0, 1.0, false}, 0), 79);   // the far edge stays inside
  EXPECT_EQ(z.zone_of({0.55, 0.9, false}, 1), 11);  // 10 x 1 cells: cell 5
  EXPECT_EQ(z.zone_of({0.55, 0.9, true}, 2), 4);    // 5 x 1 cells: cell 2
  EXPECT_EQ(z.zone_of({0.55, 0.9, false}, 4), 1);   // one cell: direction only
  EXPECT_EQ(z.zone_of({0.55, 0.9, false}, 5), 0);   // one zone
}

TEST(SchedulerZsptfTest, PyramidingLevelIsTheFinestWithAtLeastOnePendingPerZone) {
  const ZsptfScheduler z{SchedulerOptions{}};  // pyramid_min_per_zone = 1
  EXPECT_EQ(z.level_for(1000), 0);
  EXPECT_EQ(z.level_for(80), 0);
  EXPECT_EQ(z.level_for(79), 1);
  EXPECT_EQ(z.level_for(20), 1);
  EXPECT_EQ(z.level_for(19), 2);
  EXPECT_EQ(z.level_for(10), 2);
  EXPECT_EQ(z.level_for(9), 3);
  EXPECT_EQ(z.level_for(4), 3);
  EXPECT_EQ(z.level_for(3), 4);
  EXPECT_EQ(z.level_for(2), 4);
  EXPECT_EQ(z.level_for(1), 5);
  EXPECT_EQ(z.zones_at(z.level_for(1)), 1);  // a queue of one: pure SPTF
}

TEST(SchedulerZsptfTest, PyramidingOffKeepsTheFinestGrid) {
  SchedulerOptions o;
  o.pyramid_min_per_zone = 0;
  const ZsptfScheduler z{o};
  EXPECT_EQ(z.level_for(1), 0);
  EXPECT_EQ(z.level_for(0), 0);
}

// 4 x 1 cells without pyramiding: zone = 2 * cell + (runs down ? 1 : 0).
SchedulerOptions four_cells() {
  SchedulerOptions o;
  o.zones_x = 4;
  o.zones_y = 1;
  o.pyramid_min_per_zone = 0;
  return o;
}
MediaPoint in_cell(int cell, bool up) {
  return {0.125 + 0.25 * cell, 0.5, up};
}

TEST(SchedulerZsptfTest, VisitsZonesInCircularXMajorOrder) {
  FakeMechanism m;
  ZsptfScheduler z{four_cells()};
  // LBNs (and so fake positioning times) deliberately out of zone order.
  m.points = {{50, in_cell(2, true)},   // zone 4
              {40, in_cell(0, false)},  // zone 1
              {30, in_cell(0, true)},   // zone 0
              {20, in_cell(3, true)},   // zone 6
              {10, in_cell(1, true)}};  // zone 2
  EXPECT_EQ(z.zone_of(in_cell(0, false), 0), 1);
  EXPECT_EQ(z.zone_of(in_cell(2, true), 0), 4);
  EXPECT_EQ(z.zone_of(in_cell(3, true), 0), 6);
  z.add(req(1, 50));
  z.add(req(2, 40));
  z.add(req(3, 30));
  z.add(req(4, 20));
  z.add(req(5, 10));
  EXPECT_EQ(serve_all(z, m), (Ids{3, 2, 5, 1, 4}));
}

TEST(SchedulerZsptfTest, WrapsPastTheLastZoneToTheFirst) {
  FakeMechanism m;
  ZsptfScheduler z{four_cells()};
  m.points = {{1, in_cell(3, true)},    // zone 6
              {2, in_cell(2, false)},   // zone 5
              {3, in_cell(0, true)},    // zone 0
              {4, in_cell(3, false)}};  // zone 7
  z.add(req(1, 1));
  z.add(req(2, 2));
  z.add(req(3, 3));
  EXPECT_EQ(z.pick(m, 0).id, 3u);  // zone 0
  EXPECT_EQ(z.pick(m, 0).id, 2u);  // zone 5
  EXPECT_EQ(z.pick(m, 0).id, 1u);  // zone 6
  z.add(req(4, 4));
  z.add(req(5, 3));
  z.add(req(6, 2));
  // From zone 6: 7, wrap to 0, then 5.
  EXPECT_EQ(serve_all(z, m), (Ids{4, 5, 6}));
}

// Requests 1-3 in zone 0, dearest first in arrival order, and request 4 in
// zone 1, the closest of all: what an in-zone algorithm does shows in the order.
void add_three_in_zone_0_and_one_closer_in_zone_1(FakeMechanism& m, ZsptfScheduler& z) {
  m.points = {{10, in_cell(0, true)},
              {11, in_cell(0, true)},
              {12, in_cell(0, true)},
              {13, in_cell(0, false)}};
  m.cost = {{10, 900}, {11, 300}, {12, 600}, {13, 1}};
  z.add(req(1, 10));
  z.add(req(2, 11));
  z.add(req(3, 12));
  z.add(req(4, 13));
}

TEST(SchedulerZsptfTest, ServesSptfInsideTheCurrentZoneBeforeMovingOn) {
  FakeMechanism m;
  ZsptfScheduler z{four_cells()};
  add_three_in_zone_0_and_one_closer_in_zone_1(m, z);
  EXPECT_EQ(serve_all(z, m), (Ids{2, 3, 1, 4}));
}

// The second paper's other in-zone algorithms (§4.2.1): the same zones, visited in
// the same order; ZFCFS serves a zone in arrival order, ZTSPTF by SPTF but only the
// requests that had arrived when the zone was entered.
TEST(SchedulerZsptfTest, ZfcfsServesTheZoneInArrivalOrderBeforeMovingOn) {
  FakeMechanism m;
  ZsptfScheduler z{four_cells(), ZsptfScheduler::InZone::kFcfs};
  EXPECT_STREQ(z.name(), "zfcfs");
  add_three_in_zone_0_and_one_closer_in_zone_1(m, z);
  // ZSPTF would serve 2, 3, 1 in zone 0 (ServesSptfInsideTheCurrentZoneBeforeMovingOn).
  EXPECT_EQ(serve_all(z, m), (Ids{1, 2, 3, 4}));
}

TEST(SchedulerZsptfTest, ZtsptfLeavesALateArrivalInItsZoneForTheNextVisit) {
  FakeMechanism m;
  m.points = {{10, in_cell(0, true)},   // zone 0
              {11, in_cell(0, true)},   // zone 0
              {12, in_cell(0, true)},   // zone 0, arrives after the zone is entered
              {20, in_cell(1, true)}};  // zone 2
  m.cost = {{10, 600}, {11, 500}, {12, 1}, {20, 900}};
  for (const auto in_zone :
       {ZsptfScheduler::InZone::kSptf, ZsptfScheduler::InZone::kArrivedBefore}) {
    ZsptfScheduler z{four_cells(), in_zone};
    z.add(req(1, 10));
    z.add(req(2, 11));
    z.add(req(4, 20));
    EXPECT_EQ(z.pick(m, 0).id, 2u) << z.name();  // SPTF inside zone 0 either way
    z.add(req(3, 12));                           // the closest, but late for ZTSPTF
    if (in_zone == ZsptfScheduler::InZone::kSptf) {
      EXPECT_EQ(serve_all(z, m), (Ids{3, 1, 4})) << z.name();
    } else {
      EXPECT_STREQ(z.name(), "ztsptf");
      // Zone 0's early arrival, then zone 2, then zone 0 again on the next visit.
      EXPECT_EQ(serve_all(z, m), (Ids{1, 4, 3})) << z.name();
    }
  }
}

TEST(SchedulerZsptfTest, ZtsptfReentersAZoneWhoseOnlyWorkArrivedLate) {
  FakeMechanism m;
  ZsptfScheduler z{four_cells(), ZsptfScheduler::InZone::kArrivedBefore};
  m.points = {{10, in_cell(0, true)}, {11, in_cell(0, true)}};
  z.add(req(1, 10));
  EXPECT_EQ(z.pick(m, 0).id, 1u);
  z.add(req(2, 11));  // late for this visit, but no other zone has work
  EXPECT_EQ(z.pick(m, 0).id, 2u);
  EXPECT_TRUE(z.empty());
}

// Three requests spread over the X range, all running up; the nearest one
// lies mid-media.
void add_spread(Scheduler& s, FakeMechanism& m) {
  m.points = {{1, {0.025, 0.25, true}}, {2, {0.525, 0.25, true}}, {3, {0.975, 0.25, true}}};
  m.cost = {{1, 900}, {2, 100}, {3, 500}};
  s.add(req(1, 1));
  s.add(req(2, 2));
  s.add(req(3, 3));
}

TEST(SchedulerZsptfTest, ShortQueueMergesCellsSoZonesDoNotForceLongTrips) {
  {
    SchedulerOptions fine;
    fine.pyramid_min_per_zone = 0;
    FakeMechanism m;
    ZsptfScheduler z{fine};
    add_spread(z, m);
    EXPECT_EQ(serve_all(z, m), (Ids{1, 2, 3}));  // 80 zones: strict X order
  }
  {
    FakeMechanism m;
    ZsptfScheduler z{SchedulerOptions{}};  // 3 pending: one cell, two directions
    add_spread(z, m);
    EXPECT_EQ(serve_all(z, m), (Ids{2, 3, 1}));
  }
}

TEST(SchedulerZsptfTest, FullyMergedGridIsPureSptfAcrossDirections) {
  FakeMechanism m;
  m.here = {0.5, 0.5, true};
  m.points = {{1, {0.5, 0.5, false}}, {2, {0.5, 0.5, true}}};
  m.cost = {{1, 100}, {2, 200}};
  {
    SchedulerOptions o;
    o.pyramid_min_per_zone = 2;  // 2 pending < 2 * 2 zones at level 4: one zone
    ZsptfScheduler z{o};
    z.add(req(1, 1));
    z.add(req(2, 2));
    EXPECT_EQ(z.level_for(2), 5);
    EXPECT_EQ(z.pick(m, 0).id, 1u);
  }
  {
    ZsptfScheduler z{SchedulerOptions{}};  // level 4: the sled's direction first
    z.add(req(1, 1));
    z.add(req(2, 2));
    EXPECT_EQ(z.pick(m, 0).id, 2u);
  }
}

TEST(SchedulerZsptfTest, ChangingLevelRestartsTheScanAtTheSledsZone) {
  FakeMechanism m;
  m.here = {0.5, 0.5, false};  // sled moving down
  m.points = {{1, {0.5, 0.5, true}}, {2, {0.5, 0.5, false}}};
  m.cost = {{1, 100}, {2, 900}};
  ZsptfScheduler z{SchedulerOptions{}};
  z.add(req(1, 1));
  z.add(req(2, 2));
  EXPECT_EQ(z.pick(m, 0).id, 2u);  // level 4, zone of the sled = the down zone
  EXPECT_EQ(z.pick(m, 0).id, 1u);
}

// --- SPTF on the real sled -------------------------------------------------

TEST(SchedulerSptfPropertyTest, PickHasTheMinimumPositioningTimeOnG2) {
  const DeviceParams params = *preset("g2");
  MemsMechanism mech(params);
  std::mt19937_64 rng(20240611);
  std::uniform_int_distribution<Lbn> lbn(0, mech.blocks() - 16);
  std::uniform_int_distribution<std::int32_t> blocks(1, 16);

  auto s = make("sptf");
  std::vector<Request> pending;
  for (std::uint64_t id = 0; id < 64; ++id) {
    pending.push_back(req(id, lbn(rng), 0, blocks(rng)));
    s->add(pending.back());
  }
  Ns now = 0;
  while (!pending.empty()) {
    Ns best = std::numeric_limits<Ns>::max();
    for (const Request& r : pending) best = std::min(best, mech.positioning_ns(r, now));
    const Request r = s->pick(mech, now);
    ASSERT_EQ(mech.positioning_ns(r, now), best) << "pending " << pending.size();
    std::erase_if(pending, [&](const Request& p) { return p.id == r.id; });
    now += mech.service(r, now).service_ns();
  }
  EXPECT_TRUE(s->empty());
}

// --- Pruned choice against the full scan ------------------------------------

// The choice as a scan of every pending request computes it: the exact
// positioning (less aging) of each, the least cost, ties to the earliest
// arrival. For ZSPTF, the zone logic as well. The schedulers prune this scan
// with bounds and must pick exactly the same request every time.
class FullScan {
 public:
  FullScan(std::string name, const SchedulerOptions& o) : name_(std::move(name)), o_(o), z_(o) {}
  void add(const Request& r) { pending_.push_back(r); }
  std::size_t size() const { return pending_.size(); }

  Request pick(const Mechanism& m, Ns now) {
    std::vector<std::size_t> eligible;
    if (name_ == "zsptf") {
      const int level = z_.level_for(pending_.size());
      const int zones = z_.zones_at(level);
      if (level != level_) {
        zone_ = z_.zone_of(m.current_point(), level);
        level_ = level;
      }
      int target = -1;
      int best_dist = zones;
      std::vector<int> zone;
      for (const Request& r : pending_) {
        zone.push_back(z_.zone_of(m.point_of(r.lbn), level));
        const int dist = (zone.back() - zone_ + zones) % zones;
        if (dist < best_dist) {
          best_dist = dist;
          target = zone.back();
        }
      }
      zone_ = target;
      for (std::size_t i = 0; i < pending_.size(); ++i) {
        if (zone[i] == target) eligible.push_back(i);
      }
    } else {
      for (std::size_t i = 0; i < pending_.size(); ++i) eligible.push_back(i);
    }
    const double w = name_ == "asptf" ? o_.age_weight : 0;
    std::size_t best = eligible[0];
    double best_cost = std::numeric_limits<double>::infinity();
    for (const std::size_t i : eligible) {  // in arrival order: strict < keeps the earliest
      double cost = static_cast<double>(m.positioning_ns(pending_[i], now));
      if (w > 0) cost -= w * static_cast<double>(now - pending_[i].arrival_ns);
      if (cost < best_cost) {
        best_cost = cost;
        best = i;
      }
    }
    const Request r = pending_[best];
    pending_.erase(pending_.begin() + static_cast<std::ptrdiff_t>(best));
    return r;
  }

 private:
  std::string name_;
  SchedulerOptions o_;
  ZsptfScheduler z_;  // only for its zone geometry
  std::vector<Request> pending_;
  int zone_ = 0, level_ = 0;
};

struct ChoiceCase {
  const char* device;
  const char* scheduler;
  SchedulerOptions options;
};

// Random queues of 1 to ~400 requests, served on the real sled in a closed
// loop (the sled moves to each pick), with duplicates and neighbours of
// pending requests (exact ties), bursts and lulls, idle gaps long enough to
// spin down, and the sled put at random places.
TEST(SchedulerChoiceTest, PrunedChoiceEqualsTheFullScan) {
  SchedulerOptions aged_hard;
  aged_hard.age_weight = 0.5;
  SchedulerOptions no_pyramid;
  no_pyramid.pyramid_min_per_zone = 0;
  // g2u: G2 reading upward only, where the estimate's X shortcut can
  // undercut the real positioning (see MemsMechanism::positioning_bounds_ns).
  const ChoiceCase cases[] = {
      {"g2", "sptf", {}},   {"g1", "sptf", {}},  {"g3", "sptf", {}},
      {"g2u", "sptf", {}},  {"g2", "asptf", {}}, {"g2", "asptf", aged_hard},
      {"g2", "zsptf", {}},  {"g1", "zsptf", {}}, {"g2", "zsptf", no_pyramid},
      {"g2u", "zsptf", {}},
  };
  for (const ChoiceCase& c : cases) {
    const bool unidirectional = std::string(c.device) == "g2u";
    DeviceParams params = *preset(unidirectional ? "g2" : c.device);
    params.bidirectional = params.bidirectional && !unidirectional;
    params.power.idle_timeout_ns = 20'000'000;
    MemsMechanism mech(params);
    auto s = make_scheduler(c.scheduler, c.options);
    ASSERT_NE(s, nullptr);
    FullScan full(c.scheduler, c.options);
    std::mt19937_64 rng(std::hash<std::string>{}(std::string(c.device) + c.scheduler) +
                        static_cast<std::uint64_t>(c.options.age_weight * 1000) +
                        static_cast<std::uint64_t>(c.options.pyramid_min_per_zone));
    std::uniform_int_distribution<Lbn> lbn(0, mech.blocks() - 16);
    std::vector<Lbn> recent;
    std::uint64_t id = 0;
    Ns now = 0;
    auto add = [&] {
      Lbn l = lbn(rng);
      if (!recent.empty() && rng() % 4 == 0) {
        // Same LBN, same row, or the next row of a recent request: equal or
        // nearly equal positioning times.
        const Lbn near = recent[rng() % recent.size()];
        const Lbn offsets[] = {0, 1, mech.geometry().p(), -mech.geometry().p()};
        l = std::clamp<Lbn>(near + offsets[rng() % 4], 0, mech.blocks() - 16);
      }
      recent.push_back(l);
      if (recent.size() > 64) recent.erase(recent.begin());
      const Request r = req(id++, l, now, static_cast<std::int32_t>(1 + rng() % 16));
      s->add(r);
      full.add(r);
    };
    int picks = 0;
    for (int step = 0; step < 3000; ++step) {
      // Queue length wanders: bursts while it is short, lulls while long.
      const std::size_t target = step % 1000 < 500 ? 1 + (step % 500) * 400 / 500 : 1 + rng() % 8;
      const int arrivals =
          s->size() < target ? static_cast<int>(1 + rng() % 4) : static_cast<int>(rng() % 2);
      for (int i = 0; i < arrivals; ++i) add();
      if (s->empty()) continue;
      if (rng() % 97 == 0) now += 30'000'000;  // spins down: the next start is from rest
      if (rng() % 53 == 0) {
        SledState placed = mech.state_after_reading(lbn(rng));
        if (rng() % 2) placed.y_dir = -placed.y_dir;
        mech.place_sled(placed, now);
      }
      const Request want = full.pick(mech, now);
      const Request got = s->pick(mech, now);
      ASSERT_EQ(got.id, want.id) << c.device << " " << c.scheduler << " w " << c.options.age_weight
                                 << " step " << step << " pending " << full.size() + 1;
      ++picks;
      now += mech.service(got, now).service_ns();
    }
    EXPECT_GT(picks, 2500) << c.device << " " << c.scheduler;
    // The rest leaves in arrival order.
    std::vector<Request> left = s->drain();
    for (std::size_t i = 1; i < left.size(); ++i) EXPECT_LT(left[i - 1].id, left[i].id);
    EXPECT_EQ(left.size(), full.size());
  }
}

}  // namespace
}  // namespace memstore::model
