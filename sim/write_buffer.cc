// SPDX-License-Identifier: Apache-2.0
// The MEMS write buffer's log and cache management; described in the header.
#include "sim/write_buffer.h"

#include <algorithm>
#include <cmath>

namespace memstore::sim {
namespace {

// The 1 KB fragments a request touches, widened to 1 KB boundaries: [first, end).
std::int64_t first_fragment(model::Lbn lbn) {
  return lbn / kFragmentBlocks;
}
std::int64_t end_fragment(model::Lbn lbn, std::int32_t blocks) {
  return (lbn + blocks + kFragmentBlocks - 1) / kFragmentBlocks;
}

void add_run(std::vector<Extent>& runs, model::Lbn lbn, std::int32_t blocks) {
  if (!runs.empty() && runs.back().lbn + runs.back().blocks == lbn) {
    runs.back().blocks += blocks;
  } else {
    runs.push_back({lbn, blocks});
  }
}

}  // namespace

WriteBuffer::WriteBuffer(const WriteBufferParams& params)
    : p_(params), heads_(static_cast<std::size_t>(params.segments)) {}

double WriteBuffer::usage() const {
  return static_cast<double>(used_) / static_cast<double>(p_.segments);
}

double WriteBuffer::low_water() const {
  if (p_.low_water >= 0) return p_.low_water;
  return p_.high_water - static_cast<double>(p_.clean_segments) / static_cast<double>(p_.segments);
}

std::int64_t WriteBuffer::free_slots() const {
  const std::int64_t in_current =
      current_ < 0 ? 0 : kSlotsPerSegment - heads_[static_cast<std::size_t>(current_)].filled;
  return in_current + (p_.segments - used_) * kSlotsPerSegment;
}

bool WriteBuffer::fits(model::Lbn disk_lbn, std::int32_t blocks) const {
  return end_fragment(disk_lbn, blocks) - first_fragment(disk_lbn) <= free_slots();
}

void WriteBuffer::open_segment() {
  // The log is a circle: the next free segment after the last one opened.
  const std::int64_t last = current_ >= 0 ? current_ : (sealed_.empty() ? -1 : sealed_.back());
  for (std::int64_t i = 1; i <= p_.segments; ++i) {
    const std::int64_t s = (last + i + p_.segments) % p_.segments;
    SegmentHead& h = heads_[static_cast<std::size_t>(s)];
    if (h.in_use) continue;
    h.in_use = true;
    h.filled = 0;
    h.live = 0;
    h.slot_fragment.assign(static_cast<std::size_t>(kSlotsPerSegment), -1);
    current_ = s;
    ++used_;
    return;
  }
}

void WriteBuffer::kill(model::Lbn slot) {
  const std::int64_t s = slot / kSegmentBlocks;
  const auto i = static_cast<std::size_t>((slot % kSegmentBlocks - kHeadBlocks) / kSlotBlocks);
  SegmentHead& h = heads_[static_cast<std::size_t>(s)];
  h.slot_fragment[i] = -1;
  --h.live;
}

std::optional<std::vector<Extent>> WriteBuffer::append(model::Lbn disk_lbn, std::int32_t blocks) {
  if (!fits(disk_lbn, blocks)) return std::nullopt;
  std::vector<Extent> out;
  const std::int64_t end = end_fragment(disk_lbn, blocks);
  for (std::int64_t f = first_fragment(disk_lbn); f < end; ++f) {
    if (current_ < 0) open_segment();
    SegmentHead& h = heads_[static_cast<std::size_t>(current_)];
    const std::int32_t slot = h.filled++;
    const model::Lbn at = slot_lbn(current_, slot);
    // A newer write supersedes the fragment's older copy (§3, Data Lookup Table).
    if (const auto old = table_.set(f, at)) kill(*old);
    h.slot_fragment[static_cast<std::size_t>(slot)] = f;
    ++h.live;
    add_run(out, at, kSlotBlocks);
    if (h.filled == kSlotsPerSegment) {
      // The whole segment is written: now its head goes to the MEMStore (§3, Segment List).
      add_run(out, current_ * kSegmentBlocks, kHeadBlocks);
      sealed_.push_back(current_);
      current_ = -1;
    }
  }
  return out;
}

void WriteBuffer::discard(model::Lbn disk_lbn, std::int32_t blocks) {
  const std::int64_t end = end_fragment(disk_lbn, blocks);
  for (std::int64_t f = first_fragment(disk_lbn); f < end; ++f) {
    if (const auto old = table_.erase(f)) kill(*old);
  }
}

std::vector<ReadSource> WriteBuffer::resolve(model::Lbn disk_lbn, std::int32_t blocks) const {
  std::vector<ReadSource> out;
  for (model::Lbn b = disk_lbn; b < disk_lbn + blocks; ++b) {
    const auto slot = table_.find(b / kFragmentBlocks);
    const bool in = slot.has_value();
    const model::Lbn at = in ? *slot + b % kFragmentBlocks : b;
    if (!out.empty() && out.back().in_buffer == in && out.back().lbn + out.back().blocks == at) {
      ++out.back().blocks;
    } else {
      out.push_back({in, at, 1});
    }
  }
  return out;
}

bool WriteBuffer::holds_any(model::Lbn disk_lbn, std::int32_t blocks) const {
  const std::int64_t end = end_fragment(disk_lbn, blocks);
  for (std::int64_t f = first_fragment(disk_lbn); f < end; ++f) {
    if (table_.find(f)) return true;
  }
  return false;
}

std::vector<std::int64_t> WriteBuffer::next_to_clean() const {
  const auto low =
      static_cast<std::int64_t>(std::floor(low_water() * static_cast<double>(p_.segments)));
  const std::int64_t want =
      std::clamp<std::int64_t>(used_ - low, 1, static_cast<std::int64_t>(p_.clean_segments));
  const auto n = std::min<std::size_t>(static_cast<std::size_t>(want), sealed_.size());
  return {sealed_.begin(), sealed_.begin() + static_cast<std::ptrdiff_t>(n)};
}

std::optional<std::int64_t> WriteBuffer::take_oldest() const {
  if (sealed_.empty()) return std::nullopt;
  return sealed_.front();
}

Extent WriteBuffer::segment_extent(std::int64_t segment) const {
  return {segment * kSegmentBlocks, kSegmentBlocks};
}

std::vector<Extent> WriteBuffer::read_extents(const std::vector<std::int64_t>& segments) const {
  std::vector<Extent> out;
  for (std::int64_t s : segments) add_run(out, s * kSegmentBlocks, kSegmentBlocks);
  return out;
}

std::vector<Extent> WriteBuffer::live_runs(const std::vector<std::int64_t>& segments) const {
  std::vector<std::int64_t> live;
  for (std::int64_t s : segments) {
    for (std::int64_t f : heads_[static_cast<std::size_t>(s)].slot_fragment) {
      if (f >= 0) live.push_back(f);
    }
  }
  std::sort(live.begin(), live.end());
  std::vector<Extent> runs;
  for (std::int64_t f : live) add_run(runs, f * kFragmentBlocks, kFragmentBlocks);
  return runs;
}

void WriteBuffer::free_segments(const std::vector<std::int64_t>& segments) {
  for (std::int64_t s : segments) {
    SegmentHead& h = heads_[static_cast<std::size_t>(s)];
    for (std::int32_t i = 0; i < h.filled; ++i) {
      const std::int64_t f = h.slot_fragment[static_cast<std::size_t>(i)];
      if (f >= 0) table_.erase(f);
    }
    h = SegmentHead{};
    if (s == current_) current_ = -1;
    sealed_.erase(std::remove(sealed_.begin(), sealed_.end(), s), sealed_.end());
    --used_;
  }
}

std::int64_t WriteBuffer::live_slots(std::int64_t segment) const {
  return heads_[static_cast<std::size_t>(segment)].live;
}

}  // namespace memstore::sim
