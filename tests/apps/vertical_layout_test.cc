// SPDX-License-Identifier: Apache-2.0
// The vertically partitioned layout (thesis §6.3.7, after Copeland and
// Khoshafian): each attribute in its own run of 8 KB pages, so a scan of
// one attribute reads only its pages and a whole record needs a page of
// every run; and, on the simulated device, the three layouts on the
// thesis' table.
#include "apps/vertical_layout.h"

#include <gtest/gtest.h>

#include <algorithm>

#include "apps/capsule_layout.h"
#include "apps/table_queries.h"
#include "tests/apps/devices.h"

namespace memstore::apps {
namespace {

const TableSchema kThesisTable{{8, 32, 15, 16}, 10'000};

TEST(VerticalLayout, PagesOfOneAttribute) {
  auto l = VerticalLayout::create(kThesisTable, {}, 512, 100, 1'000'000);
  ASSERT_TRUE(l.ok()) << l.error().message;
  // (8192 - 64) / size values per page.
  EXPECT_EQ(l->values_per_page(0), 1016u);
  EXPECT_EQ(l->values_per_page(1), 254u);
  EXPECT_EQ(l->values_per_page(2), 541u);
  EXPECT_EQ(l->values_per_page(3), 508u);
  EXPECT_EQ(l->pages(0), 10u);
  EXPECT_EQ(l->pages(1), 40u);
  EXPECT_EQ(l->pages(2), 19u);
  EXPECT_EQ(l->pages(3), 20u);
  EXPECT_EQ(l->data_blocks(), 89u * 16);
  EXPECT_EQ(l->end_lbn(), 100u + 89 * 16);
  // A scan of a1 reads a1's run alone: its 10 pages from the first LBN.
  const auto a1 = l->blocks_for(0, 10'000, 0b0001);
  ASSERT_EQ(a1.size(), 160u);
  EXPECT_EQ(a1.front(), 100u);
  EXPECT_EQ(a1.back(), 259u);
  // A whole record is one page in each of the four runs: 4 x 16 blocks.
  const auto r = l->blocks_for(5000, 1, 0b1111);
  ASSERT_EQ(r.size(), 64u);
  EXPECT_TRUE(std::is_sorted(r.begin(), r.end()));
  EXPECT_EQ(r[0], 100u + 4 * 16);           // a1 page 4 (records 4064..5079)
  EXPECT_EQ(r[16], 100u + (10 + 19) * 16);  // a2 page 19 (4826..5079)
  EXPECT_EQ(r[32], 100u + (50 + 9) * 16);   // a3 page 9 (4869..5409)
  EXPECT_EQ(r[48], 100u + (69 + 9) * 16);   // a4 page 9 (4572..5079)
}

TEST(VerticalLayout, BlockImageHoldsOneAttribute) {
  auto l = VerticalLayout::create(kThesisTable, {}, 512, 0, 1'000'000);
  ASSERT_TRUE(l.ok());
  Bytes img(512);
  // a3's run starts at page 50; its page 1 holds records 541..1081.
  l->block_image(51 * 16, img);
  EXPECT_EQ(img[0], 51);  // the page's number in the layout
  EXPECT_EQ(img[64], value_byte(541, 2, 0));
  EXPECT_EQ(img[64 + 14], value_byte(541, 2, 14));
  EXPECT_EQ(img[64 + 15], value_byte(542, 2, 0));
  // The last a1 page holds records 9144..9999, then padding.
  l->block_image(9 * 16 + 15, img);  // its last block: bytes 7680..8191
  EXPECT_EQ(img[511], 0);
}

TEST(VerticalLayout, RefusesWhatDoesNotFit) {
  EXPECT_FALSE(VerticalLayout::create(kThesisTable, {}, 512, 0, 1000).ok());
  EXPECT_FALSE(VerticalLayout::create({{9000}, 1}, {}, 512, 0, 100'000).ok());
  EXPECT_FALSE(VerticalLayout::create({{8, 0}, 1}, {}, 512, 0, 100'000).ok());
  EXPECT_FALSE(VerticalLayout::create({{8}, 1}, {1000, 0}, 512, 0, 100'000).ok());
}

// The thesis' comparison (§6.3.7) on G2 with its table: the row-major pages
// read everything for any scan; the vertical pages and the capsules read
// only the attributes asked for; a whole record is one page row-major and
// one access as a capsule, but four pages in four places vertically
// ("fetching full records requires n single-attribute table accesses").
// Every block read is checked against the layout.
TEST(ThreeLayouts, ThesisTableOnG2) {
  const auto p = testing::g2_params();
  auto dev = testing::sim(p, /*keep_data=*/true);
  const TableSchema s{{8, 32, 15, 16}, 64 * 270 * 3 + 17};
  QuerySettings qs;
  qs.short_scans = 10;
  qs.random_reads = 50;
  auto normal = NormalLayout::create(s, {}, 512, 0, dev->blocks());
  ASSERT_TRUE(normal.ok());
  auto vertical = VerticalLayout::create(s, {}, 512, normal->end_lbn(), dev->blocks());
  ASSERT_TRUE(vertical.ok());
  auto capsule = CapsuleLayout::create(s, dev->geometry(), 512, vertical->end_lbn());
  ASSERT_TRUE(capsule.ok());
  const std::vector<const TableLayout*> layouts{&*normal, &*vertical, &*capsule};
  std::vector<std::vector<QueryRun>> runs(3);
  for (std::size_t k = 0; k < 3; ++k) {
    ASSERT_TRUE(load_table(*dev, *layouts[k], s).ok());
    for (const Query& q : standard_queries(s, qs)) {
      auto r = run_query(*dev, *layouts[k], q, /*verify=*/true);
      ASSERT_TRUE(r.ok()) << r.error().message;
      EXPECT_EQ(r->verified_blocks, r->blocks) << layouts[k]->name() << ": " << q.name;
      runs[k].push_back(*r);
    }
  }
  const auto& n = runs[0];
  const auto& v = runs[1];
  const auto& c = runs[2];
  // Queries: 0 full scan, 1 a1, 2 a1+a2, 3 short scans, 4 record reads.
  EXPECT_EQ(n[1].blocks, n[0].blocks);
  EXPECT_LT(v[1].blocks * 8, v[0].blocks);  // a1 is 8 of 71 bytes
  EXPECT_EQ(c[1].blocks * 9, c[0].blocks);  // 1 of 9 capsule blocks
  EXPECT_LT(v[1].service_ns * 4, n[1].service_ns);
  EXPECT_LT(c[1].service_ns * 4, n[1].service_ns);
  // A record: one media step as a capsule, at least four vertically.
  EXPECT_EQ(c[4].media_steps, c[4].units);
  EXPECT_GE(v[4].media_steps, 4 * v[4].units);
  EXPECT_LT(c[4].service_ns, v[4].service_ns);
}

}  // namespace
}  // namespace memstore::apps
