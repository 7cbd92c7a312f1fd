// The log-structured MEMS write buffer's bookkeeping; described in the header.
#include "sim/write_buffer.h"

#include <algorithm>

namespace memstore::sim {

WriteBuffer::WriteBuffer(const WriteBufferParams& params)
    : p_(params),
      contents_(static_cast<std::size_t>(params.segments)),
      in_use_(static_cast<std::size_t>(params.segments), false) {}

bool WriteBuffer::open_segment() {
  for (std::int64_t i = 0; i < p_.segments; ++i) {
    const std::int64_t s = (next_free_ + i) % p_.segments;
    if (in_use_[static_cast<std::size_t>(s)]) continue;
    if (head_segment_ >= 0) filled_.push_back(head_segment_);
    in_use_[static_cast<std::size_t>(s)] = true;
    contents_[static_cast<std::size_t>(s)].clear();
    head_segment_ = s;
    head_fill_ = p_.head_blocks;
    next_free_ = (s + 1) % p_.segments;
    ++used_;
    return true;
  }
  return false;
}

std::optional<std::vector<Extent>> WriteBuffer::append(model::Lbn disk_lbn, std::int32_t blocks) {
  // Whole slots: the write's blocks, rounded up.
  const std::int32_t slots = (blocks + p_.slot_blocks - 1) / p_.slot_blocks;
  const std::int32_t need = slots * p_.slot_blocks;
  // Check for room first, so that a write that does not fit changes nothing.
  const std::int32_t per_segment = (p_.segment_blocks - p_.head_blocks) / p_.slot_blocks;
  const std::int32_t left_here =
      head_segment_ < 0 ? 0 : (p_.segment_blocks - head_fill_) / p_.slot_blocks;
  const std::int64_t new_segments =
      slots <= left_here ? 0 : (slots - left_here + per_segment - 1) / per_segment;
  if (used_ + new_segments > p_.segments) return std::nullopt;

  std::vector<Extent> out;
  std::int32_t written = 0;  // data blocks placed so far (padding included)
  while (written < need) {
    if (head_segment_ < 0 || head_fill_ + p_.slot_blocks > p_.segment_blocks) {
      open_segment();
      out.push_back({segment_extent(head_segment_).lbn, 0});  // the new segment's head
      out.back().blocks = p_.head_blocks;
    }
    const std::int32_t room = (p_.segment_blocks - head_fill_) / p_.slot_blocks * p_.slot_blocks;
    const std::int32_t take = std::min(room, need - written);
    const model::Lbn mems = segment_extent(head_segment_).lbn + head_fill_;
    if (!out.empty() && out.back().lbn + out.back().blocks == mems) {
      out.back().blocks += take;
    } else {
      out.push_back({mems, take});
    }
    for (std::int32_t i = 0; i < take && written + i < blocks; ++i) {
      const model::Lbn b = disk_lbn + written + i;
      where_[b] = {head_segment_, mems + i};
      contents_[static_cast<std::size_t>(head_segment_)].push_back(b);
    }
    head_fill_ += take;
    written += take;
  }
  return out;
}

std::optional<std::vector<Extent>> WriteBuffer::lookup(model::Lbn disk_lbn,
                                                       std::int32_t blocks) const {
  std::vector<Extent> out;
  for (std::int32_t i = 0; i < blocks; ++i) {
    auto it = where_.find(disk_lbn + i);
    if (it == where_.end()) return std::nullopt;
    const model::Lbn m = it->second.mems_lbn;
    if (!out.empty() && out.back().lbn + out.back().blocks == m) {
      ++out.back().blocks;
    } else {
      out.push_back({m, 1});
    }
  }
  return out;
}

bool WriteBuffer::wants_cleaning(bool cleaning) const {
  const double share = static_cast<double>(used_) / static_cast<double>(p_.segments);
  return share > (cleaning ? p_.low_water : p_.high_water) && !filled_.empty();
}

std::optional<std::int64_t> WriteBuffer::take_oldest() {
  if (filled_.empty()) return std::nullopt;
  const std::int64_t s = filled_.front();
  filled_.pop_front();
  return s;
}

Extent WriteBuffer::segment_extent(std::int64_t segment) const {
  return {segment * p_.segment_blocks, p_.segment_blocks};
}

std::vector<Extent> WriteBuffer::live_runs(std::int64_t segment) const {
  std::vector<model::Lbn> live;
  for (model::Lbn b : contents_[static_cast<std::size_t>(segment)]) {
    auto it = where_.find(b);
    if (it != where_.end() && it->second.segment == segment) live.push_back(b);
  }
  std::sort(live.begin(), live.end());
  live.erase(std::unique(live.begin(), live.end()), live.end());
  std::vector<Extent> runs;
  for (model::Lbn b : live) {
    if (!runs.empty() && runs.back().lbn + runs.back().blocks == b) {
      ++runs.back().blocks;
    } else {
      runs.push_back({b, 1});
    }
  }
  return runs;
}

void WriteBuffer::free_segment(std::int64_t segment) {
  for (model::Lbn b : contents_[static_cast<std::size_t>(segment)]) {
    auto it = where_.find(b);
    if (it != where_.end() && it->second.segment == segment) where_.erase(it);
  }
  contents_[static_cast<std::size_t>(segment)].clear();
  in_use_[static_cast<std::size_t>(segment)] = false;
  --used_;
}

}  // namespace memstore::sim
