// SPDX-License-Identifier: Apache-2.0
// The volatile cache's asynchronous write-back (volatile_cache_async.cc)
// against a medium whose operations finish only when the test says: a
// SYNCHRONIZE CACHE waits for the write-backs it covers, reads see the
// newest data while write-backs are in flight, and 10,000 seeded power cuts
// with write-backs in flight lose no durable write (docs/crash-consistency.md).
#include <fcntl.h>
#include <gtest/gtest.h>
#include <poll.h>
#include <unistd.h>

#include <algorithm>
#include <cstring>
#include <deque>
#include <map>
#include <random>
#include <set>

#include "target/scsi/file_store.h"
#include "target/scsi/volatile_cache.h"
#include "tests/scsi/block_pattern.h"
#include "tests/scsi/temp_dir.h"

namespace memstore::scsi {
namespace {

constexpr std::uint32_t kBlock = testing::kPatternBlock;

// A medium of a vector whose asynchronous operations take effect, in the
// order started (async_store.h), when they finish: at reap(), a random
// number of the oldest, at least one; or all of them before any
// synchronous call, as FileStore does.
class HeldStore final : public BackingStore, public AsyncStore {
 public:
  HeldStore(std::uint64_t blocks, std::uint64_t seed) : bytes_(blocks * kBlock, 0), rng_(seed) {}

  std::uint64_t blocks() const override { return bytes_.size() / kBlock; }
  std::uint32_t block_size() const override { return kBlock; }
  StoreStatus read(std::uint64_t lba, std::uint64_t /*count*/,
                   std::span<std::uint8_t> out) override {
    finish(ops_.size());
    std::memcpy(out.data(), bytes_.data() + lba * kBlock, out.size());
    return {};
  }
  StoreStatus write(std::uint64_t lba, std::uint64_t /*count*/,
                    std::span<const std::uint8_t> in) override {
    finish(ops_.size());
    std::memcpy(bytes_.data() + lba * kBlock, in.data(), in.size());
    return {};
  }
  StoreStatus unmap(std::uint64_t lba, std::uint64_t count) override {
    finish(ops_.size());
    std::memset(bytes_.data() + lba * kBlock, 0, count * kBlock);
    return {};
  }
  StoreStatus flush() override {
    finish(ops_.size());
    ++flushes;
    return {};
  }
  bool volatile_cache() const override { return false; }
  std::string describe() const override { return "a held vector"; }
  AsyncStore* async() override { return this; }

  void start_read(std::uint64_t lba, std::uint64_t count, std::span<std::uint8_t> out,
                  const std::shared_ptr<IoWait>& wait) override {
    push({Op::kRead, lba, count, out.data(), wait});
  }
  void start_write(std::uint64_t lba, std::uint64_t count, std::span<const std::uint8_t> in,
                   bool /*durable*/, const std::shared_ptr<IoWait>& wait) override {
    // The data is read when the write finishes: a buffer freed early shows.
    push({Op::kWrite, lba, count, const_cast<std::uint8_t*>(in.data()), wait});
  }
  void start_unmap(std::uint64_t lba, std::uint64_t count, bool /*durable*/,
                   const std::shared_ptr<IoWait>& wait) override {
    push({Op::kUnmap, lba, count, nullptr, wait});
  }
  void start_flush(const std::shared_ptr<IoWait>& wait) override {
    push({Op::kFlush, 0, 0, nullptr, wait});
  }
  int completion_fd() const override { return -1; }
  // Time passes: a few operations finish, each one any that waits for no
  // earlier one (FileStore's rule: overlapping writes, and a read and a
  // write that overlap, in order; a flush after its own command's writes
  // only, so it may overtake other commands' operations).
  void reap() override {
    for (std::size_t n = ops_.empty() ? 0 : 1 + rng_() % ops_.size(); n > 0; --n) {
      std::vector<std::size_t> free;
      for (std::size_t i = 0; i < ops_.size(); ++i) {
        bool blocked = false;
        for (std::size_t j = 0; j < i && !blocked; ++j) blocked = waits_for(ops_[i], ops_[j]);
        if (!blocked) free.push_back(i);
      }
      finish_at(free[rng_() % free.size()]);
    }
  }
  std::size_t in_flight() const override { return ops_.size(); }
  std::string io_description() const override { return "held operations"; }

