// SPDX-License-Identifier: Apache-2.0
// The segment cache of a zoned disk; described in the header.
#include "model/disk_cache.h"

#include <algorithm>

namespace memstore::model {

DiskCache::DiskCache(std::int32_t segments, std::int32_t segment_blocks)
    : segments_(static_cast<std::size_t>(std::max(segments, 0))), segment_blocks_(segment_blocks) {}

int DiskCache::containing(Lbn lbn) const {
  for (std::size_t i = 0; i < segments_.size(); ++i) {
    if (segments_[i].first <= lbn && lbn < segments_[i].end) return static_cast<int>(i);
  }
  return -1;
}

int DiskCache::holding(Lbn lbn, std::int32_t blocks) const {
  const int i = containing(lbn);
  if (i < 0 || segments_[static_cast<std::size_t>(i)].end < lbn + blocks) return -1;
  return i;
}

int DiskCache::claim(Ns now) {
  std::size_t victim = 0;
  for (std::size_t i = 1; i < segments_.size(); ++i) {
    // Never-used segments carry last_use_ns = -1 and so go first.
    if (segments_[i].last_use_ns < segments_[victim].last_use_ns) victim = i;
  }
  segments_[victim] = CacheSegment{0, 0, now};
  return static_cast<int>(victim);
}

void DiskCache::fill(int segment, Lbn first, Lbn end, Ns now) {
  CacheSegment& s = segments_[static_cast<std::size_t>(segment)];
  s.first = std::max(first, end - segment_blocks_);
  s.end = end;
  s.last_use_ns = now;
}

void DiskCache::invalidate(Lbn first, Lbn end, int keep) {
  for (std::size_t i = 0; i < segments_.size(); ++i) {
    if (static_cast<int>(i) == keep) continue;
    CacheSegment& s = segments_[i];
    if (s.end <= first || end <= s.first) continue;
    // What survives on either side of [first, end); keep the longer side.
    const Lbn below = std::max<Lbn>(0, first - s.first);
    const Lbn above = std::max<Lbn>(0, s.end - end);
    if (below >= above) {
      s.end = s.first + below;
    } else {
      s.first = s.end - above;
    }
  }
}

}  // namespace memstore::model
