// SPDX-License-Identifier: Apache-2.0
// The disk array's mirrored NVRAM write cache, as Uysal, Merchant and Alvarez describe it
// ("Using MEMS-based storage in disk arrays", FAST '03, §3 and §3.2, §3.4): write-behind (a
// write completes once its data is in the cache), overwrites of dirty data folded into one
// destage, reads of cached data served from the cache, and dirty data flushed to the
// back-end in the background "when the disks are otherwise idle, or when the cache starts
// filling up", i.e. "when forced because the cache's high-water mark is reached".
//
// This is the bookkeeping only; the timing is in sim/paper_array.h. Both mirror copies hold
// the same lines, so one copy's bookkeeping stands for both.
//
// memsim's choices where the paper is silent (docs/disk-models.md, "The paper's arrays"):
//   * fixed-size lines of `line_blocks`, fully associative; clean lines are evicted least
//     recently used first, dirty lines never (a write that finds every line dirty waits);
//   * a read miss leaves its lines in the cache, clean (the paper: "multiple read accesses to
//     the same data can be directly served from the cache");
//   * destaging takes dirty lines in ascending address order from a cursor that wraps, and
//     joins contiguous dirty lines into one destage of at most `max_destage_lines`;
//   * a line rewritten while its destage is in flight stays dirty when the destage ends.
#pragma once

#include <cstdint>
#include <list>
#include <optional>
#include <set>
#include <unordered_map>

#include "model/request.h"

namespace memstore::sim {

struct NvramParams {
  std::int64_t capacity_blocks = 4'194'304;  // 2 GB (§4.3)
  std::int32_t line_blocks = 8;              // 4 KB lines (memsim's choice)
  double high_water = 0.8;                   // dirty fraction that forces destaging
  std::int32_t max_destage_lines = 16;       // 64 KB per destage at most
};

// A run of whole lines to destage: [first_line, first_line + lines).
struct DestageRun {
  std::int64_t first_line = 0;
  std::int32_t lines = 0;
};

class NvramCache {
 public:
  // REQUIRES: capacity_blocks >= line_blocks >= 1, 0 < high_water <= 1, max_destage_lines >= 1.
  explicit NvramCache(const NvramParams& p);

  const NvramParams& params() const { return p_; }
  std::int64_t capacity_lines() const { return capacity_lines_; }
  std::int64_t lines() const { return static_cast<std::int64_t>(entries_.size()); }
  std::int64_t dirty_lines() const { return dirty_; }

  // True when every line of [lbn, lbn + blocks) is cached; the lines become most recently used.
  bool read_hit(model::Lbn lbn, std::int32_t blocks);
  // After a read miss: the lines are cached clean where there is room (clean lines evicted).
  void fill_clean(model::Lbn lbn, std::int32_t blocks);

  // Room for the write's new dirty lines (lines already cached need none; a clean one can be
  // evicted to make room).
  bool can_write(model::Lbn lbn, std::int32_t blocks) const;
  // The write's lines become dirty (an already dirty line is folded: still one line to
  // destage). REQUIRES: can_write(lbn, blocks).
  void write(model::Lbn lbn, std::int32_t blocks);

  // Above the high-water mark: destaging is forced even while the back-end is busy.
  bool over_high_water() const;
  // The next dirty run to destage at or after the cursor (wrapping), now in flight; nothing
  // when no dirty line waits. peek_destage: the same run, left waiting.
  std::optional<DestageRun> next_destage() { return take_run(true); }
  std::optional<DestageRun> peek_destage() { return take_run(false); }
  // The run reached the back-end: its lines become clean unless rewritten meanwhile.
  void destaged(const DestageRun& run);

 private:
  struct Entry {
    bool dirty = false;
    bool in_flight = false;
    bool rewritten = false;                   // written again while in flight
    std::list<std::int64_t>::iterator clean;  // position in clean_lru_ when clean
  };
  std::optional<DestageRun> take_run(bool take);
  std::int64_t new_lines(model::Lbn lbn, std::int32_t blocks) const;
  bool make_room();  // evicts the least recently used clean line
  void mark_clean(std::int64_t line, Entry& e);

  NvramParams p_;
  std::int64_t capacity_lines_;
  std::unordered_map<std::int64_t, Entry> entries_;
  std::list<std::int64_t> clean_lru_;  // clean lines, most recently used first
  std::set<std::int64_t> waiting_;     // dirty lines not in flight, in address order
  std::int64_t dirty_ = 0;             // dirty lines, in flight or not
  std::int64_t cursor_ = 0;            // next destage starts at or after this line
};

}  // namespace memstore::sim
