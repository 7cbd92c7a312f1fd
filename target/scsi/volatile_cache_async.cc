// SPDX-License-Identifier: Apache-2.0
// The volatile cache's asynchronous side (volatile_cache.h): write-back
// through the medium's AsyncStore, off the LUN's loop, so that a write that
// needs room does not first wait for a synchronous write of the oldest one
// (docs/benchmarks.md, "The volatile cache's cost"; docs/design.md).
//
// The durability rules do not change (SBC-3 §4.15, docs/crash-consistency.md):
// a cached write stays volatile until the medium has completed its
// write-back; SYNCHRONIZE CACHE (§5.24) returns GOOD only after every
// write-back it covers has completed and the medium has been flushed; FUA and
// WCE = 0 go to the medium as a durable write. Reads see the newest data: a
// write being written back keeps its blocks in the cache until then.
#include <poll.h>

#include <algorithm>
#include <cstring>
#include <utility>

#include "target/scsi/volatile_cache.h"

namespace memstore::scsi {

VolatileCacheStore::~VolatileCacheStore() {
  // The medium may still be writing from the cache's buffers.
  drain();
}

AsyncStore* VolatileCacheStore::async() {
  if (medium_async_ == nullptr) medium_async_ = medium_->async();
  return medium_async_ != nullptr ? this : nullptr;
}

void VolatileCacheStore::drain() {
  while (medium_async_ != nullptr && medium_async_->in_flight() > 0) {
    const int fd = medium_async_->completion_fd();
    if (fd >= 0) {
      pollfd p{fd, POLLIN, 0};
      (void)::poll(&p, 1, 100);  // a bounded wait: reap() is what matters
    }
    medium_async_->reap();
  }
}

VolatileCacheStore::Writes::iterator VolatileCacheStore::oldest_unstarted() {
  return std::find_if(writes_.begin(), writes_.end(),
                      [](const auto& entry) { return !entry.second.writing_back; });
}

// Room: a cache over its capacity writes back its oldest writes; a small one
// synchronously while the medium is idle (as before: cheaper than a round
// trip through io_uring), anything else asynchronously. Ahead of need:
// once more than half the cache is not being written back, the oldest
// writes start their write-back, so that the room a write needs is usually
// free when it arrives. Not while a write-back's failure is unreported,
// so that a failing medium is not retried in a loop.
StoreStatus VolatileCacheStore::pump() {
  if (medium_async_ == nullptr) return {};
  const std::uint64_t capacity = config_.capacity_bytes;
  for (;;) {
    const auto it = oldest_unstarted();
    if (it == writes_.end()) break;
    const bool over = cached_bytes_ > capacity;
    if (it->second.data.size() <= config_.sync_writeback_bytes && medium_async_->in_flight() == 0) {
      if (!over) break;
      if (auto e = write_back(it); !e.ok()) return e;
      continue;
    }
    if (cached_bytes_ - in_flight_bytes_ <= capacity / 2) break;
    if (!over && !writeback_error_.ok()) break;
    start_write_back(it);
  }
  answer_waiters();
  return {};
}

void VolatileCacheStore::start_write_back(Writes::iterator it) {
  const std::uint64_t sequence = it->first;
  CachedWrite& w = it->second;
  const std::vector<BlockRun> runs = owned_runs(it);
  w.writing_back = true;
  in_flight_bytes_ += w.data.size();
  auto io = std::make_shared<IoWait>(w.lba, true);
  IoWait* raw = io.get();
  io->on_ready([this, sequence, raw] { written_back(sequence, raw->error()); });
  // Held until every run has started, so that an operation refused at once
  // cannot end the write-back (and erase `w`) half way.
  io->started();
  const std::uint64_t bs = block_size();
  for (const BlockRun& r : runs) {
    const auto from =
        std::span<const std::uint8_t>(w.data).subspan((r.lba - w.lba) * bs, r.blocks * bs);
    medium_async_->start_write(r.lba, r.blocks, from, false, io);
  }
  io->finished({});
}

// The medium is done with a write-back: the write is durable (the device
// wrote it back), and its blocks no newer write owns read from the medium.
// Called from the medium's completion handling: it starts nothing
// synchronous.
void VolatileCacheStore::written_back(std::uint64_t sequence, const StoreStatus& status) {
  const auto it = writes_.find(sequence);
  if (it == writes_.end()) return;
  CachedWrite& w = it->second;
  w.writing_back = false;
  in_flight_bytes_ -= w.data.size();
  if (status.ok()) {
    owner_.drop(w.lba, w.blocks, sequence);
    forget(it);
  } else {
    // Still volatile, still cached: a flush writes it back again.
    ++writeback_failures_;
    writeback_error_ = status;
    if (w.owned == 0) forget(it);
    // A write waiting for room would wait for a retry: it fails instead.
    while (!room_waiters_.empty()) {
      RoomWaiter r = std::move(room_waiters_.front());
      room_waiters_.pop_front();
      room_wait_bytes_ -= r.bytes;
      r.wait->finished(status);
    }
  }
  answer_waiters();
}

void VolatileCacheStore::answer_waiters() {
  const std::uint64_t capacity = config_.capacity_bytes;
  // In arrival order; the writes behind the first do not count against it.
  while (!room_waiters_.empty() &&
         cached_bytes_ <= capacity + (room_wait_bytes_ - room_waiters_.front().bytes)) {
    RoomWaiter r = std::move(room_waiters_.front());
    room_waiters_.pop_front();
    room_wait_bytes_ -= r.bytes;
    r.wait->finished({});
  }
  while (!flush_waiters_.empty()) {
    const FlushWaiter& f = flush_waiters_.front();
    // Every write it covers is written back when none up to its sequence
    // is still in flight (each was started when the flush arrived).
    bool waiting = false;
    for (auto it = writes_.begin(); it != writes_.end() && it->first <= f.sequence; ++it) {
      if (it->second.writing_back) {
        waiting = true;
        break;
      }
    }
    if (waiting) return;
    FlushWaiter done = std::move(flush_waiters_.front());
    flush_waiters_.pop_front();
    if (writeback_failures_ != done.failures) {
      done.wait->finished(writeback_error_);
      continue;
    }
    // Now the medium's flush makes them durable; it completes the command.
    auto io = std::make_shared<IoWait>(0, true);
    IoWait* raw = io.get();
    io->on_ready([this, raw, outer = done.wait] {
      if (raw->error().ok()) ++flushes_;
      outer->finished(raw->error());
    });
    medium_async_->start_flush(io);
  }
}

void VolatileCacheStore::fail_waiters(const StoreStatus& status) {
  while (!room_waiters_.empty()) {
    std::shared_ptr<IoWait> w = std::move(room_waiters_.front().wait);
    room_waiters_.pop_front();
    w->finished(status);
  }
  room_wait_bytes_ = 0;
  while (!flush_waiters_.empty()) {
    std::shared_ptr<IoWait> w = std::move(flush_waiters_.front().wait);
    flush_waiters_.pop_front();
    w->finished(status);
  }
}

void VolatileCacheStore::reap() {
  medium_async_->reap();
  if (auto e = pump(); !e.ok()) {
    // A synchronous write-back failed: reported as an asynchronous one is.
    ++writeback_failures_;
    writeback_error_ = std::move(e);
    answer_waiters();
  }
}

void VolatileCacheStore::start_read(std::uint64_t lba, std::uint64_t count,
                                    std::span<std::uint8_t> out,
                                    const std::shared_ptr<IoWait>& wait) {
  if (auto e = check_access(*this, "read", lba, count, out.size()); !e.ok() || count == 0) {
    return wait->finish_now(std::move(e));
  }
  if (auto e = settle(); !e.ok()) return wait->finish_now(std::move(e));
  // The cached blocks as they are now: the read returns the data as of its
  // arrival (backing_store.h), though a write-back may end before it does.
  std::uint64_t cached = 0;
  owner_.for_each(lba, count, [&cached](std::uint64_t, std::uint64_t blocks, std::uint64_t) {
    cached += blocks;
  });
  if (cached == 0) return medium_async_->start_read(lba, count, out, wait);
  if (cached == count) {
    copy_cached(lba, count, out.data(), lba);
    return wait->finish_now({});
  }
  std::vector<std::uint8_t> overlay(out.size());
  copy_cached(lba, count, overlay.data(), lba);
  std::vector<BlockRun> runs;
  owner_.for_each(lba, count, [&runs](std::uint64_t from, std::uint64_t blocks, std::uint64_t) {
    runs.push_back({from, blocks});
  });
  const std::uint64_t bs = block_size();
  // The medium reads into `out` first; the cached blocks go over it after.
  auto io = std::make_shared<IoWait>(lba, false);
  IoWait* raw = io.get();
  io->on_ready([raw, out, bs, lba, wait, runs = std::move(runs), overlay = std::move(overlay)] {
    if (raw->error().ok()) {
      for (const BlockRun& r : runs) {
        const std::size_t at = (r.lba - lba) * bs;
        std::memcpy(out.data() + at, overlay.data() + at, r.blocks * bs);
      }
    }
    wait->finished(raw->error());
  });
  wait->started();
  medium_async_->start_read(lba, count, out, io);
}

void VolatileCacheStore::start_write(std::uint64_t lba, std::uint64_t count,
                                     std::span<const std::uint8_t> in, bool durable,
                                     const std::shared_ptr<IoWait>& wait) {
  if (auto e = check_access(*this, "write", lba, count, in.size()); !e.ok() || count == 0) {
    return wait->finish_now(std::move(e));
  }
  if (auto e = settle(); !e.ok()) return wait->finish_now(std::move(e));
  const std::uint64_t sequence = next_sequence_++;
  replace(lba, count);
  // FUA or WCE = 0 (SBC-3 §4.15): to the medium and its stable storage
  // before GOOD. The medium orders it after the write-backs in flight to
  // the same blocks (async_store.h), so it is not overwritten by older data.
  // Larger than the whole cache: streamed to the medium, as write() does.
  if (durable || in.size() > config_.capacity_bytes) {
    return medium_async_->start_write(lba, count, in, durable, wait);
  }
  admit(sequence, lba, count, take_data(in, *wait));
  if (auto e = pump(); !e.ok()) return wait->finish_now(std::move(e));
  if (room_waiters_.empty() && cached_bytes_ <= config_.capacity_bytes) {
    return wait->finish_now({});
  }
  if (medium_async_->in_flight() == 0) {
    // Nothing will make room: a failed write-back holds it.
    return wait->finish_now(std::exchange(writeback_error_, {}));
  }
  // Cached already (reads see it), answered when its room is free: the
  // initiator feels a full cache as it did before.
  wait->started();
  room_waiters_.push_back({in.size(), wait});
  room_wait_bytes_ += in.size();
}

// The command's own buffer when `in` starts one the IoWait holds (the
// transport's, which may be longer), exchanged for a spare at least as
// large, so that the LUN gets a buffer back to reuse (lun.cc recycles by
// capacity and counts it against its budget again): no copy of the data on
// the loop. Else a copy.
std::vector<std::uint8_t> VolatileCacheStore::take_data(std::span<const std::uint8_t> in,
                                                        IoWait& wait) {
  for (Bytes& held : wait.buffers()) {
    if (held.data() != in.data() || held.size() < in.size()) continue;
    std::vector<std::uint8_t> spare = take_spare(held.size());
    if (spare.capacity() == 0) break;
    std::vector<std::uint8_t> data = std::exchange(held, std::move(spare));
    data.resize(in.size());
    return data;
  }
  return copy_of(in);
}

void VolatileCacheStore::start_unmap(std::uint64_t lba, std::uint64_t count, bool durable,
                                     const std::shared_ptr<IoWait>& wait) {
  if (auto e = check_access(*this, "unmap", lba, count, std::nullopt); !e.ok() || count == 0) {
    return wait->finish_now(std::move(e));
  }
  if (auto e = settle(); !e.ok()) return wait->finish_now(std::move(e));
  // On the medium at once, ordered after the write-backs in flight there.
  replace(lba, count);
  medium_async_->start_unmap(lba, count, durable, wait);
}

// SYNCHRONIZE CACHE (SBC-3 §5.24): every cached write starts its
// write-back now; the medium's flush starts when all of them (and those
// already in flight) have completed (answer_waiters()), since the medium's
// flush covers only what finished before it (async_store.h).
void VolatileCacheStore::start_flush(const std::shared_ptr<IoWait>& wait) {
  if (auto e = settle(); !e.ok()) return wait->finish_now(std::move(e));
  writeback_error_ = {};  // what failed before is tried again here
  std::vector<std::uint64_t> unstarted;
  for (const auto& [sequence, w] : writes_) {
    if (!w.writing_back) unstarted.push_back(sequence);
  }
  wait->started();
  flush_waiters_.push_back({next_sequence_ - 1, writeback_failures_, wait});
  for (const std::uint64_t sequence : unstarted) {
    const auto it = writes_.find(sequence);
    if (it != writes_.end() && !it->second.writing_back) start_write_back(it);
  }
  answer_waiters();  // nothing to wait for: the medium's flush starts now
}

}  // namespace memstore::scsi
