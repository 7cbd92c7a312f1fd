// SPDX-License-Identifier: Apache-2.0
// The queries of §6.3.7 on both layouts, end to end on the simulated
// device: the capsule layout reads only the attributes asked for, so its
// single- and two-attribute scans take a fraction of the row-major time.
#include "apps/table_queries.h"

#include <gtest/gtest.h>

#include "apps/capsule_layout.h"
#include "apps/normal_layout.h"
#include "tests/apps/devices.h"

namespace memstore::apps {
namespace {

TEST(StandardQueries, Shape) {
  const TableSchema s{{8, 16, 8, 8}, 5000};
  QuerySettings qs;
  qs.short_scans = 7;
  qs.random_reads = 9;
  const auto q = standard_queries(s, qs);
  ASSERT_EQ(q.size(), 5u);
  EXPECT_EQ(q[0].name, "full scan");
  EXPECT_EQ(q[0].attributes, 0b1111u);
  EXPECT_EQ(q[1].name, "a1 scan");
  EXPECT_EQ(q[2].name, "a1+a2 scan");
  EXPECT_EQ(q[2].attributes, 0b11u);
  ASSERT_EQ(q[3].units.size(), 7u);
  for (const auto& u : q[3].units) {
    EXPECT_EQ(u.count, 100u);
    EXPECT_LE(u.first + u.count, 5000u);
  }
  ASSERT_EQ(q[4].units.size(), 9u);
  // The same seed gives the same records.
  EXPECT_EQ(standard_queries(s, qs)[4].units[3].first, q[4].units[3].first);
  // Short scans of a1 alone.
  qs.short_attributes = 1;
  const auto a1 = standard_queries(s, qs);
  EXPECT_EQ(a1[3].attributes, 1u);
  EXPECT_EQ(a1[3].name, "100-record a1 scans (7)");
}

TEST(RunQuery, CapsuleScansReadOnlyTheirAttributes) {
  const auto p = testing::g2_params();
  auto dev = testing::sim(p);
  const TableSchema s{{8, 16, 8, 8}, 500'000};
  QuerySettings qs;
  qs.short_scans = 20;
  qs.random_reads = 100;
  auto normal = NormalLayout::create(s, {}, 512, 0, dev->blocks());
  ASSERT_TRUE(normal.ok());
  auto capsule = CapsuleLayout::create(s, dev->geometry(), 512, normal->end_lbn());
  ASSERT_TRUE(capsule.ok());
  std::vector<QueryRun> n, c;
  for (const Query& q : standard_queries(s, qs)) {
    auto a = run_query(*dev, *normal, q, false);
    auto b = run_query(*dev, *capsule, q, false);
    ASSERT_TRUE(a.ok() && b.ok());
    n.push_back(*a);
    c.push_back(*b);
  }
  // Blocks: the normal layout reads whole pages; capsules 1, 3 of 5 blocks.
  EXPECT_EQ(n[0].blocks, n[1].blocks);
  EXPECT_EQ(c[1].blocks * 5, c[0].blocks);
  EXPECT_EQ(c[2].blocks * 5, c[0].blocks * 3);
  // Full scans cost about the same; a1 about a fifth; a1+a2 about 3/5.
  const auto ratio = [&](int i) {
    return static_cast<double>(c[i].service_ns) / static_cast<double>(n[i].service_ns);
  };
  EXPECT_NEAR(ratio(0), 1.0, 0.1);
  EXPECT_LT(ratio(1), 0.35);
  EXPECT_LT(ratio(2), 0.75);
  EXPECT_GT(ratio(2), ratio(1));
  // A capsule is one parallel access: a random record is one media step.
  EXPECT_EQ(c[4].media_steps, c[4].units);
  EXPECT_LT(ratio(4), 1.0);
}

}  // namespace
}  // namespace memstore::apps
