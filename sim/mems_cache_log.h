// SPDX-License-Identifier: Apache-2.0
// MEMScache's cache (Uysal, Merchant and Alvarez, FAST '03, §3.5): MEMS storage in place of
// the array's NVRAM cache, "a RAID-5 array of MEMS storage devices, organized as a log of
// cache lines. When data is written into the cache (whether due to a read from disk or an
// external write), one or more cache lines are appended to the log. If those addresses
// existed in the cache already, the corresponding locations are marked empty and later
// reclaimed by a log-cleaning process." Dirty data is flushed "when the amount of dirty data
// in the cache reaches a high-water mark; flushing continues in the background until the
// remaining dirty data is less than a low-water mark", dirty blocks with contiguous
// addresses aggregated into larger chunks and written "in ascending order of the addresses".
//
// This is the bookkeeping; the timing (and the RAID 5 placement) is in sim/paper_array.h.
//
// memsim's choices where the paper is silent (docs/disk-models.md, "The paper's arrays"):
//   * the log is a circle of `slots` line slots; reclaiming is done where the log's head
//     arrives: an empty slot is reused, a clean line there is evicted, and a slot holding a
//     dirty line is skipped (the line stays where it is until flushed), so no cleaning I/O;
//   * water marks of 0.8 and 0.5 of the slots dirty; a flush joins at most
//     `max_flush_lines` contiguous lines; the ascending order wraps at the volume's end;
//   * a line written again while its flush is in flight is appended anew, dirty, and the
//     flush's completion leaves the new copy alone.
#pragma once

#include <cstdint>
#include <optional>
#include <set>
#include <unordered_map>
#include <vector>

#include "sim/nvram_cache.h"

namespace memstore::sim {

struct MemsCacheLogParams {
  std::int64_t slots = 0;
  std::int32_t line_blocks = 8;  // 4 KB lines
  double high_water = 0.8;
  double low_water = 0.5;
  std::int32_t max_flush_lines = 16;
};

class MemsCacheLog {
 public:
  // REQUIRES: slots >= 1, line_blocks >= 1, 0 <= low_water <= high_water <= 1.
  explicit MemsCacheLog(const MemsCacheLogParams& p);

  const MemsCacheLogParams& params() const { return p_; }
  std::int64_t dirty_lines() const { return dirty_; }
  std::int64_t cached_lines() const { return static_cast<std::int64_t>(slot_of_.size()); }
  std::optional<std::int64_t> slot_of(std::int64_t line) const;

  // Appends `line` at the log's head (its older slot, if any, becomes empty). The slot it
  // took, or nothing when every slot holds a dirty line. A clean line the head reclaimed is
  // evicted from the cache.
  std::optional<std::int64_t> append(std::int64_t line, bool dirty);

  // High- and low-water flushing: true from when the dirty lines reach the high-water mark
  // until they are below the low one.
  bool flushing();
  // The next dirty run in ascending address order from the cursor (wrapping), now in flight.
  std::optional<DestageRun> next_flush();
  void flushed(const DestageRun& run);

 private:
  MemsCacheLogParams p_;
  std::vector<std::int64_t> line_in_;  // per slot: its line, or -1 when empty
  std::unordered_map<std::int64_t, std::int64_t> slot_of_;
  std::set<std::int64_t> waiting_;                    // dirty, not in flight, by address
  std::unordered_map<std::int64_t, bool> in_flight_;  // line -> rewritten since
  std::unordered_map<std::int64_t, bool> dirty_of_;
  std::int64_t dirty_ = 0;
  std::int64_t head_ = 0;
  std::int64_t cursor_ = 0;
  bool flushing_ = false;
};

}  // namespace memstore::sim
