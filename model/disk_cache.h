// SPDX-License-Identifier: Apache-2.0
// The on-board cache of a zoned disk: segments, each holding one run of
// consecutive LBNs, replaced least recently used first. Bookkeeping only:
// when blocks arrive (read-ahead, media reads) and when dirty data reaches the
// media is the mechanism's business (disk_zoned.h).
//
// As in DiskSim's Atlas 10K ("Number of buffer segments", "Segment size"),
// a segment is given to a read miss and then filled by the media read and
// the read-ahead that follows it; written data also lands in a segment and
// stays readable there ("Allow read hits on write data = 1").
#pragma once

#include <cstdint>
#include <vector>

#include "model/geometry.h"
#include "model/request.h"

namespace memstore::model {

struct CacheSegment {
  Lbn first = 0;
  Lbn end = 0;  // cached: [first, end)
  Ns last_use_ns = -1;
  bool empty() const { return end <= first; }
};

class DiskCache {
 public:
  // segments = 0: no cache at all (every read goes to the media).
  DiskCache(std::int32_t segments, std::int32_t segment_blocks);

  bool enabled() const { return !segments_.empty(); }
  std::int32_t segment_blocks() const { return segment_blocks_; }
  std::size_t size() const { return segments_.size(); }
  const CacheSegment& segment(std::size_t i) const { return segments_[i]; }

  // The segment holding `lbn`, or -1.
  int containing(Lbn lbn) const;
  // The segment holding all of [lbn, lbn + blocks), or -1.
  int holding(Lbn lbn, std::int32_t blocks) const;

  // A segment for new data: the least recently used one (an empty one
  // first), emptied. REQUIRES: enabled().
  int claim(Ns now);
  // Sets a segment's range (at most segment_blocks long: a longer run keeps
  // its last segment_blocks) and marks it used at `now`.
  void fill(int segment, Lbn first, Lbn end, Ns now);
  // Forgets [first, end) in every segment but `keep`: newer data replaces
  // it. A segment keeps the longest part of its run that stays valid.
  void invalidate(Lbn first, Lbn end, int keep);

 private:
  std::vector<CacheSegment> segments_;
  std::int32_t segment_blocks_;
};

}  // namespace memstore::model
