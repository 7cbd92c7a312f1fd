// SPDX-License-Identifier: Apache-2.0
// HostGeometry (host/geometry.*) against the device model: the page that
// the target would send is produced by modepages::geometry_page_from, encoded
// and decoded through the host's path, and every answer of the thesis'
// interface (§6.3.4) is compared with model::Geometry's on G2, on small
// devices with micropositioning and conflict groups, and on two sleds.
#include "host/geometry.h"

#include <gtest/gtest.h>

#include <algorithm>
#include <cstdint>
#include <vector>

#include "model/geometry.h"
#include "modepages/mode_vendor.h"

namespace memstore::host {
namespace {

model::DeviceParams g2() {
  return *model::preset("g2");
}

// The device of thesis Figs. 2.5 and 6.10 (p = 3, N = 9, Sx = Sy = 3).
model::DeviceParams fig610() {
  model::DeviceParams p = g2();
  p.tips = 9;
  p.active_tips = 3;
  p.tips_per_block = 1;
  p.block_bytes = 8;
  p.region_bits_x = 3;
  p.region_bits_y = 3 * 90 + 10;
  return p;
}

// N = 12 squares, p = 4 (so Ny = 3, odd), Sx = 200, Sy = 5, M = 3, G = 3.
model::DeviceParams small_odd() {
  model::DeviceParams p = g2();
  p.tips = 64 * 12;
  p.active_tips = 64 * 4;
  p.region_bits_x = 200;
  p.region_bits_y = 5 * 90 + 10;
  p.micropositioning = 3;
  p.conflict_group = 3;
  return p;
}

// N = 12, p = 3 (Ny = 4, even), Sx = 150, Sy = 4, M = 2, G = 2, two sleds.
model::DeviceParams small_even_two_sleds() {
  model::DeviceParams p = g2();
  p.tips = 64 * 12;
  p.active_tips = 64 * 3;
  p.region_bits_x = 150;
  p.region_bits_y = 4 * 90 + 10;
  p.micropositioning = 2;
  p.conflict_group = 2;
  p.sleds = 2;
  return p;
}

// Through the bytes, as a host receives the page. (The Fig. 6.10 toy is too
// small for model::validate's seek checks; its geometry is still exact.)
HostGeometry host_geometry(const model::DeviceParams& params) {
  const modepages::Bytes bytes = modepages::encode(modepages::geometry_page_from(params));
  auto g = HostGeometry::from_page_bytes(bytes);
  EXPECT_TRUE(g.ok()) << g.error().message;
  return g.value();
}

std::vector<Lbn> as_host(const std::vector<model::Lbn>& v) {
  return {v.begin(), v.end()};
}

// Deterministic LBN samples: the edges of tracks, cylinders and sleds, and
// pseudo-random ones.
std::vector<Lbn> samples(const model::Geometry& g, int random_count) {
  const auto st = static_cast<Lbn>(g.st());
  const auto sc = static_cast<Lbn>(g.sc());
  const auto n = static_cast<Lbn>(g.blocks());
  std::vector<Lbn> s = {0, 1, st - 1, st, st + 1, 2 * st - 1, sc - 1, sc, sc + st, n - 1, n / 2};
  std::uint64_t x = 12345;
  for (int i = 0; i < random_count; ++i) {
    x = x * 6364136223846793005ULL + 1442695040888963407ULL;
    s.push_back((x >> 11) % n);
  }
  std::erase_if(s, [n](Lbn l) { return l >= n; });
  return s;
}

void expect_same_as_model(const model::DeviceParams& params, int random_count) {
  const model::Geometry m(params);
  const HostGeometry h = host_geometry(params);
  ASSERT_EQ(h.blocks(), static_cast<std::uint64_t>(m.blocks()));
  ASSERT_EQ(h.parallelism(), static_cast<std::uint32_t>(m.p()));
  for (const Lbn l : samples(m, random_count)) {
    SCOPED_TRACE("LBN " + std::to_string(l));
    const auto ml = static_cast<model::Lbn>(l);
    const model::PhysicalAddress pa = m.to_physical(ml);
    const Location at = h.locate(l);
    EXPECT_EQ(at,
              (Location{static_cast<std::uint32_t>(pa.sled), static_cast<std::uint32_t>(pa.x),
                        static_cast<std::uint32_t>(pa.y), static_cast<std::uint32_t>(pa.square)}));
    EXPECT_EQ(h.lbn_at(at), l);

    const std::vector<Lbn> e = h.equivalent(l);
    EXPECT_EQ(e, as_host(m.equivalence_class(ml)));
    EXPECT_EQ(h.equivalent(l, 0u), as_host(m.equivalence_class(ml, 0)));
    EXPECT_EQ(h.equivalent(l, 1u), as_host(m.equivalence_class(ml, 1)));
    EXPECT_TRUE(std::binary_search(e.begin(), e.end(), l));

    const model::Ensemble me = m.ensemble(ml);
    EXPECT_EQ(h.ensemble(l), (Ensemble{static_cast<Lbn>(me.first), static_cast<Lbn>(me.last)}));

    // Conflicts within E(l) (where the relation is interesting), with the
    // neighbours in LBN space, and across tracks and cylinders.
    std::vector<Lbn> others(e.begin(), e.end());
    for (const Lbn d : {Lbn{1}, Lbn{2}, static_cast<Lbn>(m.p()), static_cast<Lbn>(m.st()),
                        static_cast<Lbn>(m.sc())}) {
      if (l + d < h.blocks()) others.push_back(l + d);
      if (l >= d) others.push_back(l - d);
    }
    for (const Lbn o : others) {
      ASSERT_EQ(h.conflicting(l, o), m.conflicting(ml, static_cast<model::Lbn>(o)))
          << "LBNs " << l << " and " << o;
    }
  }
}

TEST(HostGeometry, TestDevicesAreValidDevices) {
  EXPECT_TRUE(model::validate(g2()).empty());
  EXPECT_TRUE(model::validate(small_odd()).empty());
  EXPECT_TRUE(model::validate(small_even_two_sleds()).empty());
}

TEST(HostGeometry, Fig610EquivalenceClass) {
  const HostGeometry h = host_geometry(fig610());
  EXPECT_EQ(h.equivalent(33), (std::vector<Lbn>{33, 34, 35, 36, 37, 38, 51, 52, 53}));
  EXPECT_EQ(h.ensemble(33), (Ensemble{27, 35}));
  EXPECT_EQ(h.parallelism(), 3u);
  EXPECT_FALSE(h.conflicting(33, 38));  // the thesis' example of a parallel choice
  EXPECT_TRUE(h.conflicting(33, 39));   // not in E(33)
}

TEST(HostGeometry, Fig610MatchesModelEverywhere) {
  expect_same_as_model(fig610(), 81);
}

TEST(HostGeometry, G2MatchesModelOnSampledLbns) {
  expect_same_as_model(g2(), 300);
}

TEST(HostGeometry, G2TableValues) {
  const HostGeometry h = host_geometry(g2());
  const modepages::GeometryPage& p = h.page();
  EXPECT_EQ(p.p, 10u);
  EXPECT_EQ(p.n, 100u);
  EXPECT_EQ(p.st, 270u);
  EXPECT_EQ(p.sc, 2700u);
  EXPECT_EQ(h.blocks(), 6'750'000u);
  EXPECT_EQ(h.equivalent(3'000'123).size(), 100u);  // |E| = N without micropositioning
}

TEST(HostGeometry, SmallDeviceWithMicropositioningAndConflictGroupsMatchesModel) {
  const model::DeviceParams p = small_odd();
  const HostGeometry h = host_geometry(p);
  EXPECT_EQ(h.micropositioning(), 3u);
  EXPECT_EQ(h.conflict_group(), 3u);
  EXPECT_TRUE(h.page().conflict_relation);
  // Away from the edges, |E| = (2M + 1) N (thesis §6.3.2).
  EXPECT_EQ(h.equivalent(100 * 12 * 5).size(), 7u * 12);
  expect_same_as_model(p, 400);
}

TEST(HostGeometry, EvenNyAndTwoSledsMatchModel) {
  const model::DeviceParams p = small_even_two_sleds();
  const HostGeometry h = host_geometry(p);
  const model::Geometry m(p);
  // Equivalence classes stay on their sled.
  const Lbn second_sled_first = static_cast<Lbn>(m.blocks_per_sled());
  for (const Lbn l : h.equivalent(second_sled_first + 5)) EXPECT_GE(l, second_sled_first);
  EXPECT_TRUE(h.conflicting(5, second_sled_first + 5));
  expect_same_as_model(p, 400);
}

TEST(HostGeometry, ParallelAccessibleFollowsPAndConflicts) {
  const HostGeometry h = host_geometry(g2());
  const std::vector<Lbn> e = h.equivalent(0);
  std::vector<Lbn> ten(e.begin(), e.begin() + 10);
  EXPECT_TRUE(h.parallel_accessible(ten));
  std::vector<Lbn> eleven(e.begin(), e.begin() + 11);
  EXPECT_FALSE(h.parallel_accessible(eleven));                              // more than p
  EXPECT_FALSE(h.parallel_accessible(std::vector<Lbn>{e[0], e[1], e[0]}));  // e[0] twice
  EXPECT_FALSE(h.parallel_accessible(std::vector<Lbn>{0, 10}));             // same square, next row
  const HostGeometry s = host_geometry(small_odd());
  // Squares 0 and 1 share components (G = 3): LBNs 0 and 1 conflict.
  EXPECT_TRUE(s.conflicting(0, 1));
  EXPECT_FALSE(s.parallel_accessible(std::vector<Lbn>{0, 1}));
  EXPECT_TRUE(s.parallel_accessible(std::vector<Lbn>{0, 3}));
}

TEST(HostGeometry, InconsistentPagesAreRefusedWithTheField) {
  const modepages::GeometryPage good = modepages::geometry_page_from(g2());
  auto expect_refused = [](modepages::GeometryPage page, const std::string& words) {
    auto r = HostGeometry::from_page(page);
    ASSERT_FALSE(r.ok());
    EXPECT_EQ(r.error().code, Error::Code::kBadResponse);
    EXPECT_NE(r.error().message.find(words), std::string::npos) << r.error().message;
  };
  auto p = good;
  p.st = 271;
  expect_refused(p, "ST is 271 but Sy × Nx = 270");
  p = good;
  p.p = 0;
  expect_refused(p, "at least 1");
  p = good;
  p.p = 7;
  p.nx = 7;
  expect_refused(p, "does not divide N");
  p = good;
  p.blocks_per_sled += 1;
  expect_refused(p, "blocks per sled");
  p = good;
  p.conflict_group = 3;  // flag still clear
  expect_refused(p, "conflict relation flag");
  p = good;
  p.sc = 0xFFFF'FFFF;
  expect_refused(p, "SC is");
}

TEST(HostGeometry, UndecodablePageIsABadResponse) {
  modepages::Bytes bytes = modepages::encode(modepages::geometry_page_from(g2()));
  bytes[3] = 2;  // format version 2
  auto r = HostGeometry::from_page_bytes(bytes);
  ASSERT_FALSE(r.ok());
  EXPECT_NE(r.error().message.find("format version"), std::string::npos);
  EXPECT_FALSE(HostGeometry::from_page_bytes(std::span(bytes).first(10)).ok());
}

}  // namespace
}  // namespace memstore::host
