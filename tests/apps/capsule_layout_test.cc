// SPDX-License-Identifier: Apache-2.0
// Capsule layout (thesis §6.3.7): CapsuleResolve's sizes, the placement of
// Fig. 6.14 on G2, every capsule one parallel access (by the host geometry
// and by the model's planner), the inverse mapping, and block contents.
#include "apps/capsule_layout.h"

#include <gtest/gtest.h>

#include <set>

#include "apps/normal_layout.h"
#include "model/batch.h"
#include "model/geometry.h"
#include "tests/apps/devices.h"

namespace memstore::apps {
namespace {

using testing::geometry_of;
using testing::small_params;

TEST(CapsuleResolve, Figure614) {
  const auto g = geometry_of(testing::g2_params());
  auto s = capsule_resolve({{8, 16}, 1000}, 512, g);
  ASSERT_TRUE(s.ok()) << s.error().message;
  EXPECT_EQ(s->records, 64u);
  EXPECT_EQ(s->attribute_blocks, (std::vector<std::uint32_t>{1, 2}));
  EXPECT_EQ(s->attribute_offset, (std::vector<std::uint32_t>{0, 1}));
  EXPECT_EQ(s->blocks, 3u);
}

TEST(CapsuleResolve, DefaultTableAndOddSizes) {
  const auto g = geometry_of(testing::g2_params());
  auto s = capsule_resolve({{8, 16, 8, 8}, 1}, 512, g);
  ASSERT_TRUE(s.ok());
  EXPECT_EQ(s->records, 64u);
  EXPECT_EQ(s->blocks, 5u);
  // 12 bytes: 128 records fill 3 blocks exactly.
  auto t = capsule_resolve({{12, 4}, 1}, 512, g);
  ASSERT_TRUE(t.ok());
  EXPECT_EQ(t->records, 128u);
  EXPECT_EQ(t->attribute_blocks, (std::vector<std::uint32_t>{3, 1}));
  // An explicit K pads the last block of an attribute.
  auto u = capsule_resolve({{8, 16}, 1}, 512, g, 50);
  ASSERT_TRUE(u.ok());
  EXPECT_EQ(u->attribute_blocks, (std::vector<std::uint32_t>{1, 2}));
}

// The thesis' table (§6.3.7; the sizes as issue 37 gives them): a1..a4 of
// 8, 32, 15 and 16 bytes. By Fig. 6.14's rule a capsule holds the records
// that fill one block with the smallest attribute, 512 / 8 = 64, and each
// attribute takes whole blocks: 1 + 4 + 2 + 2 = 9 <= p = 10, one parallel
// access. The 15-byte attribute's 64 values fill 960 of its 1024 bytes.
TEST(CapsuleResolve, ThesisTable) {
  const auto g = geometry_of(testing::g2_params());
  auto s = capsule_resolve({{8, 32, 15, 16}, 10'000'000}, 512, g);
  ASSERT_TRUE(s.ok()) << s.error().message;
  EXPECT_EQ(s->records, 64u);
  EXPECT_EQ(s->attribute_blocks, (std::vector<std::uint32_t>{1, 4, 2, 2}));
  EXPECT_EQ(s->attribute_offset, (std::vector<std::uint32_t>{0, 1, 5, 7}));
  EXPECT_EQ(s->blocks, 9u);
}

TEST(CapsuleResolve, TooBigForOneAccess) {
  const auto g = geometry_of(testing::g2_params());
  auto s = capsule_resolve({{64, 64, 64}, 1}, 512, g, 64);  // 24 blocks > p = 10
  ASSERT_FALSE(s.ok());
  EXPECT_NE(s.error().message.find("one parallel access (p = 10)"), std::string::npos)
      << s.error().message;
  // Small device: Ny = 4 limits a capsule to 4 blocks though p = 10.
  auto t = capsule_resolve({{8, 16, 8, 8}, 1}, 512, geometry_of(small_params()));
  ASSERT_FALSE(t.ok());
  EXPECT_NE(t.error().message.find("Ny = 4"), std::string::npos) << t.error().message;
}

TEST(CapsuleLayout, Figure614OnG2) {
  const auto g = geometry_of(testing::g2_params());
  auto l = CapsuleLayout::create({{8, 16}, 64'000}, g, 512, 0);
  ASSERT_TRUE(l.ok()) << l.error().message;
  // Capsule 0: a1 at LBN 0, a2 in the same column of tracks 1 (reversed: row
  // Sy - 1) and 2.
  EXPECT_EQ(l->capsule_blocks(0), (std::vector<Lbn>{0, 530, 540}));
  // a1 of capsules 0-269 is track 0; a2 is tracks 1 and 2.
  std::set<Lbn> a1, a2;
  for (std::uint64_t q = 0; q < 270; ++q) {
    const auto b = l->capsule_blocks(q);
    a1.insert(b[0]);
    a2.insert(b[1]);
    a2.insert(b[2]);
  }
  EXPECT_EQ(*a1.begin(), 0u);
  EXPECT_EQ(*a1.rbegin(), 269u);
  EXPECT_EQ(a1.size(), 270u);
  EXPECT_EQ(*a2.begin(), 270u);
  EXPECT_EQ(*a2.rbegin(), 809u);
  EXPECT_EQ(a2.size(), 540u);
  // The next row of capsules starts after those three tracks; a cylinder
  // holds three rows (track 9 unused), then the next cylinder.
  EXPECT_EQ(l->capsule_lbn(270), 810u);
  EXPECT_EQ(l->capsule_lbn(540), 1620u);
  EXPECT_EQ(l->capsule_lbn(810), 2700u);
  EXPECT_FALSE(l->place_of(2430).has_value());  // track 9
}

// On a small device: every capsule is one parallel access, the capsules
// share no block, place_of inverts capsule_blocks.
void check_layout(const model::DeviceParams& params, const TableSchema& schema, Lbn first) {
  const auto g = geometry_of(params);
  const model::Geometry mg(params);
  auto l = CapsuleLayout::create(schema, g, 512, first);
  ASSERT_TRUE(l.ok()) << l.error().message;
  EXPECT_EQ(l->first_lbn() % g.page().sc, 0u);
  EXPECT_GE(l->first_lbn(), first);
  std::set<Lbn> seen;
  for (std::uint64_t q = 0; q < l->capsules(); ++q) {
    const auto blocks = l->capsule_blocks(q);
    EXPECT_EQ(blocks[0], l->capsule_lbn(q));
    EXPECT_TRUE(g.parallel_accessible(blocks)) << "capsule " << q;
    std::vector<model::BatchExtent> batch;
    for (std::uint32_t k = 0; k < blocks.size(); ++k) {
      EXPECT_TRUE(seen.insert(blocks[k]).second) << "block " << blocks[k] << " used twice";
      EXPECT_GE(blocks[k], l->first_lbn());
      EXPECT_LT(blocks[k], l->end_lbn());
      const auto place = l->place_of(blocks[k]);
      ASSERT_TRUE(place.has_value());
      EXPECT_EQ(place->capsule, q);
      EXPECT_EQ(place->block, k);
      batch.push_back({model::Op::kRead, static_cast<model::Lbn>(blocks[k]), 1});
    }
    EXPECT_EQ(model::plan_batch(mg, batch).size(), 1u);
    // Consecutive capsules in a track: consecutive first blocks.
    if (q > 0 && g.ensemble(l->capsule_lbn(q - 1)).last != l->capsule_lbn(q - 1)) {
      EXPECT_EQ(l->capsule_lbn(q), l->capsule_lbn(q - 1) + 1);
    }
  }
  EXPECT_EQ(seen.size(), l->data_blocks());
  // Every other block of the region is a hole.
  for (Lbn b = l->first_lbn(); b < l->end_lbn(); ++b) {
    EXPECT_EQ(l->place_of(b).has_value(), seen.count(b) == 1) << b;
  }
}

TEST(CapsuleLayout, SmallDeviceEveryCapsuleOneAccess) {
  check_layout(small_params(), {{8, 16}, 44'800}, 0);       // c = 3, Ny = 4: 1 track unused
  check_layout(small_params(), {{8, 16, 8}, 32'000}, 130);  // c = 4, from cylinder 1
  check_layout(small_params(3), {{8, 8}, 51'200}, 0);       // c = 2; M does not matter
}

TEST(CapsuleLayout, TooLargeForTheDevice) {
  auto l = CapsuleLayout::create({{8, 16}, 6'400'000}, geometry_of(small_params()), 512, 0);
  ASSERT_FALSE(l.ok());
  EXPECT_NE(l.error().message.find("fit on the device"), std::string::npos) << l.error().message;
}

TEST(CapsuleLayout, BlocksForAttributes) {
  const auto g = geometry_of(small_params());
  auto l = CapsuleLayout::create({{8, 16, 8}, 64 * 100 + 10}, g, 512, 0);
  ASSERT_TRUE(l.ok());
  EXPECT_EQ(l->capsules(), 101u);
  EXPECT_EQ(l->blocks_for(0, 64 * 100 + 10, 0b001).size(), 101u);
  EXPECT_EQ(l->blocks_for(0, 64 * 100 + 10, 0b010).size(), 202u);
  EXPECT_EQ(l->blocks_for(0, 64 * 100 + 10, 0b111).size(), 404u);
  // Records 60-70 straddle capsules 0 and 1.
  const auto b = l->blocks_for(60, 10, 0b011);
  EXPECT_EQ(b.size(), 6u);
  EXPECT_TRUE(std::is_sorted(b.begin(), b.end()));
  // a1 of the 50 capsules of one track: consecutive LBNs.
  const auto a1 = l->blocks_for(0, 3200, 0b001);
  for (std::size_t i = 1; i < a1.size(); ++i) EXPECT_EQ(a1[i], a1[i - 1] + 1);
}

TEST(CapsuleLayout, BlockImageHoldsTheRecords) {
  const auto g = geometry_of(small_params());
  const TableSchema s{{8, 16, 8}, 64 * 3 + 5};
  auto l = CapsuleLayout::create(s, g, 512, 0);
  ASSERT_TRUE(l.ok());
  Bytes img(512);
  // Record 130 = capsule 2, slot 2. a2 (16 bytes) slot 2 is bytes 32-47 of
  // its first block, capsule block 1.
  l->block_image(l->capsule_blocks(2)[1], img);
  for (std::uint32_t k = 0; k < 16; ++k) EXPECT_EQ(img[32 + k], value_byte(130, 1, k));
  // The last capsule holds records 192-196 only: padding after them.
  l->block_image(l->capsule_blocks(3)[0], img);
  EXPECT_EQ(img[0], value_byte(192, 0, 0));
  EXPECT_EQ(img[40], 0);  // slot 5
  EXPECT_EQ(img[511], 0);
}

// The thesis' 10,000,000 records on G2: 156,250 capsules of 64 records,
// every one a single parallel access, a row of 270 capsules in 9 of a
// cylinder's 10 tracks; and the records are where the capsule says, the
// 15-byte values running across a3's two blocks and padded after slot 63.
TEST(CapsuleLayout, ThesisTableHoldsItsRecords) {
  const auto g = geometry_of(testing::g2_params());
  const TableSchema s{{8, 32, 15, 16}, 10'000'000};
  auto l = CapsuleLayout::create(s, g, 512, 0);
  ASSERT_TRUE(l.ok()) << l.error().message;
  EXPECT_EQ(l->capsules(), 156'250u);
  EXPECT_EQ(l->data_blocks(), 156'250u * 9);
  // 270 capsules per track row, one row per cylinder (10 / 9 = 1 group).
  EXPECT_EQ(l->capsule_lbn(269), 269u);
  EXPECT_EQ(l->capsule_lbn(270), 2700u);
  for (const std::uint64_t q : {0ull, 1ull, 269ull, 270ull, 77'777ull, 156'249ull}) {
    const auto blocks = l->capsule_blocks(q);
    ASSERT_EQ(blocks.size(), 9u);
    EXPECT_TRUE(g.parallel_accessible(blocks)) << "capsule " << q;
    for (std::uint32_t k = 0; k < 9; ++k) {
      const auto place = l->place_of(blocks[k]);
      ASSERT_TRUE(place.has_value());
      EXPECT_EQ(place->capsule, q);
      EXPECT_EQ(place->block, k);
    }
  }
  // The last capsule holds records 9,999,936..9,999,999: all 64 slots.
  EXPECT_EQ(l->blocks_for(9'999'999, 1, 0b1111).size(), 9u);
  Bytes img(512);
  const auto c = l->capsule_blocks(1);  // records 64..127
  // a2 (32 bytes) of record 64 + 20: capsule block 1 + (20 * 32) / 512 = 2, byte 128.
  l->block_image(c[2], img);
  for (std::uint32_t k = 0; k < 32; ++k) EXPECT_EQ(img[128 + k], value_byte(84, 1, k));
  // a3 (15 bytes) of slot 34 starts at byte 510 of a3's first block (capsule
  // block 5) and ends in its second (block 6).
  l->block_image(c[5], img);
  EXPECT_EQ(img[510], value_byte(98, 2, 0));
  EXPECT_EQ(img[511], value_byte(98, 2, 1));
  l->block_image(c[6], img);
  EXPECT_EQ(img[0], value_byte(98, 2, 2));
  EXPECT_EQ(img[12], value_byte(98, 2, 14));
  // Slot 63 ends at byte 960 of the pair: 448 of the second block; padding after.
  EXPECT_EQ(img[447], value_byte(127, 2, 14));
  EXPECT_EQ(img[448], 0);
  EXPECT_EQ(img[511], 0);
}

TEST(NormalLayout, PagesOfWholeRecords) {
  const TableSchema s{{8, 16, 8, 8}, 1000};
  auto l = NormalLayout::create(s, {}, 512, 0, 12000);
  ASSERT_TRUE(l.ok());
  EXPECT_EQ(l->records_per_page(), (8192u - 64) / 40);  // 203
  EXPECT_EQ(l->pages(), 5u);
  EXPECT_EQ(l->end_lbn(), 80u);
  const auto b = l->blocks_for(203, 1, 1);  // page 1, whatever the attributes
  ASSERT_EQ(b.size(), 16u);
  EXPECT_EQ(b.front(), 16u);
  EXPECT_EQ(l->blocks_for(200, 10, 1).size(), 32u);
  Bytes img(512);
  l->block_image(16, img);
  EXPECT_EQ(img[0], 1);  // page number 1
  EXPECT_EQ(img[64], value_byte(203, 0, 0));
  EXPECT_EQ(img[64 + 8], value_byte(203, 1, 0));
  EXPECT_EQ(img[64 + 40], value_byte(204, 0, 0));
}

TEST(NormalLayout, RefusesWhatDoesNotFit) {
  EXPECT_FALSE(NormalLayout::create({{8}, 1'000'000}, {}, 512, 0, 12000).ok());
  EXPECT_FALSE(NormalLayout::create({{9000}, 1}, {}, 512, 0, 12000).ok());
  EXPECT_FALSE(NormalLayout::create({{8}, 1}, {1000, 0}, 512, 0, 12000).ok());
}

}  // namespace
}  // namespace memstore::apps
