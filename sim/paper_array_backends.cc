// SPDX-License-Identifier: Apache-2.0
// The paper's arrays: where each architecture reads, destages, cleans and flushes (FAST '03,
// §3.1-§3.5). The loop that calls these is in paper_array_run.cc.
#include <algorithm>

#include "sim/paper_array_run.h"

namespace memstore::sim {

using model::Lbn;
using model::Ns;
using model::Op;
using model::Request;

// RAID 1/0: each unit from whichever copy has fewer requests waiting (memsim's choice; the
// paper does not say how a RAID 1/0 LU picks a copy), side A on a tie.
std::vector<Piece> PaperArrayRun::raid10_read(const StripeMap& side_a, std::size_t half, Lbn lbn,
                                              std::int32_t blocks) const {
  std::vector<Piece> pieces = side_a.pieces(lbn, blocks);
  for (Piece& piece : pieces) {
    const std::size_t mirror = piece.device + half;
    if (devices_[mirror]->pending() < devices_[piece.device]->pending()) piece.device = mirror;
  }
  return pieces;
}

std::vector<Piece> PaperArrayRun::mirrored(const std::vector<Piece>& side_a,
                                           std::size_t half) const {
  std::vector<Piece> both = side_a;
  for (Piece piece : side_a) {
    piece.device += half;
    both.push_back(piece);
  }
  return both;
}

void PaperArrayRun::read_back_end(std::uint64_t parent, const Request& r) {
  const Ns at = r.arrival_ns;
  switch (p_.arch) {
    case PaperArch::kDiskOnly:
      submit_all(parent, at, raid10_read(disk_side_a_, disk_count_ / 2, r.lbn, r.blocks),
                 Op::kRead);
      return;
    case PaperArch::kMemsDisk:
      submit_all(parent, at, raid10_read(mems_side_a_, mems_count_ / 2, r.lbn, r.blocks),
                 Op::kRead);
      return;
    case PaperArch::kMemsMirror:  // §3.2: "Reads of data not in the cache are directed to the MEMS
                                  // copy"
    case PaperArch::kLogDisk:     // §3.3: "All data reads are serviced from the MEMS array"
      submit_all(parent, at, mems_stripe_.pieces(r.lbn, r.blocks), Op::kRead);
      return;
    case PaperArch::kDualStripe: {
      // §3.4: a sequential run is read from disk and a large subsequent block prefetched;
      // otherwise MEMS unless its queue exceeds the threshold.
      if (read_is_sequential_) {
        submit_all(parent, at, disk_large_.pieces(r.lbn, r.blocks), Op::kRead);
        const Lbn from = r.lbn + r.blocks;
        const auto n =
            static_cast<std::int32_t>(std::min<Lbn>(p_.prefetch_blocks, p_.volume_blocks - from));
        if (n > 0 && !nvram_.read_hit(from, n)) {
          const std::uint64_t pf = open(Kind::kPrefetch, at);
          parts_[pf].lbn = from;
          parts_[pf].blocks = n;
          submit_all(pf, at, disk_large_.pieces(from, n), Op::kRead);
        }
        return;
      }
      const std::vector<Piece> mems = mems_small_.pieces(r.lbn, r.blocks);
      const bool crowded = std::any_of(mems.begin(), mems.end(), [&](const Piece& piece) {
        return devices_[piece.device]->pending() >
               static_cast<std::size_t>(p_.mems_queue_threshold);
      });
      if (crowded) {
        ++stats_.queue_diverted_reads;
        submit_all(parent, at, disk_large_.pieces(r.lbn, r.blocks), Op::kRead);
      } else {
        submit_all(parent, at, mems, Op::kRead);
      }
      return;
    }
    case PaperArch::kMemsCache:
      return;  // cache_read
  }
}

std::int32_t PaperArrayRun::log_disk_for(std::int64_t unit) const {
  const auto disks = static_cast<std::int32_t>(disk_count_);
  if (disks == p_.mems_banks) {
    // §3.3: D_i mirrors M_i, the bank the unit's chip belongs to.
    const Piece piece = mems_stripe_.pieces(unit * p_.nvram.line_blocks, 1).front();
    const std::size_t chips_per_bank = mems_count_ / static_cast<std::size_t>(p_.mems_banks);
    return static_cast<std::int32_t>(piece.device / chips_per_bank) % disks;
  }
  // LogDisk+K: the disk with the fewest requests waiting.
  std::int32_t best = 0;
  for (std::int32_t d = 1; d < disks; ++d) {
    if (devices_[mems_count_ + d]->pending() < devices_[mems_count_ + best]->pending()) best = d;
  }
  return best;
}

std::vector<Piece> PaperArrayRun::destage_pieces(Lbn lbn, std::int32_t blocks) const {
  switch (p_.arch) {
    case PaperArch::kDiskOnly:
      return mirrored(disk_side_a_.pieces(lbn, blocks), disk_count_ / 2);
    case PaperArch::kMemsDisk:
      return mirrored(mems_side_a_.pieces(lbn, blocks), mems_count_ / 2);
    case PaperArch::kMemsMirror: {
      std::vector<Piece> v = disk_stripe_.pieces(lbn, blocks);
      for (const Piece& piece : mems_stripe_.pieces(lbn, blocks)) v.push_back(piece);
      return v;
    }
    case PaperArch::kDualStripe: {
      std::vector<Piece> v = disk_large_.pieces(lbn, blocks);
      for (const Piece& piece : mems_small_.pieces(lbn, blocks)) v.push_back(piece);
      return v;
    }
    case PaperArch::kLogDisk: {
      std::vector<Piece> v = mems_stripe_.pieces(lbn, blocks);
      // The disks' pieces are known only when appended; for the idle test, the disk each
      // unit goes to.
      const std::int32_t unit_blocks = p_.nvram.line_blocks;
      for (Lbn u = lbn / unit_blocks; u * unit_blocks < lbn + blocks; ++u) {
        v.push_back({mems_count_ + static_cast<std::size_t>(log_disk_for(u)), 0, 0});
      }
      return v;
    }
    case PaperArch::kMemsCache:
      break;
  }
  return {};
}

void PaperArrayRun::issue_destage(const std::vector<DestageRun>& runs, Ns at, bool forced) {
  ++stats_.destages;
  if (forced) ++stats_.forced_destages;
  ++destages_in_flight_;
  const std::uint64_t parent = open(Kind::kDestage, at);
  parts_[parent].runs = runs;
  std::vector<std::vector<std::int64_t>> by_disk(disk_count_);
  for (const DestageRun& run : runs) {
    const Lbn lbn = run.first_line * p_.nvram.line_blocks;
    const auto blocks = static_cast<std::int32_t>(
        std::min<Lbn>(std::int64_t{run.lines} * p_.nvram.line_blocks, p_.volume_blocks - lbn));
    if (p_.arch != PaperArch::kLogDisk) {
      submit_all(parent, at, destage_pieces(lbn, blocks), Op::kWrite);
      continue;
    }
    // §3.3: flushed to the MEMS array in place and to the disks as a log.
    submit_all(parent, at, mems_stripe_.pieces(lbn, blocks), Op::kWrite);
    for (std::int64_t u = run.first_line; u < run.first_line + run.lines; ++u) {
      by_disk[static_cast<std::size_t>(log_disk_for(u))].push_back(u);
    }
  }
  for (std::size_t d = 0; d < by_disk.size(); ++d) {
    if (!by_disk[d].empty()) {
      append_to_log(parent, at, by_disk[d], static_cast<std::int32_t>(d), false);
    }
  }
  finish_if_empty(parent, at);
}

// Appends the units to the disk's log, one write per run of consecutive slots.
void PaperArrayRun::append_to_log(std::uint64_t parent, Ns at,
                                  const std::vector<std::int64_t>& units, std::int32_t disk,
                                  bool cleaning) {
  Piece run{0, 0, 0};
  auto flush = [&] {
    if (run.blocks > 0) submit(parent, at, run, Op::kWrite);
    run.blocks = 0;
  };
  for (const std::int64_t u : units) {
    const std::optional<DiskSlot> slot = log_->append(u, disk, cleaning);
    if (!slot) {
      ++stats_.log_appends_refused;  // the disk is full: the run reports it (never so far)
      continue;
    }
    const std::size_t device = mems_count_ + static_cast<std::size_t>(slot->disk);
    if (run.blocks > 0 && run.device == device && run.lbn + run.blocks == slot->lbn) {
      run.blocks += p_.nvram.line_blocks;
      continue;
    }
    flush();
    run = {device, slot->lbn, p_.nvram.line_blocks};
  }
  flush();
}

// §3.3: one extent at a time, its live blocks read from MEMS into the RAM buffer and
// appended "whenever the disk is idle (i.e., there is no write data in the write cache to be
// written to disk)".
void PaperArrayRun::pump_cleaning(Ns t) {
  if (cleaning_busy_ || nvram_.peek_destage()) return;
  std::optional<std::int64_t> extent = log_->being_cleaned();
  if (!extent) extent = log_->begin_cleaning();
  if (!extent) return;
  const std::vector<std::int64_t> units = log_->live_units(*extent);
  if (units.empty()) return;
  const std::int32_t disk = log_disk_for(units.front());
  if (!idle(mems_count_ + static_cast<std::size_t>(disk), t)) return;
  cleaning_busy_ = true;
  const std::uint64_t parent = open(Kind::kCleanRead, t);
  parts_[parent].units = units;
  parts_[parent].disk = disk;
  for (const std::int64_t u : units) {
    submit_all(parent, t, mems_stripe_.pieces(u * p_.nvram.line_blocks, p_.nvram.line_blocks),
               Op::kRead);
  }
}

Piece PaperArrayRun::cache_slot_piece(std::int64_t slot, bool parity) const {
  // RAID 5 over the chips with rotating parity; a row holds chips - 1 lines of the log.
  const auto chips = static_cast<std::int64_t>(mems_count_);
  const std::int64_t row = slot / (chips - 1);
  const std::int64_t k = slot % (chips - 1);
  const std::int64_t parity_chip = row % chips;
  const std::int64_t data_chip = k >= parity_chip ? k + 1 : k;
  return {static_cast<std::size_t>(parity ? parity_chip : data_chip),
          row * p_.mems_cache.line_blocks, p_.mems_cache.line_blocks};
}

// A line appended to the log on MEMS. The log fills RAID 5 rows in order, so the parity of a
// row is written with its last line, no read-modify-write (memsim's choice).
void PaperArrayRun::cache_append(std::uint64_t parent, std::int64_t line, bool dirty, Ns at) {
  const std::optional<std::int64_t> slot = cache_->append(line, dirty);
  if (!slot) return;
  submit(parent, at, cache_slot_piece(*slot, false), Op::kWrite);
  if (*slot % static_cast<std::int64_t>(mems_count_ - 1) ==
      static_cast<std::int64_t>(mems_count_) - 2) {
    submit(parent, at, cache_slot_piece(*slot, true), Op::kWrite);
  }
}

void PaperArrayRun::cache_read(std::uint64_t parent, const Request& r) {
  const std::int32_t lb = p_.mems_cache.line_blocks;
  const std::int64_t first = r.lbn / lb, last = (r.lbn + r.blocks - 1) / lb;
  bool all = true;
  for (std::int64_t line = first; line <= last; ++line) all = all && cache_->slot_of(line);
  if (all) {
    ++stats_.read_hits;
    for (std::int64_t line = first; line <= last; ++line) {
      const Lbn from = std::max<Lbn>(r.lbn, line * lb);
      const Lbn to = std::min<Lbn>(r.lbn + r.blocks, (line + 1) * lb);
      Piece piece = cache_slot_piece(*cache_->slot_of(line), false);
      piece.lbn += from - line * lb;
      piece.blocks = static_cast<std::int32_t>(to - from);
      submit(parent, r.arrival_ns, piece, Op::kRead);
    }
    return;
  }
  // §3.5: "otherwise, the data are fetched from disk, and kept in the cache": whole lines.
  const Lbn lbn = first * lb;
  const auto blocks =
      static_cast<std::int32_t>(std::min<Lbn>((last + 1) * lb, p_.volume_blocks) - lbn);
  parts_[parent].lbn = lbn;
  parts_[parent].blocks = blocks;
  submit_all(parent, r.arrival_ns, raid10_read(disk_side_a_, disk_count_ / 2, lbn, blocks),
             Op::kRead);
}

bool PaperArrayRun::cache_write(const Request& r, Ns at) {
  const std::int32_t lb = p_.mems_cache.line_blocks;
  const std::int64_t first = r.lbn / lb, last = (r.lbn + r.blocks - 1) / lb;
  if (cache_->dirty_lines() + (last - first + 1) > p_.mems_cache.slots) return false;
  const std::uint64_t parent = open(Kind::kWrite, r.arrival_ns);
  for (std::int64_t line = first; line <= last; ++line) cache_append(parent, line, true, at);
  finish_if_empty(parent, at);
  return true;
}

// §3.5: from the high-water mark down to the low one, in ascending address order.
void PaperArrayRun::pump_flushes(Ns t) {
  while (flushes_in_flight_ < p_.forced_destages && cache_->flushing()) {
    const std::optional<DestageRun> run = cache_->next_flush();
    if (!run) return;
    ++stats_.flushes;
    ++flushes_in_flight_;
    const std::uint64_t parent = open(Kind::kFlushRead, t);
    parts_[parent].run = *run;
    for (std::int64_t line = run->first_line; line < run->first_line + run->lines; ++line) {
      submit(parent, t, cache_slot_piece(*cache_->slot_of(line), false), Op::kRead);
    }
  }
}

void PaperArrayRun::parent_done(const Parent& p, Ns at) {
  switch (p.kind) {
    case Kind::kRead:
      foreground_done(p.arrival_ns, at, true);
      if (p.blocks <= 0) return;
      if (p_.arch == PaperArch::kMemsCache) {
        const std::int32_t lb = p_.mems_cache.line_blocks;
        const std::uint64_t fill = open(Kind::kFill, at);
        for (Lbn line = p.lbn / lb; line * lb < p.lbn + p.blocks; ++line) {
          if (!cache_->slot_of(line)) cache_append(fill, line, false, at);
        }
        finish_if_empty(fill, at);
      } else {
        nvram_.fill_clean(p.lbn, p.blocks);
      }
      return;
    case Kind::kWrite:
      foreground_done(p.arrival_ns, at, false);
      return;
    case Kind::kDestage:
      for (const DestageRun& run : p.runs) nvram_.destaged(run);
      --destages_in_flight_;
      retry_waiting_writes(at);
      return;
    case Kind::kPrefetch:
      nvram_.fill_clean(p.lbn, p.blocks);
      return;
    case Kind::kFill:
      return;
    case Kind::kCleanRead: {
      // Only the units still in the extent being cleaned: one overwritten meanwhile has a
      // newer copy on disk already.
      std::vector<std::int64_t> live;
      const std::optional<std::int64_t> extent = log_->being_cleaned();
      for (const std::int64_t u : p.units) {
        if (extent && log_->extent_of(u) == *extent) live.push_back(u);
      }
      const std::uint64_t parent = open(Kind::kCleanWrite, at);
      parts_[parent].units = live;
      append_to_log(parent, at, live, p.disk, true);
      finish_if_empty(parent, at);
      return;
    }
    case Kind::kCleanWrite:
      cleaning_busy_ = false;
      stats_.units_cleaned += static_cast<std::int64_t>(p.units.size());
      return;
    case Kind::kFlushRead: {
      const std::uint64_t parent = open(Kind::kFlushWrite, at);
      parts_[parent].run = p.run;
      const Lbn lbn = p.run.first_line * p_.mems_cache.line_blocks;
      const auto blocks = static_cast<std::int32_t>(std::min<Lbn>(
          std::int64_t{p.run.lines} * p_.mems_cache.line_blocks, p_.volume_blocks - lbn));
      submit_all(parent, at, mirrored(disk_side_a_.pieces(lbn, blocks), disk_count_ / 2),
                 Op::kWrite);
      return;
    }
    case Kind::kFlushWrite:
      cache_->flushed(p.run);
      --flushes_in_flight_;
      retry_waiting_writes(at);
      return;
  }
}

}  // namespace memstore::sim
