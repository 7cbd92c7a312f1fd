// SPDX-License-Identifier: Apache-2.0
// Fault rules in model terms: which commands match, how often a rule fires,
// that a seed repeats the same decisions, and that the failed-tip and
// media-region actions name exactly the blocks the layout puts there.
#include "target/scsi/fault_set.h"

#include <gtest/gtest.h>

#include "target/scsi/fault_range.h"
#include "tests/scsi/cdb_builders.h"

namespace memstore::scsi {
namespace {

using testing::read16;
using testing::rw10;
using testing::write16;

const model::Geometry& g2() {
  static const model::Geometry g(*model::preset("g2"));
  return g;
}

FaultQuery query(const std::vector<std::uint8_t>& cdb, std::string_view initiator = "iqn.a") {
  FaultQuery q;
  q.cdb = cdb;
  q.range = block_range(cdb, static_cast<std::uint64_t>(g2().blocks()));
  q.initiator = initiator;
  return q;
}

TEST(FaultRange, ReadsAndWritesOfEverySizeGiveTheirBlocks) {
  const auto r10 = block_range(rw10(0x28, 100, 8), 1000);
  ASSERT_TRUE(r10);
  EXPECT_EQ(r10->lba, 100U);
  EXPECT_EQ(r10->blocks, 8U);
  EXPECT_EQ(r10->op, FaultOp::kRead);
  const auto w16 = block_range(write16(1ULL << 33, 3), 1ULL << 40);
  ASSERT_TRUE(w16);
  EXPECT_EQ(w16->lba, 1ULL << 33);
  EXPECT_EQ(w16->op, FaultOp::kWrite);
  // READ(6): 21-bit LBA, 0 blocks means 256 (SBC-3 §5.16).
  const std::vector<std::uint8_t> r6 = {0x08, 0xE1, 0x00, 0x05, 0x00, 0};
  EXPECT_EQ(block_range(r6, 1 << 22)->lba, 0x010005U);
  EXPECT_EQ(block_range(r6, 1 << 22)->blocks, 256U);
  // WRITE SAME(10) with 0 blocks runs to the last LBA.
  const std::vector<std::uint8_t> ws = {0x41, 0, 0, 0, 0, 10, 0, 0, 0, 0};
  EXPECT_EQ(block_range(ws, 50)->blocks, 40U);
  // INQUIRY addresses no blocks.
  EXPECT_FALSE(block_range(std::vector<std::uint8_t>{0x12, 0, 0, 0, 36, 0}, 50));
}

TEST(FaultSet, MatchesOperationLbaAndInitiator) {
  FaultSet set;
  FaultRule r;
  r.op = FaultOp::kRead;
  r.lba = {{1000, 1007}};
  r.initiator = "iqn.bad";
  const std::uint32_t id = set.add(r);
  EXPECT_FALSE(set.check(query(rw10(0x28, 990, 8), "iqn.bad"), g2()));    // ends before 1000
  EXPECT_FALSE(set.check(query(rw10(0x2A, 1000, 8), "iqn.bad"), g2()));   // a write
  EXPECT_FALSE(set.check(query(rw10(0x28, 1000, 8), "iqn.good"), g2()));  // another initiator
  const auto fired = set.check(query(rw10(0x28, 996, 8), "iqn.bad"), g2());
  ASSERT_TRUE(fired);
  EXPECT_EQ(fired->rule_id, id);
  EXPECT_EQ(fired->bad_lba, 1000U);  // the first block of the command the rule covers
  EXPECT_EQ(set.rules()[0].matched, 1U);
  EXPECT_EQ(set.rules()[0].fired, 1U);
}

TEST(FaultSet, RuleWithLbaIgnoresCommandsWithoutBlocks) {
  FaultSet set;
  FaultRule r;
  r.lba = {{0, 10}};
  set.add(r);
  EXPECT_FALSE(set.check(query({0x00, 0, 0, 0, 0, 0}), g2()));  // TEST UNIT READY
  FaultRule any;
  set.add(any);
  EXPECT_TRUE(set.check(query({0x00, 0, 0, 0, 0, 0}), g2()));
}

TEST(FaultSet, EveryNthOnceAndAfter) {
  FaultSet set;
  FaultRule every3;
  every3.every = 3;
  set.add(every3);
  std::vector<bool> fired;
  for (int i = 0; i < 9; ++i) fired.push_back(set.check(query(read16(i, 1)), g2()).has_value());
  EXPECT_EQ(fired, (std::vector<bool>{false, false, true, false, false, true, false, false, true}));

  FaultSet once;
  FaultRule r;
  r.once = true;
  r.after_ns = 5000;
  once.add(r);
  FaultQuery q = query(read16(0, 1));
  q.arrival_ns = 4999;
  EXPECT_FALSE(once.check(q, g2()));
  q.arrival_ns = 5000;
  EXPECT_TRUE(once.check(q, g2()));
  EXPECT_FALSE(once.check(q, g2()));
}

std::vector<int> fired_indices(std::uint64_t seed) {
  FaultSet set(seed);
  FaultRule r;
  r.probability = 0.25;
  set.add(r);
  std::vector<int> out;
  for (int i = 0; i < 400; ++i) {
    if (set.check(query(read16(i, 1)), g2())) out.push_back(i);
  }
  return out;
}

TEST(FaultSet, TheSameSeedFiresOnTheSameCommands) {
  const std::vector<int> a = fired_indices(42);
  EXPECT_EQ(a, fired_indices(42));
  EXPECT_NE(a, fired_indices(43));
  // About a quarter of 400, not all or none.
  EXPECT_GT(a.size(), 60U);
  EXPECT_LT(a.size(), 140U);
}

TEST(FaultSet, FirstRuleThatFiresWinsAndRemovedRulesStop) {
  FaultSet set;
  FaultRule busy;
  busy.action = FaultAction::kBusy;
  busy.every = 2;
  FaultRule sense;
  sense.action = FaultAction::kSense;
  const std::uint32_t a = set.add(busy);
  const std::uint32_t b = set.add(sense);
  EXPECT_EQ(set.check(query(read16(0, 1)), g2())->rule_id, b);  // busy counts 1, does not fire
  EXPECT_EQ(set.check(query(read16(0, 1)), g2())->rule_id, a);  // busy fires; sense not asked
  EXPECT_EQ(set.rules()[1].matched, 1U);
  EXPECT_TRUE(set.remove(a));
  EXPECT_FALSE(set.remove(a));
  EXPECT_EQ(set.check(query(read16(0, 1)), g2())->rule_id, b);
}

// Brute force over the layout: the first block in [lo, hi] whose physical
// address the rule covers.
std::optional<std::uint64_t> brute(const FaultRule& r, std::uint64_t lo, std::uint64_t hi) {
  const model::Geometry& g = g2();
  for (std::uint64_t l = lo; l <= hi; ++l) {
    const model::PhysicalAddress a = g.to_physical(static_cast<model::Lbn>(l));
    if (a.sled != r.sled) continue;
    if (r.action == FaultAction::kFailedTip && a.square == r.tip) return l;
    if (r.action == FaultAction::kMediaRegion) {
      const std::int32_t x = (a.square % g.p()) * g.sx() + a.x;
      const std::int32_t y = (a.square / g.p()) * g.sy() + a.y;
      if (x >= r.x.first && x <= r.x.second && y >= r.y.first && y <= r.y.second) return l;
    }
  }
  return std::nullopt;
}

TEST(FaultGeometry, FailedTipNamesTheBlocksItsSquareHolds) {
  const model::Geometry& g = g2();
  const auto span = static_cast<std::uint64_t>(g.sc()) * 2 + 17;  // two cylinders and some
  for (const std::int32_t tip : {0, 1, g.p() - 1, g.p(), g.n() - 1}) {
    FaultRule r;
    r.action = FaultAction::kFailedTip;
    r.tip = tip;
    for (const std::uint64_t lo : {std::uint64_t{0}, std::uint64_t{5}, span / 3}) {
      EXPECT_EQ(first_bad_lba(r, g, lo, lo + span), brute(r, lo, lo + span))
          << "tip " << tip << " from " << lo;
    }
    // Every block of the tip in the first cylinder, one at a time.
    std::uint64_t count = 0;
    for (std::uint64_t l = 0; l < static_cast<std::uint64_t>(g.sc()); ++l) {
      const bool bad = first_bad_lba(r, g, l, l).has_value();
      EXPECT_EQ(bad, g.to_physical(static_cast<model::Lbn>(l)).square == tip) << l;
      count += bad ? 1 : 0;
    }
    // A square holds Sy blocks of each cylinder (thesis §2.4).
    EXPECT_EQ(count, static_cast<std::uint64_t>(g.sy()));
  }
}

TEST(FaultGeometry, MediaRegionNamesTheBlocksInTheRectangle) {
  const model::Geometry& g = g2();
  FaultRule r;
  r.action = FaultAction::kMediaRegion;
  r.x = {g.sx() + 2, g.sx() + 4};  // columns 2-4 of the second column of squares
  r.y = {g.sy() - 3, g.sy() + 1};  // across the first and second rows of squares
  const auto hi = static_cast<std::uint64_t>(g.sc()) * 8;
  for (const std::uint64_t lo : {std::uint64_t{0}, static_cast<std::uint64_t>(g.sc()) * 3 + 1}) {
    const auto expect = brute(r, lo, hi);
    ASSERT_TRUE(expect.has_value());
    EXPECT_EQ(first_bad_lba(r, g, lo, hi), expect);
  }
  // Cylinders 0 and 1 are outside x = Sx+2..Sx+4 for every square column but the second.
  EXPECT_FALSE(first_bad_lba(r, g, 0, static_cast<std::uint64_t>(g.sc()) * 2 - 1));
}

}  // namespace
}  // namespace memstore::scsi
