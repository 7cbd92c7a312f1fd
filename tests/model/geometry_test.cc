// SPDX-License-Identifier: Apache-2.0
#include "model/geometry.h"

#include <gmock/gmock.h>
#include <gtest/gtest.h>

#include <random>
#include <set>

#include "tests/model/test_devices.h"

namespace memstore::model {
namespace {

using ::testing::ElementsAre;

TEST(Geometry, G2MatchesThesisTable62) {
  const Geometry g(*preset("g2"));
  EXPECT_EQ(g.p(), 10);
  EXPECT_EQ(g.n(), 100);
  EXPECT_EQ(g.sx(), 2500);
  EXPECT_EQ(g.sy(), 27);
  EXPECT_EQ(g.m(), 0);
  EXPECT_EQ(g.nx(), 10);
  EXPECT_EQ(g.ny(), 10);
  EXPECT_EQ(g.st(), 270);
  EXPECT_EQ(g.sc(), 2700);
  EXPECT_EQ(g.blocks(), 6'750'000);
}

TEST(Geometry, DiskSimG2VariantWith1280ActiveTips) {
  DeviceParams p = *preset("g2");
  p.active_tips = 1280;
  const Geometry g(p);
  EXPECT_EQ(g.p(), 20);
  EXPECT_EQ(g.nx(), 20);
  EXPECT_EQ(g.ny(), 5);
  EXPECT_EQ(g.st(), 540);
  EXPECT_EQ(g.sc(), 2700);
  EXPECT_EQ(g.blocks(), 6'750'000);
}

TEST(Geometry, OtherPresets) {
  const Geometry g1(*preset("g1"));
  EXPECT_EQ(g1.p(), 10);
  EXPECT_EQ(g1.sx(), 2000);
  EXPECT_EQ(g1.sy(), 22);  // (2000 - 10) / 90
  const Geometry g3(*preset("g3"));
  EXPECT_EQ(g3.p(), 20);
  EXPECT_EQ(g3.sx(), 3333);
  EXPECT_EQ(g3.sy(), 36);  // (3333 - 10) / 90
}

// Thesis Fig. 2.5 / 6.10, transcribed: line = square row * Sy + y, and in
// each line the squares' columns left to right, each with x = 0, 1, 2.
constexpr int kFig610[9][9] = {
    {0, 33, 54, 1, 34, 55, 2, 35, 56},    {3, 30, 57, 4, 31, 58, 5, 32, 59},
    {6, 27, 60, 7, 28, 61, 8, 29, 62},    {15, 36, 69, 16, 37, 70, 17, 38, 71},
    {12, 39, 66, 13, 40, 67, 14, 41, 68}, {9, 42, 63, 10, 43, 64, 11, 44, 65},
    {18, 51, 72, 19, 52, 73, 20, 53, 74}, {21, 48, 75, 22, 49, 76, 23, 50, 77},
    {24, 45, 78, 25, 46, 79, 26, 47, 80}};

TEST(Geometry, MappingReproducesFigure610) {
  const Geometry g(testing::fig610_device());
  ASSERT_EQ(g.p(), 3);
  ASSERT_EQ(g.n(), 9);
  ASSERT_EQ(g.blocks(), 81);
  for (int line = 0; line < 9; ++line) {
    for (int col = 0; col < 9; ++col) {
      const PhysicalAddress a{0, col % 3, line % 3, (line / 3) * 3 + col / 3};
      EXPECT_EQ(g.to_lbn(a), kFig610[line][col]) << "line " << line << " col " << col;
      EXPECT_EQ(g.to_physical(kFig610[line][col]), a);
    }
  }
}

TEST(Geometry, Figure610EquivalenceClassOf33) {
  const Geometry g(testing::fig610_device());
  EXPECT_THAT(g.equivalence_class(33), ElementsAre(33, 34, 35, 36, 37, 38, 51, 52, 53));
}

TEST(Geometry, MicropositioningAddsNeighbouringCylinders) {
  const Geometry g(testing::fig610_device());
  // x = 1 with M = 1 reaches cylinders 0..2: 27 LBNs (thesis §6.3.2).
  EXPECT_EQ(g.equivalence_class(33, 1).size(), 27u);
  // At the edge (x = 0) only cylinders 0 and 1 exist.
  EXPECT_EQ(g.equivalence_class(0, 1).size(), 18u);
}

void expect_round_trip_and_classes(const DeviceParams& p, Lbn stride) {
  const Geometry g(p);
  for (Lbn l = 0; l < g.blocks(); l += stride) {
    const PhysicalAddress a = g.to_physical(l);
    ASSERT_EQ(g.to_lbn(a), l);
    ASSERT_GE(a.x, 0);
    ASSERT_LT(a.x, g.sx());
    ASSERT_GE(a.y, 0);
    ASSERT_LT(a.y, g.sy());
    ASSERT_GE(a.square, 0);
    ASSERT_LT(a.square, g.n());
  }
}

TEST(Geometry, EveryLbnRoundTripsOnSmallDevices) {
  DeviceParams odd = testing::fig610_device();  // Ny = 3: odd, reversals cross cylinders
  expect_round_trip_and_classes(odd, 1);
  DeviceParams two_sleds = testing::fig610_device();
  two_sleds.sleds = 2;
  expect_round_trip_and_classes(two_sleds, 1);
  DeviceParams even = testing::fig610_device();
  even.tips = 12;  // N = 12, p = 3, Ny = 4
  expect_round_trip_and_classes(even, 1);
  // Every LBN of the small devices is hit exactly once by the inverse map.
  const Geometry g(even);
  std::set<Lbn> seen;
  for (int sled = 0; sled < g.sleds(); ++sled) {
    for (int x = 0; x < g.sx(); ++x) {
      for (int y = 0; y < g.sy(); ++y) {
        for (int sq = 0; sq < g.n(); ++sq) seen.insert(g.to_lbn({sled, x, y, sq}));
      }
    }
  }
  EXPECT_EQ(seen.size(), static_cast<std::size_t>(g.blocks()));
  EXPECT_EQ(*seen.rbegin(), g.blocks() - 1);
}

TEST(Geometry, G2SampleRoundTrips) {
  const DeviceParams p = *preset("g2");
  const Geometry g(p);
  std::mt19937_64 rng(7);
  for (int i = 0; i < 200'000; ++i) {
    const Lbn l = static_cast<Lbn>(rng() % static_cast<std::uint64_t>(g.blocks()));
    ASSERT_EQ(g.to_lbn(g.to_physical(l)), l) << l;
  }
  for (Lbn l : {Lbn{0}, Lbn{269}, Lbn{270}, Lbn{2699}, Lbn{2700}, g.blocks() - 1}) {
    EXPECT_EQ(g.to_lbn(g.to_physical(l)), l);
  }
}

// The mapping with `/` and `%`, as Geometry computed it before its divisions
// became multiplications by reciprocals (model/invariant_divisor.h).
PhysicalAddress to_physical_by_division(const Geometry& g, Lbn lbn) {
  PhysicalAddress a;
  a.sled = static_cast<std::int32_t>(lbn / g.blocks_per_sled());
  const Lbn l = lbn % g.blocks_per_sled();
  a.x = static_cast<std::int32_t>(l / g.sc());
  const std::int64_t track = l / g.st();
  const auto track_in_cylinder = static_cast<std::int32_t>(track % g.ny());
  const auto row_in_track = static_cast<std::int32_t>((l % g.st()) / g.p());
  a.y = Geometry::track_runs_up(track) ? row_in_track : g.sy() - 1 - row_in_track;
  a.square = track_in_cylinder * g.p() + static_cast<std::int32_t>(l % g.p());
  return a;
}

TEST(Geometry, EveryLbnMapsAsByDivision) {
  std::vector<DeviceParams> devices = {*preset("g1"), *preset("g2"), *preset("g3"),
                                       testing::fig610_device()};
  DeviceParams four_sleds = *preset("g2");  // sled boundaries, DiskSim's 1280 active tips
  four_sleds.sleds = 4;
  four_sleds.active_tips = 1280;
  devices.push_back(four_sleds);
  DeviceParams one_active = testing::fig610_device();  // p = 1, Ny = N
  one_active.active_tips = 1;
  devices.push_back(one_active);
  for (const DeviceParams& p : devices) {
    const Geometry g(p);
    // Every LBN of G2 and the small devices; every 7th elsewhere, plus the
    // first and last 10000 of each sled (under sanitizers this test is slow).
    const bool every = p.name != "g1" && p.name != "g3" && p.sleds == 1;
    for (Lbn l = 0; l < g.blocks(); ++l) {
      const Lbn in_sled = l % g.blocks_per_sled();
      if (!every && l % 7 != 0 && in_sled >= 10000 && in_sled < g.blocks_per_sled() - 10000) {
        continue;
      }
      ASSERT_EQ(g.to_physical(l), to_physical_by_division(g, l)) << p.name << " " << l;
      ASSERT_EQ(g.track_of(l), l % g.blocks_per_sled() / g.st()) << p.name << " " << l;
      ASSERT_EQ(g.row_first(l), l / g.p() * g.p()) << p.name << " " << l;
      const Geometry::Location where = g.locate(l);
      ASSERT_EQ(where.address, g.to_physical(l)) << p.name << " " << l;
      ASSERT_EQ(where.track, g.track_of(l)) << p.name << " " << l;
      ASSERT_EQ(where.column, l - g.row_first(l)) << p.name << " " << l;
      ASSERT_EQ(g.starts_track(l), l % g.st() == 0) << p.name << " " << l;
      ASSERT_EQ(g.starts_cylinder(l), l % g.sc() == 0) << p.name << " " << l;
      ASSERT_EQ(g.ensemble(l).first, l / g.st() * g.st()) << p.name << " " << l;
    }
  }
}

TEST(Geometry, EquivalenceClassMembersShareThePosition) {
  DeviceParams p = *preset("g2");
  p.micropositioning = 5;
  const Geometry g(p);
  std::mt19937_64 rng(11);
  for (int i = 0; i < 200; ++i) {
    const Lbn l = static_cast<Lbn>(rng() % static_cast<std::uint64_t>(g.blocks()));
    const PhysicalAddress home = g.to_physical(l);
    const std::vector<Lbn> e = g.equivalence_class(l);
    if (home.x >= 5 && home.x < g.sx() - 5) {
      EXPECT_EQ(e.size(), static_cast<std::size_t>(g.n() * 11));  // N (2M + 1)
    }
    EXPECT_TRUE(std::is_sorted(e.begin(), e.end()));
    EXPECT_TRUE(std::binary_search(e.begin(), e.end(), l));
    for (Lbn m : e) {
      const PhysicalAddress a = g.to_physical(m);
      EXPECT_EQ(a.y, home.y);
      EXPECT_LE(std::abs(a.x - home.x), 5);
    }
  }
  // Without micropositioning every member sits at exactly (x, y).
  for (Lbn m : g.equivalence_class(4'321'000, 0)) {
    EXPECT_EQ(g.to_physical(m).x, g.to_physical(4'321'000).x);
    EXPECT_EQ(g.to_physical(m).y, g.to_physical(4'321'000).y);
  }
  EXPECT_EQ(g.equivalence_class(4'321'000, 0).size(), 100u);
}

TEST(Geometry, EnsembleIsTheTrack) {
  const Geometry g(*preset("g2"));
  const Ensemble e = g.ensemble(1000);
  EXPECT_EQ(e.first, 810);
  EXPECT_EQ(e.last, 1079);
  EXPECT_EQ(e.last - e.first + 1, g.st());
  EXPECT_EQ(g.ensemble(0).first, 0);
  EXPECT_EQ(g.ensemble(269).last, 269);
}

TEST(Geometry, ConflictRelation) {
  DeviceParams p = testing::fig610_device();
  const Geometry plain(p);
  EXPECT_FALSE(plain.conflicting(33, 33));
  EXPECT_FALSE(plain.conflicting(33, 52));  // equivalent, different squares
  EXPECT_TRUE(plain.conflicting(33, 0));    // different cylinder
  EXPECT_TRUE(plain.conflicting(33, 30));   // same cylinder, different row
  p.conflict_group = 3;                     // squares 0-2, 3-5, 6-8 share components
  const Geometry grouped(p);
  EXPECT_TRUE(grouped.conflicting(33, 34));   // squares 0 and 1
  EXPECT_FALSE(grouped.conflicting(33, 36));  // squares 0 and 3
  p.conflict_group = 0;
  p.micropositioning = 1;
  const Geometry micro(p);
  EXPECT_FALSE(micro.conflicting(33, 1));  // square 1, x = 0: reachable by micropositioning
  EXPECT_TRUE(micro.conflicting(33, 0));   // square 0 again: one tip, one column at a time
}

}  // namespace
}  // namespace memstore::model
