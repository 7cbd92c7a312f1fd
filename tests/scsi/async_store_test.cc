// SPDX-License-Identifier: Apache-2.0
// FileStore's asynchronous interface (async_store.h) on io_uring: operations
// finish later, in an order that is as if they ran one at a time where they
// overlap; synchronous calls wait for them; failures keep their cause.
#include <fcntl.h>
#include <gmock/gmock.h>
#include <gtest/gtest.h>
#include <poll.h>

#include <algorithm>
#include <memory>
#include <vector>

#include "target/scsi/file_store.h"
#include "tests/scsi/temp_dir.h"

namespace memstore::scsi {
namespace {

using testing::TempDir;

constexpr std::uint32_t kBs = 512;

Bytes filled(std::uint64_t blocks, std::uint8_t value) {
  return Bytes(static_cast<std::size_t>(blocks * kBs), value);
}

class AsyncFileStore : public ::testing::Test {
 protected:
  void SetUp() override {
    auto r = FileStore::open(dir_.file("lun.img"), 4096, kBs, DurabilityMode::kWriteBack);
    ASSERT_TRUE(r.ok());
    store_ = std::move(r.value());
    async_ = store_->async();
    ASSERT_NE(async_, nullptr) << store_->async_error().error().message;
  }

  // Reaps until every wait is ready, the way a transport does: wait for
  // the completion descriptor, then reap().
  void finish(std::initializer_list<std::shared_ptr<IoWait>> waits) {
    for (int rounds = 0; rounds < 10'000; ++rounds) {
      bool all = true;
      for (const auto& w : waits) all = all && w->ready();
      if (all) return;
      pollfd p{async_->completion_fd(), POLLIN, 0};
      ::poll(&p, 1, 1000);
      async_->reap();
    }
    FAIL() << "operations did not finish";
  }

  std::shared_ptr<IoWait> wait(bool writing) { return std::make_shared<IoWait>(0, writing); }

