// SPDX-License-Identifier: Apache-2.0
// MemoryStore's asynchronous side (memory_store.h): a large operation runs a
// slice per reap(), so that no command holds its LUN's thread for long;
// queued operations keep the order they were started in; small ones may run
// at once only while nothing is queued; synchronous calls finish the queue
// first.
#include <gtest/gtest.h>
#include <poll.h>

#include <memory>

#include "target/scsi/io_wait.h"
#include "target/scsi/memory_store.h"

namespace memstore::scsi {
namespace {

constexpr std::uint32_t kBs = 512;
constexpr std::uint64_t kBlocks = 65536;  // 32 MiB
constexpr std::uint64_t kSliceBlocks = MemoryStore::kSliceBytes / kBs;

Bytes filled(std::uint64_t blocks, std::uint8_t value) {
  return Bytes(static_cast<std::size_t>(blocks * kBs), value);
}

bool readable(int fd) {
  pollfd p{fd, POLLIN, 0};
  return ::poll(&p, 1, 0) == 1;
}

class MemoryStoreAsync : public ::testing::Test {
 protected:
  MemoryStoreAsync() : store_(MemoryStore::create(kBlocks, kBs).value()), async_(store_->async()) {}

  std::shared_ptr<IoWait> wait(bool writing) { return std::make_shared<IoWait>(0, writing); }
  // Reaps as the transport does, each time the descriptor is readable;
  // returns how many reaps it took.
  int finish(const std::shared_ptr<IoWait>& w) {
    int reaps = 0;
    while (!w->ready() && reaps < 10'000) {
      EXPECT_TRUE(readable(async_->completion_fd())) << "work is queued but nothing says so";
      async_->reap();
      ++reaps;
    }
    return reaps;
  }

  std::unique_ptr<MemoryStore> store_;
  AsyncStore* async_;
};

TEST_F(MemoryStoreAsync, ALargeWriteRunsOneSliceAtATime) {
  ASSERT_NE(async_, nullptr);
  const Bytes data = filled(8 * kSliceBlocks, 0x5A);  // 8 slices
  const auto w = wait(true);
  async_->start_write(0, 8 * kSliceBlocks, data, false, w);
  EXPECT_FALSE(w->ready());
  EXPECT_EQ(async_->in_flight(), 1U);
  async_->reap();
  EXPECT_FALSE(w->ready()) << "the whole write ran in one turn of the event loop";
  EXPECT_EQ(finish(w), 7);
  EXPECT_TRUE(w->error().ok());
  EXPECT_EQ(async_->in_flight(), 0U);
  Bytes got(data.size());
  ASSERT_TRUE(store_->read(0, 8 * kSliceBlocks, got).ok());
  EXPECT_EQ(got, data);
}

TEST_F(MemoryStoreAsync, QueuedOperationsKeepTheirOrder) {
  const Bytes first = filled(2 * kSliceBlocks, 0x11);
  const Bytes second = filled(kSliceBlocks, 0x22);
  Bytes got(2 * kSliceBlocks * kBs);
  const auto a = wait(true), b = wait(true), r = wait(false), u = wait(true);
  async_->start_write(0, 2 * kSliceBlocks, first, false, a);
  async_->start_write(kSliceBlocks / 2, kSliceBlocks, second, false, b);
  async_->start_read(0, 2 * kSliceBlocks, got, r);
  async_->start_unmap(0, 1, false, u);
  finish(u);
  ASSERT_TRUE(a->ready() && b->ready() && r->ready());
  Bytes expected = first;
  std::copy(second.begin(), second.end(), expected.begin() + kSliceBlocks / 2 * kBs);
  EXPECT_EQ(got, expected) << "the read saw the writes started before it, and not the unmap after";
  Bytes block(kBs);
  ASSERT_TRUE(store_->read(0, 1, block).ok());
  EXPECT_EQ(block, filled(1, 0));
}

TEST_F(MemoryStoreAsync, SmallOperationsRunAtOnceOnlyWhileNothingIsQueued) {
  EXPECT_TRUE(async_->at_once(4096));
  EXPECT_TRUE(async_->at_once(MemoryStore::kAtOnceBytes));
  EXPECT_FALSE(async_->at_once(MemoryStore::kAtOnceBytes + 1));
  const Bytes data = filled(4 * kSliceBlocks, 0x33);
  const auto w = wait(true);
  async_->start_write(0, 4 * kSliceBlocks, data, false, w);
  EXPECT_FALSE(async_->at_once(4096)) << "a small read now would overtake the queued write";
  finish(w);
  EXPECT_TRUE(async_->at_once(4096));
}

TEST_F(MemoryStoreAsync, SynchronousCallsFinishTheQueueFirst) {
  const Bytes data = filled(4 * kSliceBlocks, 0x44);
  const auto w = wait(true);
  async_->start_write(kSliceBlocks, 4 * kSliceBlocks, data, false, w);
  EXPECT_TRUE(store_->provisioning(kSliceBlocks, 1).mapped);
  EXPECT_TRUE(w->ready());
  EXPECT_EQ(async_->in_flight(), 0U);
  const auto f = wait(true);
  async_->start_write(0, 4 * kSliceBlocks, data, false, f);
  ASSERT_TRUE(store_->flush().ok());
  EXPECT_TRUE(f->ready());
}

TEST_F(MemoryStoreAsync, AFlushFinishesAfterTheWritesBeforeIt) {
  const Bytes data = filled(3 * kSliceBlocks, 0x55);
  const auto w = wait(true), f = wait(true);
  async_->start_write(0, 3 * kSliceBlocks, data, false, w);
  async_->start_flush(f);
  finish(f);
  EXPECT_TRUE(w->ready());
}

TEST_F(MemoryStoreAsync, AnOperationOutOfRangeFinishesAtOnceWithItsCause) {
  const Bytes data = filled(2, 0);
  const auto w = wait(true);
  async_->start_write(kBlocks - 1, 2, data, false, w);
  ASSERT_TRUE(w->ready());
  ASSERT_FALSE(w->error().ok());
  EXPECT_EQ(w->error().error().errno_value, ERANGE);
  EXPECT_EQ(async_->in_flight(), 0U);
}

}  // namespace
}  // namespace memstore::scsi
