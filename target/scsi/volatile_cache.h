// SPDX-License-Identifier: Apache-2.0
// A volatile write cache in front of a backing store: the device's own RAM,
// which a power cut empties (durability = "volatile", docs/crash-consistency.md).
//
// The store behind it is the medium: it holds only what is durable. A write
// stays in the cache, in this process's memory, until it becomes durable
// (SBC-3 §4.15): flush() (SYNCHRONIZE CACHE, §5.24) writes back every
// cached write; write_durable() (FUA, or WCE = 0) puts its data on the
// medium before it returns; and the device writes back on its own, oldest
// write first, when a write would not fit in `capacity_bytes`, and
// everything once the cache has been idle for `writeback_idle`. Reads
// always see the newest data. power_cut() then decides, by a seeded
// policy, which cached writes reach the medium and which are lost, and says
// which blocks each one lost.
//
// A block that a newer write replaced while both were cached is never
// written back with the older data: the older write takes part in a
// write-back or a cut only with the blocks it still owns. So after a cut
// every block holds its last durable data or the data of a newer write the
// policy kept, never anything else; that is the invariant the tests check.
//
// Asynchronous write-back (volatile_cache_async.cc): when the medium has an
// asynchronous side (the file store on io_uring) and the LUN turns on
// asynchronous storage (async()), the cache writes back through it, off the
// LUN's loop: a write-back of more than sync_writeback_bytes starts once
// the cache is half full, and the cached write stays in the cache, owning
// its blocks for reads, until the medium says it is written; a write that
// finds no room is answered when write-backs have made it. SYNCHRONIZE
// CACHE returns only after every write-back it covers has completed and
// the medium has been flushed. A power cut lets the write-backs in flight
// finish (the medium has begun them) and reports them kept
// (CutWrite::writing_back). Small write-backs stay synchronous while the
// medium is idle: a 4 KB pwrite costs less than an io_uring round trip
// (docs/benchmarks.md, "The volatile cache's cost").
//
// Not thread-safe (backing_store.h): the LUN's strand calls it, and its
// completions run from reap() or inside the medium's synchronous calls.
#pragma once

#include <chrono>
#include <cstdint>
#include <deque>
#include <functional>
#include <map>
#include <memory>
#include <variant>
#include <vector>

#include "base/expected.h"
#include "target/scsi/async_store.h"
#include "target/scsi/backing_store.h"
#include "target/scsi/block_owners.h"
#include "target/scsi/io_wait.h"
#include "target/scsi/power_cut.h"

namespace memstore::scsi {

struct VolatileCacheConfig {
  std::uint64_t capacity_bytes = std::uint64_t{16} << 20;
  // 0: the cache writes back only when full or flushed, which makes runs
  // deterministic.
  std::chrono::milliseconds writeback_idle{0};
  // The atomic write unit in blocks: a torn write loses or keeps whole units
  // (aligned to multiples of it from LBA 0).
  std::uint32_t atomic_blocks = 1;
  // With asynchronous write-back: a write-back of at most this many bytes
  // is a synchronous write when the medium has nothing in flight.
  std::uint64_t sync_writeback_bytes = 16 * 1024;
  using Clock = std::function<std::chrono::steady_clock::time_point()>;
  Clock now;  // unset: std::chrono::steady_clock::now
};

class VolatileCacheStore final : public BackingStore, public AsyncStore {
 public:
  VolatileCacheStore(std::unique_ptr<BackingStore> medium, VolatileCacheConfig config);
  ~VolatileCacheStore() override;
  VolatileCacheStore(const VolatileCacheStore&) = delete;
  VolatileCacheStore& operator=(const VolatileCacheStore&) = delete;

  std::uint64_t blocks() const override { return medium_->blocks(); }
  std::uint32_t block_size() const override { return medium_->block_size(); }
  StoreStatus read(std::uint64_t lba, std::uint64_t count, std::span<std::uint8_t> out) override;
  StoreStatus write(std::uint64_t lba, std::uint64_t count,
                    std::span<const std::uint8_t> in) override;
  StoreStatus write_durable(std::uint64_t lba, std::uint64_t count,
                            std::span<const std::uint8_t> in) override;
  // Unmapping is done on the medium at once (durable early, which SBC
  // allows), after the cached data of those blocks is dropped as replaced.
  StoreStatus unmap(std::uint64_t lba, std::uint64_t count) override;
  StoreStatus flush() override;
  Extent provisioning(std::uint64_t lba, std::uint64_t max_blocks) const override;
  bool volatile_cache() const override { return true; }
  std::string describe() const override;

  // Empties the cache as a power cut would: each cached write is kept,
  // lost or torn by `policy`, drawn from `seed`; what is kept is written to
  // the medium. The report lists every write that was still volatile.
  Expected<PowerCutReport> power_cut(CutPolicy policy, std::uint64_t seed) override;