  TempDir dir_;
  std::unique_ptr<FileStore> store_;
  AsyncStore* async_ = nullptr;
};

TEST_F(AsyncFileStore, AReadStartedAfterAWriteSeesItsData) {
  const auto w = wait(true);
  const auto r = wait(false);
  const auto data = w->hold(filled(64, 0xA5));
  async_->start_write(100, 64, data, false, w);
  // Overlaps the write's last 32 blocks and 32 never-written ones.
  const auto out = r->hold(filled(64, 0xFF));
  async_->start_read(132, 64, out, r);
  finish({w, r});
  EXPECT_TRUE(w->error().ok());
  EXPECT_TRUE(r->error().ok());
  EXPECT_EQ(Bytes(out.begin(), out.begin() + 32 * kBs), filled(32, 0xA5));
  EXPECT_EQ(Bytes(out.begin() + 32 * kBs, out.end()), filled(32, 0x00));
}

TEST_F(AsyncFileStore, OfTwoOverlappingWritesTheLaterWins) {
  std::vector<std::shared_ptr<IoWait>> waits;
  for (int i = 1; i <= 20; ++i) {
    waits.push_back(wait(true));
    // Each write covers the previous one's second half.
    async_->start_write(static_cast<std::uint64_t>(i) * 8, 16,
                        waits.back()->hold(filled(16, static_cast<std::uint8_t>(i))), false,
                        waits.back());
  }
  EXPECT_GT(async_->in_flight(), 0U);
  for (const auto& w : waits) finish({w});
  Bytes got(21 * 8 * kBs);
  ASSERT_TRUE(store_->read(8, 21 * 8, got).ok());
  for (int i = 1; i <= 20; ++i) {
    EXPECT_EQ(got[static_cast<std::size_t>((i - 1) * 8 * kBs)], i) << "blocks of write " << i;
  }
  EXPECT_EQ(got[20 * 8 * kBs], 20);
}

// Writes longer than FileStore::kWritePieceBytes go to the kernel in
// pieces; every piece must land at its own offset, asynchronous or not.
TEST_F(AsyncFileStore, AWriteLongerThanOnePieceLandsWhole) {
  const std::uint64_t blocks = FileStore::kWritePieceBytes / kBs * 3 + 5;  // odd tail
  Bytes data(static_cast<std::size_t>(blocks * kBs));
  for (std::size_t i = 0; i < data.size(); ++i) {
    data[i] = static_cast<std::uint8_t>(i * 7 + i / kBs);  // differs per block and offset
  }
  const auto w = wait(true);
  async_->start_write(3, blocks, w->hold(Bytes(data)), true, w);
  finish({w});
  ASSERT_TRUE(w->error().ok());
  Bytes got(data.size());
  ASSERT_TRUE(store_->read(3, blocks, got).ok());
  EXPECT_EQ(got, data);

  std::reverse(data.begin(), data.end());
  ASSERT_TRUE(store_->write(1000, blocks, data).ok());  // the synchronous path
  ASSERT_TRUE(store_->read(1000, blocks, got).ok());
  EXPECT_EQ(got, data);
}

// Reads longer than FileStore::kReadPieceBytes go to the kernel in pieces,
// and more than FileStore::kKernelBytes of them wait their turn: each piece
// must land at its own place in the buffer, whatever order they finish in.
TEST_F(AsyncFileStore, ReadsLongerThanOnePieceReturnEveryByte) {
  const std::uint64_t blocks = FileStore::kReadPieceBytes / kBs * 2 + 3;  // odd tail
  Bytes data(static_cast<std::size_t>(blocks * kBs));
  for (std::size_t i = 0; i < data.size(); ++i) {
    data[i] = static_cast<std::uint8_t>(i * 13 + i / kBs);
  }
  ASSERT_TRUE(store_->write(5, blocks, data).ok());
  std::vector<std::shared_ptr<IoWait>> waits;
  std::vector<std::span<std::uint8_t>> outs;
  const std::size_t reads = FileStore::kKernelBytes / data.size() + 2;
  for (std::size_t i = 0; i < reads; ++i) {
    waits.push_back(wait(false));
    outs.push_back(waits.back()->hold(Bytes(data.size(), 0xEE)));
    async_->start_read(5, blocks, outs.back(), waits.back());
  }
  for (const auto& w : waits) finish({w});
  for (std::size_t i = 0; i < reads; ++i) {
    ASSERT_TRUE(waits[i]->error().ok()) << "read " << i;
    EXPECT_TRUE(std::equal(outs[i].begin(), outs[i].end(), data.begin(), data.end()))
        << "read " << i;
  }
}

TEST_F(AsyncFileStore, SynchronousCallsWaitForTheAsynchronousOnes) {
  const auto w = wait(true);
  async_->start_write(7, 300, w->hold(filled(300, 0x3C)), true, w);
  Bytes got(300 * kBs);
  ASSERT_TRUE(store_->read(7, 300, got).ok());  // no reap: the read waits by itself
  EXPECT_TRUE(w->ready());
  EXPECT_TRUE(w->error().ok());
  EXPECT_EQ(got, filled(300, 0x3C));
  EXPECT_EQ(async_->in_flight(), 0U);
}

TEST_F(AsyncFileStore, UnmapAndFlushFinishAndUnmappedBlocksReadAsZeros) {
  ASSERT_TRUE(store_->write(0, 4096, filled(4096, 0x77)).ok());
  const auto u = wait(true);
  async_->start_unmap(1024, 2048, true, u);
  const auto f = wait(true);
  async_->start_flush(f);
  finish({u, f});
  EXPECT_TRUE(u->error().ok());
  EXPECT_TRUE(f->error().ok());
  Bytes got(4096 * kBs);
  ASSERT_TRUE(store_->read(0, 4096, got).ok());
  EXPECT_EQ(got[1023 * kBs], 0x77);
  EXPECT_EQ(got[1024 * kBs], 0x00);
  EXPECT_EQ(got[3071 * kBs + kBs - 1], 0x00);
  EXPECT_EQ(got[3072 * kBs], 0x77);
  EXPECT_FALSE(store_->provisioning(1024, 2048).mapped);
}

// A flush waits for the writes of its own command (WRITE SAME's pieces)
// even though they do not overlap it.
TEST_F(AsyncFileStore, AFlushCoversItsOwnCommandsWrites) {
  const auto w = wait(true);
  const auto run = w->hold(filled(256, 0x11));
  for (std::uint64_t lba = 0; lba < 4096; lba += 256) async_->start_write(lba, 256, run, false, w);
  async_->start_flush(w);
  finish({w});
  EXPECT_TRUE(w->error().ok());
  Bytes got(4096 * kBs);
  ASSERT_TRUE(store_->read(0, 4096, got).ok());
  EXPECT_EQ(got, filled(4096, 0x11));
}

TEST_F(AsyncFileStore, AnOperationOutOfRangeFinishesAtOnceWithItsCause) {
  const auto r = wait(false);
  async_->start_read(4090, 16, r->hold(filled(16, 0)), r);
  EXPECT_TRUE(r->ready());
  ASSERT_FALSE(r->error().ok());
  EXPECT_EQ(r->error().error().errno_value, ERANGE);
}

TEST_F(AsyncFileStore, DestroyingTheStoreWaitsForItsOperations) {
  auto w = wait(true);
  async_->start_write(0, 2048, w->hold(filled(2048, 0x42)), false, w);
  store_.reset();  // must not return while the kernel still reads w's buffer
  EXPECT_TRUE(w->ready());
  auto r = FileStore::open(dir_.file("lun.img"), 4096, kBs, DurabilityMode::kWriteBack);
  auto& again = r.value();
  Bytes got(2048 * kBs);
  ASSERT_TRUE(again->read(0, 2048, got).ok());
  EXPECT_EQ(got, filled(2048, 0x42));
}

// store_sense: the sense a store failure gets follows its cause.
TEST(StoreSense, FollowsTheCause) {
  auto key_asc = [](const Bytes& s) { return std::vector<int>{s[2] & 0x0F, s[12], s[13]}; };
  EXPECT_EQ(key_asc(build_sense(store_sense(ENOSPC, true, 9), false)),
            (std::vector<int>{0x7, 0x27, 0x07}));
  EXPECT_EQ(key_asc(build_sense(store_sense(EDQUOT, true, 9), false)),
            (std::vector<int>{0x7, 0x27, 0x07}));
  const Bytes eio = build_sense(store_sense(EIO, true, 0x1234), false);
  EXPECT_EQ(key_asc(eio), (std::vector<int>{0x3, 0x0C, 0x00}));
  EXPECT_EQ(eio[0] & 0x80, 0x80);  // VALID: INFORMATION holds the LBA
  EXPECT_EQ(eio[5] << 8 | eio[6], 0x1234);
  EXPECT_EQ(key_asc(build_sense(store_sense(EIO, false, 1), false)),
            (std::vector<int>{0x3, 0x11, 0x00}));
  EXPECT_EQ(key_asc(build_sense(store_sense(EBADF, false, 1), false)),
            (std::vector<int>{0x4, 0x44, 0x00}));
  // Descriptor format when D_SENSE asks for it.
  const Bytes d = build_sense(store_sense(ENOSPC, true, 9), true);
  EXPECT_EQ(d[0], 0x72);
  EXPECT_EQ(d[1] & 0x0F, 0x7);
  EXPECT_EQ(d[2], 0x27);
  EXPECT_EQ(d[3], 0x07);
}

}  // namespace
}  // namespace memstore::scsi
