// SPDX-License-Identifier: Apache-2.0
// A LUN held in memory, for tests, benchmarks and throwaway targets.
//
// Sparse: the blocks live in one anonymous mapping reserved at creation
// (MAP_NORESERVE), so a 3.4 GB G2 LUN that was never written costs address
// space only. The kernel gives a page memory, already zeroed, on the first
// write into it, and nothing else zeroes it again: a first 4 KB write costs
// one page, what an ordinary write costs (docs/benchmarks.md, scattered
// first writes).
//
// Which blocks hold data is kept per unit of max(1, 4096 / block_size)
// whole blocks in a bitmap (itself a sparse mapping): reads of a unit never
// written are zeros without touching the mapping, and GET LBA STATUS answers
// from it. unmap() gives whole pages back to the kernel (MADV_DONTNEED),
// zeroes the rest of the range, and clears a unit once nothing in it is
// nonzero; unmapped and never-written blocks read as zeros.
//
// Nothing is durable, and nothing is volatile either: volatile_cache() is
// false (WCE=0) and flush() does nothing. A size the address space cannot
// hold is an ENOMEM error at creation; running out of memory later is the
// kernel's (the mapping is not reserved).
//
// Asynchronous (async_store.h, memory_store_async.cc), so that no command
// holds its LUN's thread for long: an operation of more than kAtOnceBytes
// (a 512 MiB WRITE SAME is 120-550 ms of memory copies) waits in a queue
// and runs in slices of kSliceBytes, one slice per turn of the thread's
// event loop; smaller ones run at once (at_once()) while the queue is
// empty. Queued operations run one at a time, in the order started. The
// synchronous calls first finish the whole queue.
#pragma once

#include <cstdint>
#include <deque>
#include <memory>
#include <string>
#include <variant>

#include "base/expected.h"
#include "target/scsi/async_store.h"
#include "target/scsi/backing_store.h"

namespace memstore::scsi {

class MemoryStore final : public BackingStore, public AsyncStore {
 public:
  // At most this much is copied, zeroed or released in one turn of the
  // event loop: about 0.06 ms into pages already present, 0.3 ms into new
  // ones (a 512 MiB WRITE SAME at once takes 119 and 549 ms;
  // docs/benchmarks/log/2026-11-27.md, "Large commands on the memory store").
  static constexpr std::uint64_t kSliceBytes = std::uint64_t{256} << 10;
  // Larger operations are queued; one this size done at once takes about
  // 1 ms at most.
  static constexpr std::uint64_t kAtOnceBytes = std::uint64_t{1} << 20;

  // Errors: zero blocks or block size, a size beyond 2^64 bytes, or more
  // than the address space can map.
  static Expected<std::unique_ptr<MemoryStore>> create(std::uint64_t blocks,
                                                       std::uint32_t block_size);
  ~MemoryStore() override;
  MemoryStore(const MemoryStore&) = delete;
  MemoryStore& operator=(const MemoryStore&) = delete;

  std::uint64_t blocks() const override { return blocks_; }
  std::uint32_t block_size() const override { return block_size_; }
  StoreStatus read(std::uint64_t lba, std::uint64_t count, std::span<std::uint8_t> out) override;
  StoreStatus write(std::uint64_t lba, std::uint64_t count,
                    std::span<const std::uint8_t> in) override;
  StoreStatus unmap(std::uint64_t lba, std::uint64_t count) override;
  StoreStatus flush() override;
  // Mapped = its unit holds written data (unit_bytes() granularity).
  Extent provisioning(std::uint64_t lba, std::uint64_t max_blocks) const override;
  bool volatile_cache() const override { return false; }
  std::string describe() const override;
  AsyncStore* async() override { return this; }

  // AsyncStore. The completion descriptor is an eventfd, made on first use.
  void start_read(std::uint64_t lba, std::uint64_t count, std::span<std::uint8_t> out,
                  const std::shared_ptr<IoWait>& wait) override;
  void start_write(std::uint64_t lba, std::uint64_t count, std::span<const std::uint8_t> in,
                   bool durable, const std::shared_ptr<IoWait>& wait) override;
  void start_unmap(std::uint64_t lba, std::uint64_t count, bool durable,
                   const std::shared_ptr<IoWait>& wait) override;
  void start_flush(const std::shared_ptr<IoWait>& wait) override;
  int completion_fd() const override;
  // Runs queued work up to kSliceBytes; signals the descriptor again when
  // some is left, so that the event loop comes back after its other work.
  void reap() override;
  std::size_t in_flight() const override { return queue_.size(); }
  bool at_once(std::uint64_t bytes) const override {
    return queue_.empty() && bytes <= kAtOnceBytes;
  }
  std::string io_description() const override;

  // Bytes of the units that hold data.
  std::uint64_t resident_bytes() const { return used_units_ * unit_bytes(); }
  std::uint64_t unit_bytes() const { return std::uint64_t{unit_blocks_} * block_size_; }

 private:
  struct Queued {
    enum class Kind : std::uint8_t { kRead, kWrite, kUnmap, kFlush };
    Kind kind = Kind::kFlush;
    std::uint64_t lba = 0;
    std::uint64_t count = 0;       // blocks
    std::uint64_t done = 0;        // blocks done so far
    std::uint8_t* data = nullptr;  // kRead: into; kWrite: from (the IoWait's buffer)
    std::shared_ptr<IoWait> wait;
  };
  void enqueue(Queued q);
  // Runs the head of the queue for at most `budget` bytes; returns what it used.
  std::uint64_t run_head(std::uint64_t budget);
  void drain();
  void signal() const;
  StoreStatus read_now(std::uint64_t lba, std::uint64_t count, std::uint8_t* out);
  StoreStatus write_now(std::uint64_t lba, std::uint64_t count, const std::uint8_t* in);
  StoreStatus unmap_now(std::uint64_t lba, std::uint64_t count);

  MemoryStore(std::uint64_t blocks, std::uint32_t block_size, std::uint8_t* data,
              std::size_t data_bytes, std::uint64_t* bits, std::size_t bits_bytes);
  bool used(std::uint64_t unit) const { return ((bits_[unit / 64] >> (unit % 64)) & 1U) != 0; }
  void set_used(std::uint64_t unit);
  void clear_used(std::uint64_t unit);
  // The first unit in [from, end) whose bit equals `value`, or `end`.
  std::uint64_t find_unit(std::uint64_t from, std::uint64_t end, bool value) const;

  std::uint64_t blocks_;
  std::uint32_t block_size_;
  std::uint32_t unit_blocks_;
  std::uint64_t units_;
  std::uint64_t used_units_ = 0;
  std::uint8_t* data_;
  std::size_t data_bytes_;
  std::uint64_t* bits_;
  std::size_t bits_bytes_;
  std::deque<Queued> queue_;
  mutable int event_fd_ = -1;
};

}  // namespace memstore::scsi