  // The asynchronous side, when the medium has one (started on first use).
  AsyncStore* async() override;
  void start_read(std::uint64_t lba, std::uint64_t count, std::span<std::uint8_t> out,
                  const std::shared_ptr<IoWait>& wait) override;
  void start_write(std::uint64_t lba, std::uint64_t count, std::span<const std::uint8_t> in,
                   bool durable, const std::shared_ptr<IoWait>& wait) override;
  void start_unmap(std::uint64_t lba, std::uint64_t count, bool durable,
                   const std::shared_ptr<IoWait>& wait) override;
  void start_flush(const std::shared_ptr<IoWait>& wait) override;
  int completion_fd() const override { return medium_async_->completion_fd(); }
  void reap() override;
  std::size_t in_flight() const override { return medium_async_->in_flight(); }
  // A small operation while nothing is in flight: the synchronous calls do
  // the same without waiting, and a 4 KB copy costs less than a completion.
  // A larger one goes through start_write(), which takes the command's
  // buffer instead of copying it.
  bool at_once(std::uint64_t bytes) const override {
    return bytes <= config_.sync_writeback_bytes && medium_async_->in_flight() == 0 &&
           room_waiters_.empty();
  }
  std::string io_description() const override {
    return "a volatile cache writing back through " + medium_async_->io_description();
  }

  std::uint64_t cached_bytes() const { return cached_bytes_; }
  std::uint64_t cached_writes() const { return writes_.size(); }
  std::uint64_t writing_back_bytes() const { return in_flight_bytes_; }
  std::uint64_t flushes() const { return flushes_; }
  const VolatileCacheConfig& config() const { return config_; }

 private:
  struct CachedWrite {
    std::uint64_t lba = 0;
    std::uint64_t blocks = 0;
    std::uint64_t after_flush = 0;
    std::uint64_t owned = 0;    // blocks no newer write has replaced
    bool writing_back = false;  // an asynchronous write-back is in flight
    std::vector<std::uint8_t> data;
  };
  // A write answered once the cache has room for it (start_write).
  struct RoomWaiter {
    std::uint64_t bytes = 0;
    std::shared_ptr<IoWait> wait;
  };
  // A SYNCHRONIZE CACHE waiting for the write-backs up to `sequence`.
  struct FlushWaiter {
    std::uint64_t sequence = 0;
    std::uint64_t failures = 0;  // writeback_failures_ when it arrived
    std::shared_ptr<IoWait> wait;
  };
  using Writes = std::map<std::uint64_t, CachedWrite>;  // by sequence, oldest first

  std::chrono::steady_clock::time_point now() const;
  // The idle write-back that would have happened by now.
  StoreStatus settle();
  // Newer data for [lba, lba + count) arrives: cached writes lose those blocks.
  void replace(std::uint64_t lba, std::uint64_t count);
  // The blocks of `it` it still owns, as runs.
  std::vector<BlockRun> owned_runs(const Writes::const_iterator& it) const;
  StoreStatus write_runs(const CachedWrite& w, const std::vector<BlockRun>& runs);
  StoreStatus write_back(Writes::iterator it);
  StoreStatus write_back_all();
  // Caches a write (`sequence` numbered by the caller); replace() first.
  void admit(std::uint64_t sequence, std::uint64_t lba, std::uint64_t count,
             std::span<const std::uint8_t> in);
  void admit(std::uint64_t sequence, std::uint64_t lba, std::uint64_t count,
             std::vector<std::uint8_t> data);
  // Erases a write that owns no block and is not being written back.
  void forget(Writes::iterator it);
  // Copies the cached blocks of [lba, lba + count) to `to`, which holds
  // blocks from `to_lba` on.
  void copy_cached(std::uint64_t lba, std::uint64_t count, std::uint8_t* to,
                   std::uint64_t to_lba) const;
  std::vector<std::uint8_t> copy_of(std::span<const std::uint8_t> in);
  std::vector<std::uint8_t> take_data(std::span<const std::uint8_t> in, IoWait& wait);
  std::vector<std::uint8_t> take_spare(std::size_t capacity);
  void keep_spare(std::vector<std::uint8_t> v);
  Writes::iterator oldest_unstarted();
  // Starts the write-backs the cache wants now (see the header comment);
  // small ones may be written synchronously, so never from a completion.
  StoreStatus pump();
  void start_write_back(Writes::iterator it);
  void written_back(std::uint64_t sequence, const StoreStatus& status);
  // Answers the room and flush waiters whose condition now holds.
  void answer_waiters();
  // Waits (blocking) until the medium has nothing in flight.
  void drain();
  void fail_waiters(const StoreStatus& status);

  std::unique_ptr<BackingStore> medium_;
  VolatileCacheConfig config_;
  Writes writes_;
  BlockOwners owner_;                              // which write owns each cached block
  std::vector<std::vector<std::uint8_t>> spares_;  // buffers to reuse
  std::uint64_t spare_bytes_ = 0;
  std::uint64_t cached_bytes_ = 0;
  std::uint64_t next_sequence_ = 1;
  std::uint64_t flushes_ = 0;
  AsyncStore* medium_async_ = nullptr;  // set: asynchronous write-back is on
  std::uint64_t in_flight_bytes_ = 0;   // of the writes being written back
  std::uint64_t room_wait_bytes_ = 0;   // of the writes in room_waiters_
  std::uint64_t writeback_failures_ = 0;
  StoreStatus writeback_error_;  // the last failed write-back's, for the next flush
  std::deque<RoomWaiter> room_waiters_;
  std::deque<FlushWaiter> flush_waiters_;
  std::chrono::steady_clock::time_point last_activity_{};
};

}  // namespace memstore::scsi
