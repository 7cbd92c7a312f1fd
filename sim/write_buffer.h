// SPDX-License-Identifier: Apache-2.0
// The MEMS write buffer's log and cache management, as Wang and Brandt describe them in
// "Using MEMS Device as Disk Write Buffer", §3 ("Cache Management", "Segment List", "Cache
// Cleaning"). This file is the bookkeeping only: which disk data sits where in the log,
// which segments to clean and what to write back. The timing of the two devices and the
// clean buffer's I/O are in sim/wbuffer_driver.h; the lookup table in sim/wbuffer_lookup.h.
//
// From the paper: the cache is organised as logs, one per 128 KB segment; each segment
// starts with a 1 KB segment head and holds 1 KB slots of user data; a write request takes
// one or several slots and is appended to the end of the current log. The segment list is
// the in-memory copy of every segment head (the mapping of its slots and its statistics);
// it is updated on every append and every invalidation, while the on-MEMS copy of the head
// is written once the whole segment has been written. Cleaning takes the oldest segment,
// combines its valid blocks into requests as large as possible and writes them to the
// disk, once the cache usage is beyond the high water mark and until it is back at the low
// one.
//
// memsim's choices where the paper leaves them open:
//   * the log occupies the MEMStore's first `segments` segments, used as a circle;
//   * cache usage is counted in segments (sealed ones and the one being filled);
//   * a write continues in the next segment when the current one fills up, and the write
//     that fills a segment also writes that segment's head (2 sectors) to the MEMStore;
//   * a write not on 1 KB boundaries is widened to them (the paper: requests "are all
//     aligned to 1K boundary"); memsim keeps no data, so nothing is read for the widening;
//   * a slot whose fragment a newer write supersedes is marked dead in its segment head at
//     once, so cleaning writes back only the live slots;
//   * a write that does not fit even after cleaning goes to the disk and forgets any older
//     copy of its fragments in the log.
#pragma once

#include <cstdint>
#include <deque>
#include <optional>
#include <vector>

#include "model/request.h"
#include "sim/wbuffer_lookup.h"

namespace memstore::sim {

// The paper's segment: 128 KB of 512-byte sectors, a 1 KB head, then 127 slots of 1 KB.
inline constexpr std::int32_t kSegmentBlocks = 256;
inline constexpr std::int32_t kHeadBlocks = 2;
inline constexpr std::int32_t kSlotBlocks = kFragmentBlocks;
inline constexpr std::int32_t kSlotsPerSegment = (kSegmentBlocks - kHeadBlocks) / kSlotBlocks;

struct WriteBufferParams {
  std::int64_t segments = 128;  // 16 MB, the smallest cache of the figures
  double high_water = 0.9;      // clean once usage is beyond this share (memsim's choice)
  // ... until it is back at this one; negative (the default, memsim's choice): one clean
  // buffer below the high mark, so that a cleaning is one pass whatever the cache size.
  double low_water = -1;
  std::int32_t clean_segments = 4;  // the clean buffer: 512 KB (memsim's choice)
};

// A run of consecutive sectors: on the MEMStore (lbn = MEMS LBN) or on the disk.
struct Extent {
  model::Lbn lbn = 0;
  std::int32_t blocks = 0;
};

// A piece of a read: from the log (lbn = MEMS LBN) or from the disk (lbn = disk LBN).
struct ReadSource {
  bool in_buffer = false;
  model::Lbn lbn = 0;
  std::int32_t blocks = 0;
};

class WriteBuffer {
 public:
  // REQUIRES: segments >= 2, low_water < high_water <= 1, clean_segments >= 1.
  explicit WriteBuffer(const WriteBufferParams& params);

  // Appends a write of [disk_lbn, disk_lbn + blocks) to the log: the MEMS extents to write
  // (its slots, and the head of every segment it fills), or nothing, and no change, when
  // the free slots cannot hold it.
  std::optional<std::vector<Extent>> append(model::Lbn disk_lbn, std::int32_t blocks);
  // Whether a write of `blocks` at `disk_lbn` would fit in the free slots.
  bool fits(model::Lbn disk_lbn, std::int32_t blocks) const;
  // Forgets the log's copies of the fragments a write straight to the disk covers.
  void discard(model::Lbn disk_lbn, std::int32_t blocks);
  // Where each sector of a read of [disk_lbn, disk_lbn + blocks) is, in order: runs from
  // the log and runs from the disk.
  std::vector<ReadSource> resolve(model::Lbn disk_lbn, std::int32_t blocks) const;
  // Whether any sector of [disk_lbn, disk_lbn + blocks) is in the log.
  bool holds_any(model::Lbn disk_lbn, std::int32_t blocks) const;

  // Usage beyond the high water mark (cleaning starts), beyond the low one (it goes on).
  bool above_high() const { return usage() > p_.high_water; }
  bool above_low() const { return usage() > low_water(); }
  double low_water() const;
  double usage() const;
  // Same, for the array's cleaner: above the low mark while cleaning, else the high one.
  bool wants_cleaning(bool cleaning) const { return cleaning ? above_low() : above_high(); }

  // The segments the next cleaning pass takes: the oldest sealed ones, at most the clean
  // buffer's worth and no more than bring usage down to the low water mark (at least one).
  std::vector<std::int64_t> next_to_clean() const;
  // The oldest sealed segment, or nothing.
  std::optional<std::int64_t> take_oldest() const;
  // The MEMS extents that read `segments` (in log order), adjacent segments as one read.
  std::vector<Extent> read_extents(const std::vector<std::int64_t>& segments) const;
  Extent segment_extent(std::int64_t segment) const;
  // The disk extents of the live slots of `segments`, in disk order, adjacent ones combined
  // into one request (the clean buffer's "requests as large as possible").
  std::vector<Extent> live_runs(const std::vector<std::int64_t>& segments) const;
  std::vector<Extent> live_runs(std::int64_t segment) const {
    return live_runs(std::vector<std::int64_t>{segment});
  }
  // Forgets the segments' live fragments (the disk has them now) and frees the segments.
  void free_segments(const std::vector<std::int64_t>& segments);
  void free_segment(std::int64_t segment) { free_segments(std::vector<std::int64_t>{segment}); }

  std::int64_t used_segments() const { return used_; }
  std::int64_t live_slots(std::int64_t segment) const;
  const DataLookupTable& table() const { return table_; }

 private:
  // The in-memory segment head (§3, "Segment List"): which disk fragment each slot holds
  // (-1: free, padding, or superseded) and the segment's statistics.
  struct SegmentHead {
    std::vector<std::int64_t> slot_fragment;
    std::int32_t filled = 0;  // slots used so far
    std::int32_t live = 0;    // slots still holding a fragment's latest copy
    bool in_use = false;
  };
  model::Lbn slot_lbn(std::int64_t segment, std::int32_t slot) const {
    return segment * kSegmentBlocks + kHeadBlocks + slot * kSlotBlocks;
  }
  std::int64_t free_slots() const;
  void open_segment();
  void kill(model::Lbn slot);  // marks a superseded slot dead in its segment head

  WriteBufferParams p_;
  DataLookupTable table_;
  std::vector<SegmentHead> heads_;
  std::deque<std::int64_t> sealed_;  // the segment list in log order, oldest first
  std::int64_t current_ = -1;        // the segment being filled
  std::int64_t used_ = 0;
};

}  // namespace memstore::sim
