// SPDX-License-Identifier: Apache-2.0
// The volatile cache's runs of owned blocks (target/scsi/block_owners.h)
// against a plain array of owners, over random assign/release/drop.
#include "target/scsi/block_owners.h"

#include <gtest/gtest.h>

#include <random>
#include <vector>

namespace memstore::scsi {
namespace {

std::vector<std::uint64_t> flatten(const BlockOwners& owners, std::uint64_t blocks) {
  std::vector<std::uint64_t> out(blocks, 0);
  owners.for_each(0, blocks, [&out](std::uint64_t lba, std::uint64_t n, std::uint64_t owner) {
    for (std::uint64_t b = lba; b < lba + n; ++b) out[b] = owner;
  });
  return out;
}

TEST(BlockOwners, ReleaseSplitsRunsAndCountsWhatEachOwnerLost) {
  BlockOwners o;
  o.assign(0, 10, 1);
  std::vector<std::pair<std::uint64_t, std::uint64_t>> lost;
  o.release(3, 4, [&lost](std::uint64_t owner, std::uint64_t n) { lost.push_back({owner, n}); });
  EXPECT_EQ(lost, (std::vector<std::pair<std::uint64_t, std::uint64_t>>{{1, 4}}));
  o.assign(3, 4, 2);
  EXPECT_EQ(flatten(o, 12), (std::vector<std::uint64_t>{1, 1, 1, 2, 2, 2, 2, 1, 1, 1, 0, 0}));
  o.drop(0, 10, 1);
  EXPECT_EQ(flatten(o, 12), (std::vector<std::uint64_t>{0, 0, 0, 2, 2, 2, 2, 0, 0, 0, 0, 0}));
}

TEST(BlockOwners, MatchesAnArrayOverRandomOperations) {
  constexpr std::uint64_t kBlocks = 64;
  for (std::uint64_t seed = 1; seed <= 500; ++seed) {
    std::mt19937_64 rng(seed);
    BlockOwners o;
    std::vector<std::uint64_t> want(kBlocks, 0);
    std::vector<std::uint64_t> owned(1000, 0);  // blocks per owner, as the lost() calls say
    for (std::uint64_t op = 1; op < 200; ++op) {
      const std::uint64_t lba = rng() % kBlocks;
      const std::uint64_t n = 1 + rng() % std::min<std::uint64_t>(16, kBlocks - lba);
      const auto lost = [&owned](std::uint64_t owner, std::uint64_t k) { owned[owner] -= k; };
      if (rng() % 4 != 0) {
        o.release(lba, n, lost);
        o.assign(lba, n, op);
        owned[op] = n;
        for (std::uint64_t b = lba; b < lba + n; ++b) want[b] = op;
      } else {
        const std::uint64_t victim = want[lba];
        if (victim == 0) continue;
        o.drop(0, kBlocks, victim);
        owned[victim] = 0;
        for (auto& w : want) w = w == victim ? 0 : w;
      }
      ASSERT_EQ(flatten(o, kBlocks), want) << "seed " << seed << " op " << op;
      std::vector<std::uint64_t> count(1000, 0);
      for (const std::uint64_t w : want) ++count[w];
      for (std::uint64_t k = 1; k <= op; ++k) {
        ASSERT_EQ(owned[k], count[k]) << "seed " << seed << " owner " << k;
      }
    }
  }
}

}  // namespace
}  // namespace memstore::scsi
