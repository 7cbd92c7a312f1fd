// SPDX-License-Identifier: Apache-2.0
// The volatile write cache's durability contract (target/scsi/volatile_cache.h):
// what a power cut may take and what it may never take.
#include "target/scsi/volatile_cache.h"

#include <gtest/gtest.h>

#include <algorithm>
#include <cstring>
#include <random>
#include <set>

#include "tests/scsi/block_pattern.h"

namespace memstore::scsi {
namespace {

constexpr std::uint32_t kBlock = testing::kPatternBlock;

// The medium: a plain vector, so that 10,000 runs cost milliseconds each
// (MemoryStore's mappings cost more to make than these runs do).
class VectorStore final : public BackingStore {
 public:
  explicit VectorStore(std::uint64_t blocks) : bytes_(blocks * kBlock, 0) {}
  std::uint64_t blocks() const override { return bytes_.size() / kBlock; }
  std::uint32_t block_size() const override { return kBlock; }
  StoreStatus read(std::uint64_t lba, std::uint64_t count, std::span<std::uint8_t> out) override {
    if (auto e = check_access(*this, "read", lba, count, out.size()); !e.ok()) return e;
    std::memcpy(out.data(), bytes_.data() + lba * kBlock, out.size());
    return {};
  }
  StoreStatus write(std::uint64_t lba, std::uint64_t count,
                    std::span<const std::uint8_t> in) override {
    if (auto e = check_access(*this, "write", lba, count, in.size()); !e.ok()) return e;
    std::memcpy(bytes_.data() + lba * kBlock, in.data(), in.size());
    return {};
  }
  StoreStatus unmap(std::uint64_t lba, std::uint64_t count) override {
    if (auto e = check_access(*this, "unmap", lba, count, std::nullopt); !e.ok()) return e;
    std::memset(bytes_.data() + lba * kBlock, 0, count * kBlock);
    return {};
  }
  StoreStatus flush() override { return {}; }
  bool volatile_cache() const override { return false; }
  std::string describe() const override { return "a vector"; }

