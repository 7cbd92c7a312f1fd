// The log-structured MEMS write buffer of Wang and Brandt (issue 19): a MEMStore in front of a
// disk takes every write into a log, and a cleaner moves the data on to the disk. This file is
// the bookkeeping only (which disk blocks sit where in the log, which segments to clean); the
// timing of the two devices is in sim/hybrid.h.
//
// The log, as the issue summarises the paper: 128 KB segments, each starting with a 1 KB
// segment head, then 1 KB slots; a write takes whole slots. Segments are filled in order and
// cleaned oldest first once the used segments pass the high water mark, until they are back
// at the low water mark. Cleaning a segment reads it from the MEMStore and writes its live
// blocks (those not overwritten since) to the disk; then the segment is free again.
//
// Choices the summary leaves open, here: the log occupies the MEMStore's first
// `segments` segments; a write that finds no free segment bypasses the buffer and goes to
// the disk; a read is served from the buffer only when every block of it is there.
#pragma once

#include <cstdint>
#include <deque>
#include <optional>
#include <unordered_map>
#include <vector>

#include "model/request.h"

namespace memstore::sim {

struct WriteBufferParams {
  std::int32_t segment_blocks = 256;  // 128 KB of 512-byte blocks
  std::int32_t head_blocks = 2;       // the 1 KB segment head
  std::int32_t slot_blocks = 2;       // 1 KB slots
  std::int64_t segments = 256;        // 32 MB of log by default (memsim's choice)
  double high_water = 0.8;            // start cleaning above this share of segments used
  double low_water = 0.5;             // ... and stop at this one (memsim's choices)
};

// A run of consecutive blocks: on the MEMStore (lbn = MEMS LBN) or on the disk.
struct Extent {
  model::Lbn lbn = 0;
  std::int32_t blocks = 0;
};

class WriteBuffer {
 public:
  // REQUIRES: segment_blocks > head_blocks + slot_blocks, slot_blocks >= 1, segments >= 2,
  // 0 <= low_water < high_water <= 1.
  explicit WriteBuffer(const WriteBufferParams& params);

  // Logs a write of [disk_lbn, disk_lbn + blocks): the MEMS extents to write (the slots, and
  // the head of every segment the write opens), or nothing when no segment is free.
  std::optional<std::vector<Extent>> append(model::Lbn disk_lbn, std::int32_t blocks);
  // Where a read of [disk_lbn, disk_lbn + blocks) lies in the log, as MEMS extents, when
  // every block is there; otherwise nothing.
  std::optional<std::vector<Extent>> lookup(model::Lbn disk_lbn, std::int32_t blocks) const;

  // Whether the cleaner should take another segment: above the high water mark, or still
  // above the low one while cleaning.
  bool wants_cleaning(bool cleaning) const;
  // The oldest filled segment, to clean next, or nothing. It stays in use until freed.
  std::optional<std::int64_t> take_oldest();
  // The MEMS extent of a whole segment.
  Extent segment_extent(std::int64_t segment) const;
  // The disk extents of the segment's live blocks, in disk order, consecutive blocks merged.
  std::vector<Extent> live_runs(std::int64_t segment) const;
  // Forgets the segment's live blocks (their latest copy is on the disk now) and frees it.
  void free_segment(std::int64_t segment);

  std::int64_t used_segments() const { return used_; }
  std::int64_t blocks_buffered() const { return static_cast<std::int64_t>(where_.size()); }

 private:
  struct Place {
    std::int64_t segment = 0;
    model::Lbn mems_lbn = 0;
  };
  // Opens the next free segment as the log head; false when none is free.
  bool open_segment();

  WriteBufferParams p_;
  std::unordered_map<model::Lbn, Place> where_;    // disk block -> its latest copy
  std::vector<std::vector<model::Lbn>> contents_;  // segment -> disk blocks written there
  std::vector<bool> in_use_;
  std::deque<std::int64_t> filled_;  // sealed segments, oldest first
  std::int64_t head_segment_ = -1;   // the segment being filled
  std::int32_t head_fill_ = 0;       // blocks used in it, head included
  std::int64_t next_free_ = 0;       // where to look for a free segment
  std::int64_t used_ = 0;
};

}  // namespace memstore::sim