  // Finishes the `n` oldest operations.
  void finish(std::size_t n) {
    for (std::size_t i = 0; i < n && !ops_.empty(); ++i) finish_at(0);
  }
  void finish_at(std::size_t index) {
    {
      Op op = ops_[index];
      ops_.erase(ops_.begin() + static_cast<std::ptrdiff_t>(index));
      std::uint8_t* at = bytes_.data() + op.lba * kBlock;
      const std::size_t len = op.count * kBlock;
      if (op.kind == Op::kRead) std::memcpy(op.data, at, len);
      if (op.kind == Op::kWrite) std::memcpy(at, op.data, len);
      if (op.kind == Op::kUnmap) std::memset(at, 0, len);
      if (op.kind == Op::kFlush) ++flushes;
      op.wait->finished({});
    }
  }
  // The medium's bytes, without finishing anything.
  const std::vector<std::uint8_t>& raw() const { return bytes_; }
  std::uint64_t flushes = 0;

 private:
  struct Op {
    enum Kind { kRead, kWrite, kUnmap, kFlush } kind;
    std::uint64_t lba;
    std::uint64_t count;
    std::uint8_t* data;
    std::shared_ptr<IoWait> wait;
  };
  static bool waits_for(const Op& later, const Op& earlier) {
    if (later.kind == Op::kFlush) return earlier.wait == later.wait && earlier.kind != Op::kFlush;
    const auto writes = [](const Op& o) { return o.kind == Op::kWrite || o.kind == Op::kUnmap; };
    if (earlier.kind == Op::kFlush || (!writes(later) && !writes(earlier))) return false;
    return later.lba < earlier.lba + earlier.count && earlier.lba < later.lba + later.count;
  }
  void push(Op op) {
    op.wait->started();
    ops_.push_back(std::move(op));
  }
  std::vector<std::uint8_t> bytes_;
  std::deque<Op> ops_;
  std::mt19937_64 rng_;
};

using testing::block_of;
using testing::blocks_of;

// Which write's data block `index` of `all`, block `lba` of the medium,
// holds; -1: none of them.
std::int64_t value_at(std::span<const std::uint8_t> all, std::uint64_t index, std::uint64_t lba) {
  const std::uint8_t* p = all.data() + index * kBlock;
  std::uint64_t value = 0;
  std::memcpy(&value, p, 8);
  const auto want = block_of(value, lba);
  return std::memcmp(p, want.data(), kBlock) == 0 ? static_cast<std::int64_t>(value) : -1;
}

// The same for a buffer that starts at LBA 0.
std::int64_t value_in(std::span<const std::uint8_t> all, std::uint64_t lba) {
  return value_at(all, lba, lba);
}

struct Fixture {
  explicit Fixture(std::uint64_t capacity_blocks, std::uint64_t blocks = 64, std::uint64_t seed = 1,
                   std::uint32_t unit = 1) {
    auto m = std::make_unique<HeldStore>(blocks, seed);
    medium = m.get();
    VolatileCacheConfig c;
    c.capacity_bytes = capacity_blocks * kBlock;
    c.atomic_blocks = unit;
    c.sync_writeback_bytes = 0;  // every write-back asynchronous
    store = std::make_unique<VolatileCacheStore>(std::move(m), c);
    EXPECT_EQ(store->async(), store.get());
  }
  std::shared_ptr<IoWait> write(std::uint64_t value, std::uint64_t lba, std::uint64_t count,
                                bool durable = false) {
    auto w = std::make_shared<IoWait>(lba, true);
    auto data = w->hold(blocks_of(value, lba, count));
    store->start_write(lba, count, data, durable, w);
    return w;
  }
  HeldStore* medium = nullptr;
  std::unique_ptr<VolatileCacheStore> store;
};

TEST(VolatileCacheAsync, AHalfFullCacheStartsItsWriteBackOffTheCaller) {
  Fixture f(8);
  // 8 of 8 blocks: each answered at once, the oldest two being written back.
  for (std::uint64_t v = 1; v <= 4; ++v) EXPECT_TRUE(f.write(v, v * 2, 2)->ready());
  EXPECT_EQ(f.store->writing_back_bytes(), 4u * kBlock);
  EXPECT_GT(f.store->writing_back_bytes(), 0u) << "past half full, write-back started";
  EXPECT_GT(f.medium->in_flight(), 0u);
  EXPECT_FALSE(f.store->at_once(kBlock));
}

TEST(VolatileCacheAsync, AWriteWithoutRoomIsAnsweredWhenAWriteBackEnds) {
  Fixture f(4);
  ASSERT_TRUE(f.write(1, 0, 2)->ready());
  ASSERT_TRUE(f.write(2, 2, 2)->ready());  // 4 of 4: write 1 is being written back
  const auto third = f.write(3, 4, 2);
  EXPECT_FALSE(third->ready()) << "no room until write 1 is on the medium";
  f.medium->finish(1);
  EXPECT_TRUE(third->ready());
  EXPECT_EQ(value_in(f.medium->raw(), 0), 1);
}

TEST(VolatileCacheAsync, SynchronizeCacheWaitsForTheWriteBacksInFlight) {
  Fixture f(4);
  ASSERT_TRUE(f.write(1, 0, 2)->ready());
  ASSERT_TRUE(f.write(2, 2, 2)->ready());
  ASSERT_EQ(f.medium->in_flight(), 1u) << "write 1's write-back";
  auto sync = std::make_shared<IoWait>(0, true);
  f.store->start_flush(sync);
  EXPECT_FALSE(sync->ready());
  EXPECT_EQ(f.medium->in_flight(), 2u) << "write 2's write-back started, not yet the flush";
  f.medium->finish(1);
  EXPECT_FALSE(sync->ready()) << "write 2 is not on the medium yet";
  EXPECT_EQ(f.medium->flushes, 0u);
  f.medium->finish(1);
  EXPECT_FALSE(sync->ready()) << "the medium's flush now runs";
  ASSERT_EQ(f.medium->in_flight(), 1u);
  f.medium->finish(1);
  EXPECT_TRUE(sync->ready());
  EXPECT_TRUE(sync->error().ok());
  EXPECT_EQ(f.medium->flushes, 1u);
  EXPECT_EQ(f.store->flushes(), 1u);
  EXPECT_EQ(value_in(f.medium->raw(), 3), 2);
}

TEST(VolatileCacheAsync, AReadDuringAWriteBackReturnsTheNewestData) {
  Fixture f(4);
  ASSERT_TRUE(f.write(1, 0, 2)->ready());
  ASSERT_TRUE(f.write(2, 2, 2)->ready());  // write 1 in flight
  f.write(3, 1, 1);                        // replaces block 1 while write 1 is written back
  auto r = std::make_shared<IoWait>(0, false);
  auto out = r->hold(std::vector<std::uint8_t>(6 * kBlock));
  f.store->start_read(0, 6, out, r);
  while (f.medium->in_flight() > 0) f.medium->finish(1);
  ASSERT_TRUE(r->ready());
  EXPECT_EQ(value_in(out, 0), 1) << "being written back, read from the cache or the medium";
  EXPECT_EQ(value_in(out, 1), 3) << "the newer write, not write 1's write-back";
  EXPECT_EQ(value_in(out, 2), 2);
  EXPECT_EQ(value_in(out, 5), 0);
  EXPECT_EQ(value_in(f.medium->raw(), 1), 1) << "write 1's write-back, begun before write 3";
  std::vector<std::uint8_t> again(kBlock);
  ASSERT_TRUE(f.store->read(1, 1, again).ok());
  EXPECT_EQ(value_at(again, 0, 1), 3) << "the cache still holds write 3 over it";
}

TEST(VolatileCacheAsync, ACutWithAWriteBackInFlightKeepsItAndSaysSo) {
  Fixture f(4);
  ASSERT_TRUE(f.write(1, 0, 2)->ready());
  ASSERT_TRUE(f.write(2, 2, 2)->ready());  // write 1 in flight, write 2 cached
  auto r = f.store->power_cut(CutPolicy::kDropAll, 7);
  ASSERT_TRUE(r.ok());
  ASSERT_EQ(r->writes.size(), 2u);
  EXPECT_EQ(r->writes[0].sequence, 1u);
  EXPECT_TRUE(r->writes[0].writing_back);
  EXPECT_EQ(r->writes[0].outcome, CutWrite::Outcome::kKept);
  EXPECT_EQ(r->writes[0].kept, (std::vector<BlockRun>{{0, 2}}));
  EXPECT_FALSE(r->writes[1].writing_back);
  EXPECT_EQ(r->writes[1].lost, (std::vector<BlockRun>{{2, 2}}));
  EXPECT_EQ(f.medium->in_flight(), 0u);
  EXPECT_EQ(value_in(f.medium->raw(), 1), 1);
  EXPECT_EQ(value_in(f.medium->raw(), 2), 0);
}

TEST(VolatileCacheAsync, AFuaWriteIsNotOverwrittenByAnOlderWriteBack) {
  Fixture f(4);
  ASSERT_TRUE(f.write(1, 0, 2)->ready());
  ASSERT_TRUE(f.write(2, 2, 2)->ready());  // write 1 in flight
  const auto fua = f.write(3, 0, 1, true);
  EXPECT_FALSE(fua->ready());
  while (f.medium->in_flight() > 0) f.medium->finish(1);
  EXPECT_TRUE(fua->ready());
  EXPECT_EQ(value_in(f.medium->raw(), 0), 3);
  EXPECT_EQ(value_in(f.medium->raw(), 1), 1);
}

// The same through the real file store on io_uring: nothing completes until
// reap(), so the SYNCHRONIZE CACHE is seen waiting; the image then holds
// every write it covered, and a read started meanwhile the newest data.
TEST(VolatileCacheOnFileStore, SynchronizeCacheWaitsForTheWriteBacksThroughIoUring) {
  testing::TempDir dir;
  const std::string path = dir.file("lun.img");
  auto opened = FileStore::open(path, 4096, kBlock, DurabilityMode::kWriteBack);
  ASSERT_TRUE(opened.ok());
  VolatileCacheConfig c;
  c.capacity_bytes = 64 * kBlock;
  c.sync_writeback_bytes = 0;
  VolatileCacheStore store(std::move(opened).value(), c);
  AsyncStore* async = store.async();
  if (async == nullptr) GTEST_SKIP() << "no io_uring here";
  std::vector<std::shared_ptr<IoWait>> writes;
  for (std::uint64_t v = 1; v <= 4; ++v) {
    auto w = std::make_shared<IoWait>(v * 16, true);
    auto data = w->hold(blocks_of(v, (v - 1) * 16, 16));
    async->start_write((v - 1) * 16, 16, data, false, w);
    writes.push_back(w);
  }
  EXPECT_GT(store.writing_back_bytes(), 0u) << "past half full";
  auto sync = std::make_shared<IoWait>(0, true);
  async->start_flush(sync);
  EXPECT_FALSE(sync->ready()) << "answered before its write-backs completed";
  auto read = std::make_shared<IoWait>(0, false);
  auto out = read->hold(std::vector<std::uint8_t>(80 * kBlock));
  async->start_read(0, 80, out, read);
  for (int rounds = 0; rounds < 10'000 && !(sync->ready() && read->ready()); ++rounds) {
    pollfd p{async->completion_fd(), POLLIN, 0};
    ::poll(&p, 1, 1000);
    async->reap();
  }
  ASSERT_TRUE(sync->ready() && read->ready());
  EXPECT_TRUE(sync->error().ok());
  EXPECT_EQ(store.flushes(), 1u);
  EXPECT_EQ(store.cached_bytes(), 0u);
  for (std::uint64_t b = 0; b < 80; ++b) {
    EXPECT_EQ(value_in(out, b), b < 64 ? static_cast<std::int64_t>(b / 16 + 1) : 0) << b;
  }
  std::vector<std::uint8_t> image(80 * kBlock);
  const int fd = ::open(path.c_str(), O_RDONLY | O_CLOEXEC);
  ASSERT_GE(fd, 0);
  ASSERT_EQ(::pread(fd, image.data(), image.size(), 0), static_cast<ssize_t>(image.size()));
  ::close(fd);
  for (std::uint64_t b = 0; b < 64; ++b) {
    EXPECT_EQ(value_in(image, b), static_cast<std::int64_t>(b / 16 + 1)) << "the image, LBA " << b;
  }
}

// Which value each block may hold, and which write each op gave.
struct Oracle {
  explicit Oracle(std::uint64_t blocks) : newest(blocks, 0), durable(blocks, 0), since(blocks) {}
  void wrote(std::uint64_t value, std::uint64_t lba, std::uint64_t count, bool is_durable) {
    for (std::uint64_t b = lba; b < lba + count; ++b) {
      newest[b] = value;
      if (is_durable) {
        durable[b] = value;
        since[b].clear();
      } else {
        since[b].insert(value);
      }
    }
  }
  void flushed() {
    durable = newest;
    for (auto& s : since) s.clear();
  }
  std::vector<std::uint64_t> newest, durable;
  std::vector<std::set<std::uint64_t>> since;
};

// The 10,000 seeded cuts of volatile_cache_test.cc with the medium holding
// its operations: write-backs, FUA writes, unmaps, reads and flushes in
// flight at random points, reaps in between. Besides the cut's invariant: a
// read returns the newest data as of its arrival, and a SYNCHRONIZE CACHE
// answered GOOD found every write it covers on the medium.
TEST(VolatileCacheAsync, NoDurableWriteIsEverLostOver10000SeededCutsWithWriteBacksInFlight) {
  constexpr std::uint64_t kBlocks = 48;
  std::uint64_t in_flight_at_cut = 0, lost_total = 0, kept_total = 0, torn = 0;
  for (std::uint64_t seed = 1; seed <= 10000; ++seed) {
    std::mt19937_64 rng(seed);
    const auto pick = [&rng](std::uint64_t n) { return rng() % n; };
    const auto policy = static_cast<CutPolicy>(pick(3));
    const std::uint32_t unit = 1u << pick(3);
    const std::uint64_t capacity = 2 + pick(30);
    Fixture f(capacity, kBlocks, seed, unit);
    Oracle o(kBlocks);
    struct Read {
      std::shared_ptr<IoWait> wait;
      std::span<std::uint8_t> out;
      std::uint64_t lba;
      std::vector<std::uint64_t> want;
    };
    struct Flush {
      std::shared_ptr<IoWait> wait;
      std::vector<std::uint64_t> covered;  // newest at its arrival
      std::vector<bool> cached;            // covered[b] is a cached write's (FUA and
                                           // UNMAP are answered when the medium has them)
      std::vector<std::set<std::uint64_t>> later;
    };
    std::vector<Read> reads;
    std::vector<Flush> flushes;
    const auto check_done = [&] {
      for (auto it = reads.begin(); it != reads.end();) {
        if (!it->wait->ready()) {
          ++it;
          continue;
        }
        for (std::size_t i = 0; i < it->want.size(); ++i) {
          ASSERT_EQ(value_at(it->out, i, it->lba + i), static_cast<std::int64_t>(it->want[i]))
              << "seed " << seed << " LBA " << it->lba + i;
        }
        it = reads.erase(it);
      }
      for (auto it = flushes.begin(); it != flushes.end();) {
        if (!it->wait->ready()) {
          ++it;
          continue;
        }
        ASSERT_TRUE(it->wait->error().ok());
        for (std::uint64_t b = 0; b < kBlocks; ++b) {
          if (!it->cached[b]) continue;
          const std::int64_t v = value_in(f.medium->raw(), b);
          ASSERT_TRUE(v == static_cast<std::int64_t>(it->covered[b]) ||
                      it->later[b].contains(static_cast<std::uint64_t>(v)))
              << "seed " << seed << " LBA " << b << ": flushed without write " << it->covered[b]
              << ", holds " << v;
        }
        it = flushes.erase(it);
      }
    };
    std::uint64_t sequence = 0;
    std::vector<bool> via_cache(kBlocks, false);
    const auto mark = [&via_cache](std::uint64_t lba, std::uint64_t count, bool cached) {
      std::fill(via_cache.begin() + lba, via_cache.begin() + lba + count, cached);
    };
    const std::uint64_t ops = 1 + pick(40);
    for (std::uint64_t op = 0; op < ops; ++op) {
      const std::uint64_t kind = pick(24);
      const std::uint64_t lba = pick(kBlocks);
      const std::uint64_t count = std::min<std::uint64_t>(1 + pick(8), kBlocks - lba);
      const auto note_later = [&](std::uint64_t value) {
        for (Flush& fl : flushes) {
          for (std::uint64_t b = lba; b < lba + count; ++b) fl.later[b].insert(value);
        }
      };
      if (kind < 10) {  // a write, cached (answered now or when it has room)
        f.write(++sequence, lba, count);
        o.wrote(sequence, lba, count, false);
        // One larger than the cache goes to the medium and is answered from
        // there: a flush that arrives first need not cover it.
        mark(lba, count, count <= capacity);
        note_later(sequence);
      } else if (kind < 12) {  // the same, as the LUN does it while nothing is in flight
        ++sequence;
        ASSERT_TRUE(f.store->write(lba, count, blocks_of(sequence, lba, count)).ok());
        o.wrote(sequence, lba, count, false);
        mark(lba, count, true);
        note_later(sequence);
      } else if (kind < 14) {  // FUA: durable once answered, and a cut drains it
        f.write(++sequence, lba, count, true);
        o.wrote(sequence, lba, count, true);
        mark(lba, count, false);
        note_later(sequence);
      } else if (kind < 16) {  // SYNCHRONIZE CACHE; a cut drains it too
        auto w = std::make_shared<IoWait>(0, true);
        flushes.push_back({w, o.newest, via_cache, std::vector<std::set<std::uint64_t>>(kBlocks)});
        f.store->start_flush(w);
        o.flushed();
      } else if (kind < 17) {  // UNMAP
        auto w = std::make_shared<IoWait>(lba, true);
        f.store->start_unmap(lba, count, false, w);
        o.wrote(0, lba, count, false);
        mark(lba, count, false);
        note_later(0);
      } else if (kind < 20) {  // a read
        auto w = std::make_shared<IoWait>(lba, false);
        auto out = w->hold(std::vector<std::uint8_t>(count * kBlock));
        reads.push_back({w, out, lba, {o.newest.begin() + lba, o.newest.begin() + lba + count}});
        f.store->start_read(lba, count, out, w);
      } else {  // time passes: some operations finish
        f.store->reap();
      }
      check_done();
    }
    if (f.medium->in_flight() > 0) ++in_flight_at_cut;
    auto cut = f.store->power_cut(policy, seed);
    ASSERT_TRUE(cut.ok());
    check_done();
    ASSERT_TRUE(reads.empty() && flushes.empty()) << "seed " << seed << ": left unanswered";
    std::vector<std::uint8_t> after(kBlocks * kBlock);
    ASSERT_TRUE(f.store->read(0, kBlocks, after).ok());
    std::vector<int> fate(kBlocks, 0);
    for (const CutWrite& w : cut->writes) {
      if (policy == CutPolicy::kDropAll && !w.writing_back) {
        ASSERT_TRUE(w.kept.empty()) << "seed " << seed;
      }
      if (w.writing_back) {
        ASSERT_TRUE(w.lost.empty()) << "seed " << seed;
      }
      if (w.outcome == CutWrite::Outcome::kTorn) ++torn;
      for (const auto& [runs, kept_or_lost] : {std::pair{&w.kept, 1}, std::pair{&w.lost, -1}}) {
        for (const BlockRun& r : *runs) {
          for (std::uint64_t b = r.lba; b < r.lba + r.blocks; ++b) {
            ASSERT_EQ(o.newest[b], w.sequence) << "seed " << seed << ": the block's newest write";
            fate[b] = kept_or_lost;
          }
        }
      }
    }
    for (std::uint64_t b = 0; b < kBlocks; ++b) {
      const std::int64_t v = value_in(after, b);
      ASSERT_GE(v, 0) << "seed " << seed << " LBA " << b;
      const auto value = static_cast<std::uint64_t>(v);
      ASSERT_TRUE(value == o.durable[b] || o.since[b].contains(value))
          << "seed " << seed << " LBA " << b << ": holds " << value << ", durable was "
          << o.durable[b];
      if (fate[b] == 1) {
        ASSERT_EQ(value, o.newest[b]) << "seed " << seed << " LBA " << b;
        ++kept_total;
      }
      if (fate[b] == -1) {
        ASSERT_NE(value, o.newest[b]) << "seed " << seed << " LBA " << b;
        ++lost_total;
      }
    }
  }
  EXPECT_GT(in_flight_at_cut, 1000u);
  EXPECT_GT(lost_total, 0u);
  EXPECT_GT(kept_total, 0u);
  EXPECT_GT(torn, 0u);
}

}  // namespace
}  // namespace memstore::scsi