 private:
  std::vector<std::uint8_t> bytes_;
};

std::unique_ptr<BackingStore> medium(std::uint64_t blocks) {
  return std::make_unique<VectorStore>(blocks);
}

VolatileCacheConfig sized(std::uint64_t capacity_blocks, std::uint32_t atomic_blocks = 1) {
  VolatileCacheConfig c;
  c.capacity_bytes = capacity_blocks * kBlock;
  c.atomic_blocks = atomic_blocks;
  return c;
}

using testing::block_of;
using testing::blocks_of;

// Which write's data the block holds; -1 when it is none of them (a block
// mixed from two writes, or garbage).
std::int64_t value_in(const std::vector<std::uint8_t>& all, std::uint64_t lba) {
  const std::uint8_t* p = all.data() + lba * kBlock;
  std::uint64_t value = 0;
  std::memcpy(&value, p, 8);
  const auto want = block_of(value, lba);
  return std::memcmp(p, want.data(), kBlock) == 0 ? static_cast<std::int64_t>(value) : -1;
}

std::vector<std::uint8_t> read_all(BackingStore& store) {
  std::vector<std::uint8_t> all(store.blocks() * kBlock);
  EXPECT_TRUE(store.read(0, store.blocks(), all).ok());
  return all;
}

PowerCutReport cut(VolatileCacheStore& store, CutPolicy policy, std::uint64_t seed) {
  auto r = store.power_cut(policy, seed);
  EXPECT_TRUE(r.ok());
  return std::move(r).value();
}

TEST(VolatileCache, AWriteIsLostAtACutUntilFlushed) {
  VolatileCacheStore store(medium(16), {});
  ASSERT_TRUE(store.write(3, 2, blocks_of(1, 3, 2)).ok());
  EXPECT_EQ(value_in(read_all(store), 3), 1) << "reads see the cached data";
  const PowerCutReport report = cut(store, CutPolicy::kDropAll, 1);
  ASSERT_EQ(report.writes.size(), 1u);
  EXPECT_EQ(report.writes[0].sequence, 1u);
  EXPECT_EQ(report.writes[0].outcome, CutWrite::Outcome::kLost);
  EXPECT_EQ(report.writes[0].lost, (std::vector<BlockRun>{{3, 2}}));
  EXPECT_EQ(report.blocks_lost(), 2u);
  EXPECT_EQ(value_in(read_all(store), 3), 0);

  ASSERT_TRUE(store.write(3, 2, blocks_of(2, 3, 2)).ok());
  ASSERT_TRUE(store.flush().ok());
  EXPECT_TRUE(cut(store, CutPolicy::kDropAll, 1).writes.empty());
  EXPECT_EQ(value_in(read_all(store), 4), 2);
}

TEST(VolatileCache, ADurableWriteSurvivesAndTakesOnlyItsOwnBlocksToTheMedium) {
  VolatileCacheStore store(medium(16), {});
  ASSERT_TRUE(store.write(0, 1, blocks_of(1, 0, 1)).ok());
  ASSERT_TRUE(store.write_durable(5, 1, blocks_of(2, 5, 1)).ok());
  const PowerCutReport report = cut(store, CutPolicy::kDropAll, 1);
  const auto all = read_all(store);
  EXPECT_EQ(value_in(all, 0), 0) << "FUA is not a flush of the whole cache";
  EXPECT_EQ(value_in(all, 5), 2);
  EXPECT_EQ(report.blocks_lost(), 1u);
}

TEST(VolatileCache, AFullCacheWritesBackItsOldestWrite) {
  VolatileCacheStore store(medium(16), sized(2));
  ASSERT_TRUE(store.write(0, 1, blocks_of(1, 0, 1)).ok());
  ASSERT_TRUE(store.write(1, 1, blocks_of(2, 1, 1)).ok());
  ASSERT_TRUE(store.write(2, 1, blocks_of(3, 2, 1)).ok());
  EXPECT_EQ(store.cached_bytes(), 2u * kBlock);
  cut(store, CutPolicy::kDropAll, 1);
  const auto all = read_all(store);
  EXPECT_EQ(value_in(all, 0), 1);
  EXPECT_EQ(value_in(all, 1), 0);
  EXPECT_EQ(value_in(all, 2), 0);
}

TEST(VolatileCache, AnIdleCacheWritesBackOnItsOwn) {
  auto t = std::chrono::steady_clock::time_point{};
  VolatileCacheConfig config;
  config.writeback_idle = std::chrono::milliseconds(50);
  config.now = [&t] { return t; };
  VolatileCacheStore store(medium(16), config);
  ASSERT_TRUE(store.write(0, 1, blocks_of(1, 0, 1)).ok());
  t += std::chrono::milliseconds(49);
  ASSERT_TRUE(store.write(1, 1, blocks_of(2, 1, 1)).ok());
  t += std::chrono::milliseconds(50);
  cut(store, CutPolicy::kDropAll, 1);
  const auto all = read_all(store);
  EXPECT_EQ(value_in(all, 0), 1) << "idle for 50 ms before the cut";
  EXPECT_EQ(value_in(all, 1), 2);
}

TEST(VolatileCache, ReplacedBlocksAreNeverWrittenBackWithOlderData) {
  VolatileCacheStore store(medium(16), sized(8));
  ASSERT_TRUE(store.write(0, 4, blocks_of(1, 0, 4)).ok());
  ASSERT_TRUE(store.write(2, 4, blocks_of(2, 2, 4)).ok());
  ASSERT_TRUE(store.write(8, 2, blocks_of(3, 8, 2)).ok());  // pushes write 1 out
  const PowerCutReport report = cut(store, CutPolicy::kDropAll, 1);
  const auto all = read_all(store);
  EXPECT_EQ(value_in(all, 1), 1);
  EXPECT_EQ(value_in(all, 2), 0) << "write 2 owned it and was lost; write 1 never wrote it";
  ASSERT_EQ(report.writes.size(), 2u);
  EXPECT_EQ(report.writes[0].sequence, 2u);
}

TEST(VolatileCache, PolicyNamesRoundTrip) {
  for (const char* name : {"drop-all", "keep-random", "torn"}) {
    const auto policy = cut_policy_named(name);
    ASSERT_TRUE(policy.has_value()) << name;
    EXPECT_EQ(cut_policy_name(*policy), name);
  }
  EXPECT_FALSE(cut_policy_named("drop").has_value());
}

// The invariant, over 10,000 seeded cuts of random write, FUA, flush and
// unmap sequences: after the cut every block holds its last durable data or
// the data of a newer write the policy kept, whole; reads before the cut
// see the newest data; the report names exactly what was lost; a torn write
// keeps or loses whole atomic units.
TEST(VolatileCache, NoDurableWriteIsEverLostOver10000SeededCuts) {
  constexpr std::uint64_t kBlocks = 48;
  std::uint64_t lost_total = 0, kept_total = 0, torn_writes = 0;
  for (std::uint64_t seed = 1; seed <= 10000; ++seed) {
    std::mt19937_64 rng(seed);
    const auto pick = [&rng](std::uint64_t n) { return rng() % n; };
    const auto policy = static_cast<CutPolicy>(pick(3));
    const std::uint32_t unit = 1u << pick(3);
    VolatileCacheStore store(medium(kBlocks), sized(2 + pick(30), unit));
    std::vector<std::uint64_t> newest(kBlocks, 0), durable(kBlocks, 0);
    std::vector<std::set<std::uint64_t>> since(kBlocks);
    std::uint64_t sequence = 0;
    const std::uint64_t ops = 1 + pick(40);
    for (std::uint64_t op = 0; op < ops; ++op) {
      const std::uint64_t kind = pick(20);
      const std::uint64_t lba = pick(kBlocks);
      const std::uint64_t count = std::min<std::uint64_t>(1 + pick(8), kBlocks - lba);
      if (kind < 13) {  // a write, cached
        ++sequence;
        ASSERT_TRUE(store.write(lba, count, blocks_of(sequence, lba, count)).ok());
        for (std::uint64_t b = lba; b < lba + count; ++b) {
          newest[b] = sequence;
          since[b].insert(sequence);
        }
      } else if (kind < 15) {  // FUA, or WCE = 0
        ++sequence;
        ASSERT_TRUE(store.write_durable(lba, count, blocks_of(sequence, lba, count)).ok());
        for (std::uint64_t b = lba; b < lba + count; ++b) {
          newest[b] = durable[b] = sequence;
          since[b].clear();
        }
      } else if (kind < 17) {  // SYNCHRONIZE CACHE
        ASSERT_TRUE(store.flush().ok());
        durable = newest;
        for (auto& s : since) s.clear();
      } else if (kind < 18) {  // UNMAP: durable on the same terms as a write
        ASSERT_TRUE(store.unmap(lba, count).ok());
        for (std::uint64_t b = lba; b < lba + count; ++b) {
          newest[b] = 0;
          since[b].insert(0);
        }
      } else {  // a read sees the newest data
        std::vector<std::uint8_t> out(count * kBlock);
        ASSERT_TRUE(store.read(lba, count, out).ok());
        for (std::uint64_t i = 0; i < count; ++i) {
          ASSERT_EQ(std::memcmp(out.data() + i * kBlock, block_of(newest[lba + i], lba + i).data(),
                                kBlock),
                    0)
              << "seed " << seed << " LBA " << lba + i;
        }
      }
    }
    const PowerCutReport report = cut(store, policy, seed);
    const auto after = read_all(store);
    // What the report says each block's newest volatile write did.
    std::vector<int> fate(kBlocks, 0);  // 1 kept, -1 lost, per the newest write's entry
    for (const CutWrite& w : report.writes) {
      if (policy == CutPolicy::kDropAll) {
        ASSERT_TRUE(w.kept.empty()) << "seed " << seed;
      }
      if (policy == CutPolicy::kKeepRandom) {
        ASSERT_NE(w.outcome, CutWrite::Outcome::kTorn) << "seed " << seed;
      }
      if (w.outcome == CutWrite::Outcome::kTorn) ++torn_writes;
      std::vector<int> unit_fate(kBlocks / unit + 1, 0);
      for (const auto& [runs, mark] : {std::pair{&w.kept, 1}, std::pair{&w.lost, -1}}) {
        for (const BlockRun& r : *runs) {
          for (std::uint64_t b = r.lba; b < r.lba + r.blocks; ++b) {
            ASSERT_GE(b, w.lba);
            ASSERT_LT(b, w.lba + w.blocks);
            ASSERT_EQ(newest[b], w.sequence) << "seed " << seed << ": the block's newest write";
            fate[b] = mark;
            int& u = unit_fate[b / unit];
            ASSERT_TRUE(u == 0 || u == mark) << "seed " << seed << ": torn inside a unit";
            u = mark;
          }
        }
      }
    }
    for (std::uint64_t b = 0; b < kBlocks; ++b) {
      const std::int64_t v = value_in(after, b);
      ASSERT_GE(v, 0) << "seed " << seed << " LBA " << b << ": a block of no single write";
      const auto value = static_cast<std::uint64_t>(v);
      ASSERT_TRUE(value == durable[b] || since[b].contains(value))
          << "seed " << seed << " LBA " << b << ": holds write " << value << ", durable was "
          << durable[b];
      if (fate[b] == 1) {
        ASSERT_EQ(value, newest[b]) << "seed " << seed << " LBA " << b;
        ++kept_total;
      }
      if (fate[b] == -1) {
        ASSERT_NE(value, newest[b]) << "seed " << seed << " LBA " << b;
        ++lost_total;
      }
    }
  }
  // The runs exercised every outcome.
  EXPECT_GT(lost_total, 0u);
  EXPECT_GT(kept_total, 0u);
  EXPECT_GT(torn_writes, 0u);
}

}  // namespace
}  // namespace memstore::scsi
