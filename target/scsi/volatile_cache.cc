// SPDX-License-Identifier: Apache-2.0
#include "target/scsi/volatile_cache.h"

#include <algorithm>
#include <cerrno>
#include <cstring>
#include <limits>
#include <random>
#include <utility>

namespace memstore::scsi {
namespace {

// Appends [lba, lba + blocks) to `runs`, joining it to the last run when
// they touch (the runs are built in ascending order).
void add_run(std::vector<BlockRun>& runs, std::uint64_t lba, std::uint64_t blocks) {
  if (!runs.empty() && runs.back().lba + runs.back().blocks == lba) {
    runs.back().blocks += blocks;
  } else {
    runs.push_back({lba, blocks});
  }
}

}  // namespace

VolatileCacheStore::VolatileCacheStore(std::unique_ptr<BackingStore> medium,
                                       VolatileCacheConfig config)
    : medium_(std::move(medium)), config_(std::move(config)) {
  config_.atomic_blocks = std::max<std::uint32_t>(config_.atomic_blocks, 1);
  last_activity_ = now();
}

std::chrono::steady_clock::time_point VolatileCacheStore::now() const {
  return config_.now ? config_.now() : std::chrono::steady_clock::now();
}

StoreStatus VolatileCacheStore::settle() {
  const auto t = now();
  if (config_.writeback_idle.count() > 0 && !writes_.empty() &&
      t - last_activity_ >= config_.writeback_idle) {
    if (auto e = write_back_all(); !e.ok()) return e;
  }
  last_activity_ = t;
  return {};
}

void VolatileCacheStore::replace(std::uint64_t lba, std::uint64_t count) {
  if (owner_.empty()) return;
  owner_.release(lba, count, [this](std::uint64_t sequence, std::uint64_t blocks) {
    const auto w = writes_.find(sequence);
    // A write being written back keeps its data until the medium is done
    // with it (written_back()).
    if ((w->second.owned -= blocks) == 0 && !w->second.writing_back) forget(w);
  });
}

void VolatileCacheStore::forget(Writes::iterator it) {
  cached_bytes_ -= it->second.data.size();
  keep_spare(std::move(it->second.data));
  writes_.erase(it);
}

std::vector<BlockRun> VolatileCacheStore::owned_runs(const Writes::const_iterator& it) const {
  std::vector<BlockRun> runs;
  const CachedWrite& w = it->second;
  owner_.for_each(
      w.lba, w.blocks,
      [&runs, sequence = it->first](std::uint64_t lba, std::uint64_t blocks, std::uint64_t owner) {
        if (owner == sequence) add_run(runs, lba, blocks);
      });
  return runs;
}

StoreStatus VolatileCacheStore::write_runs(const CachedWrite& w,
                                           const std::vector<BlockRun>& runs) {
  const std::uint64_t bs = block_size();
  for (const BlockRun& r : runs) {
    const auto from =
        std::span<const std::uint8_t>(w.data).subspan((r.lba - w.lba) * bs, r.blocks * bs);
    if (auto e = medium_->write(r.lba, r.blocks, from); !e.ok()) return e;
  }
  return {};
}

StoreStatus VolatileCacheStore::write_back(Writes::iterator it) {
  const std::vector<BlockRun> runs = owned_runs(it);
  if (auto e = write_runs(it->second, runs); !e.ok()) return e;
  owner_.drop(it->second.lba, it->second.blocks, it->first);
  forget(it);
  return {};
}

StoreStatus VolatileCacheStore::write_back_all() {
  drain();  // the write-backs in flight first: none is started twice
  while (!writes_.empty()) {
    if (auto e = write_back(writes_.begin()); !e.ok()) return e;
  }
  return {};
}

StoreStatus VolatileCacheStore::read(std::uint64_t lba, std::uint64_t count,
                                     std::span<std::uint8_t> out) {
  if (auto e = check_access(*this, "read", lba, count, out.size()); !e.ok()) return e;
  if (auto e = settle(); !e.ok()) return e;
  if (auto e = medium_->read(lba, count, out); !e.ok()) return e;
  copy_cached(lba, count, out.data(), lba);
  return {};
}

StoreStatus VolatileCacheStore::write(std::uint64_t lba, std::uint64_t count,
                                      std::span<const std::uint8_t> in) {
  if (auto e = check_access(*this, "write", lba, count, in.size()); !e.ok()) return e;
  if (count == 0) return {};
  if (auto e = settle(); !e.ok()) return e;
  const std::uint64_t sequence = next_sequence_++;
  replace(lba, count);
  if (in.size() > config_.capacity_bytes) {
    // Larger than the whole cache: the device can only stream it to the
    // medium, where it is as durable as a write-back makes it.
    return medium_->write(lba, count, in);
  }
  if (medium_async_ != nullptr) {
    // Called while nothing is in flight (at_once()), or for a command the
    // LUN runs synchronously: room is made by write-backs as in start_write,
    // and waited for here.
    admit(sequence, lba, count, in);
    if (auto e = pump(); !e.ok()) return e;
    while (cached_bytes_ > config_.capacity_bytes && medium_async_->in_flight() > 0) {
      drain();
      if (!writeback_error_.ok()) return std::exchange(writeback_error_, {});
      if (auto e = pump(); !e.ok()) return e;
    }
    return {};
  }
  while (cached_bytes_ + in.size() > config_.capacity_bytes) {
    if (auto e = write_back(writes_.begin()); !e.ok()) return e;
  }
  admit(sequence, lba, count, in);
  return {};
}

void VolatileCacheStore::admit(std::uint64_t sequence, std::uint64_t lba, std::uint64_t count,
                               std::span<const std::uint8_t> in) {
  admit(sequence, lba, count, copy_of(in));
}

void VolatileCacheStore::admit(std::uint64_t sequence, std::uint64_t lba, std::uint64_t count,
                               std::vector<std::uint8_t> data) {
  CachedWrite w{lba, count, flushes_, count, false, std::move(data)};
  cached_bytes_ += w.data.size();
  writes_.emplace(sequence, std::move(w));
  owner_.assign(lba, count, sequence);
}

void VolatileCacheStore::copy_cached(std::uint64_t lba, std::uint64_t count, std::uint8_t* to,
                                     std::uint64_t to_lba) const {
  if (owner_.empty()) return;
  const std::uint64_t bs = block_size();
  owner_.for_each(lba, count, [&](std::uint64_t from, std::uint64_t blocks, std::uint64_t owner) {
    const CachedWrite& w = writes_.at(owner);
    std::memcpy(to + (from - to_lba) * bs, w.data.data() + (from - w.lba) * bs, blocks * bs);
  });
}

// A buffer for a write's data: a spare one when there is one big enough
// (no allocation, and its pages are already mapped), else a new one.
std::vector<std::uint8_t> VolatileCacheStore::copy_of(std::span<const std::uint8_t> in) {
  std::vector<std::uint8_t> data = take_spare(in.size());
  // `in` may lie in a spare (WRITE SAME's pieces after the first read from
  // the buffer the first one gave the cache): never copy a buffer onto itself.
  const auto* first = data.data();
  if (first != nullptr && in.data() >= first && in.data() < first + data.capacity()) {
    std::vector<std::uint8_t> fresh(in.begin(), in.end());
    keep_spare(std::move(data));
    return fresh;
  }
  data.assign(in.begin(), in.end());
  return data;
}

// The newest spare first (its pages are the likeliest to be in the CPU's
// cache), looking at a few only: spares are mostly of one size.
std::vector<std::uint8_t> VolatileCacheStore::take_spare(std::size_t capacity) {
  const std::size_t n = spares_.size();
  for (std::size_t k = 1; k <= std::min<std::size_t>(n, 4); ++k) {
    std::vector<std::uint8_t>& candidate = spares_[n - k];
    if (candidate.capacity() < capacity) continue;
    std::vector<std::uint8_t> v = std::move(candidate);
    std::swap(candidate, spares_.back());
    spares_.pop_back();
    spare_bytes_ -= v.capacity();
    return v;
  }
  return {};
}

// Buffers of written-back writes, kept up to the cache's capacity again.
void VolatileCacheStore::keep_spare(std::vector<std::uint8_t> v) {
  if (v.capacity() == 0 || spare_bytes_ + v.capacity() > config_.capacity_bytes) return;
  spare_bytes_ += v.capacity();
  spares_.push_back(std::move(v));
}

StoreStatus VolatileCacheStore::write_durable(std::uint64_t lba, std::uint64_t count,
                                              std::span<const std::uint8_t> in) {
  if (auto e = check_access(*this, "write", lba, count, in.size()); !e.ok()) return e;
  if (count == 0) return flush();
  if (auto e = settle(); !e.ok()) return e;
  replace(lba, count);
  ++next_sequence_;  // numbered like every write, though never cached
  if (auto e = medium_->write(lba, count, in); !e.ok()) return e;
  return medium_->flush();
}

StoreStatus VolatileCacheStore::unmap(std::uint64_t lba, std::uint64_t count) {
  if (auto e = check_access(*this, "unmap", lba, count, std::nullopt); !e.ok()) return e;
  if (auto e = settle(); !e.ok()) return e;
  replace(lba, count);
  return medium_->unmap(lba, count);
}

StoreStatus VolatileCacheStore::flush() {
  if (auto e = settle(); !e.ok()) return e;
  if (auto e = write_back_all(); !e.ok()) return e;  // drains the write-backs in flight
  writeback_error_ = {};                             // what failed before is written now
  if (auto e = medium_->flush(); !e.ok()) return e;
  ++flushes_;
  return {};
}

BackingStore::Extent VolatileCacheStore::provisioning(std::uint64_t lba,
                                                      std::uint64_t max_blocks) const {
  const Extent medium = medium_->provisioning(lba, max_blocks);
  if (medium.mapped || owner_.empty()) return medium;
  // Cached blocks hold data: the deallocated run ends at the first of them.
  std::optional<std::uint64_t> first;
  owner_.for_each(lba, medium.blocks, [&first](std::uint64_t from, std::uint64_t, std::uint64_t) {
    if (!first) first = from;
  });
  if (!first) return medium;
  return *first == lba ? Extent{true, 1} : Extent{false, *first - lba};
}

std::string VolatileCacheStore::describe() const {
  return medium_->describe() + " behind a volatile write cache of " +
         std::to_string(config_.capacity_bytes >> 10) + " KiB";
}

Expected<PowerCutReport> VolatileCacheStore::power_cut(CutPolicy policy, std::uint64_t seed) {
  if (auto e = settle(); !e.ok()) return e.error();
  PowerCutReport report;
  report.policy = policy;
  report.seed = seed;
  report.flushes = flushes_;
  std::mt19937_64 draw(seed);
  const auto coin = [&draw] { return (draw() >> 63) != 0; };
  const std::uint64_t unit = config_.atomic_blocks;
  // Write-backs in flight: the medium has begun them and this emulation
  // cannot take them back, so they finish and count as kept, with the
  // blocks their writes still owned (a newer write's blocks are that
  // write's to lose).
  std::vector<CutWrite> flying;
  for (auto it = writes_.cbegin(); it != writes_.cend(); ++it) {
    const CachedWrite& w = it->second;
    if (!w.writing_back || w.owned == 0) continue;
    CutWrite cut{it->first,      w.lba, w.blocks, w.after_flush,
                 owned_runs(it), {},    true,     CutWrite::Outcome::kKept};
    flying.push_back(std::move(cut));
  }
  drain();
  for (CutWrite& cut : flying) {
    // One whose write-back failed is back in the cache, for the policy.
    if (!writes_.contains(cut.sequence)) report.writes.push_back(std::move(cut));
  }
  for (auto it = writes_.cbegin(); it != writes_.cend(); ++it) {
    const CachedWrite& w = it->second;
    CutWrite cut{it->first, w.lba, w.blocks, w.after_flush,
                 {},        {},    false,    CutWrite::Outcome::kLost};
    const std::vector<BlockRun> runs = owned_runs(it);
    const bool whole = policy == CutPolicy::kKeepRandom && coin();
    std::uint64_t drawn_unit = std::numeric_limits<std::uint64_t>::max();
    bool unit_kept = false;
    for (const BlockRun& r : runs) {
      if (policy != CutPolicy::kTorn) {
        (whole ? cut.kept : cut.lost).push_back(r);
        continue;
      }
      // Torn: whole atomic units, each kept or lost on its own; a unit
      // whose blocks are in two runs (a newer write owns the gap) is one draw.
      for (std::uint64_t b = r.lba; b < r.lba + r.blocks;) {
        const std::uint64_t end = std::min(r.lba + r.blocks, (b / unit + 1) * unit);
        if (b / unit != drawn_unit) {
          drawn_unit = b / unit;
          unit_kept = coin();
        }
        add_run(unit_kept ? cut.kept : cut.lost, b, end - b);
        b = end;
      }
    }
    if (auto e = write_runs(w, cut.kept); !e.ok()) return e.error();
    cut.outcome = cut.lost.empty()   ? CutWrite::Outcome::kKept
                  : cut.kept.empty() ? CutWrite::Outcome::kLost
                                     : CutWrite::Outcome::kTorn;
    report.writes.push_back(std::move(cut));
  }
  std::sort(report.writes.begin(), report.writes.end(),
            [](const CutWrite& a, const CutWrite& b) { return a.sequence < b.sequence; });
  writes_.clear();
  owner_.clear();
  cached_bytes_ = 0;
  in_flight_bytes_ = 0;
  fail_waiters(Error{EIO, "the power was cut"});  // their commands are not answered (lun_power.cc)
  if (auto e = medium_->flush(); !e.ok()) return e.error();
  return report;
}

}  // namespace memstore::scsi
