// SPDX-License-Identifier: Apache-2.0
// MEMScache's log of cache lines; described in the header.
#include "sim/mems_cache_log.h"

namespace memstore::sim {

MemsCacheLog::MemsCacheLog(const MemsCacheLogParams& p)
    : p_(p), line_in_(static_cast<std::size_t>(p.slots), -1) {}

std::optional<std::int64_t> MemsCacheLog::slot_of(std::int64_t line) const {
  const auto it = slot_of_.find(line);
  if (it == slot_of_.end()) return std::nullopt;
  return it->second;
}

std::optional<std::int64_t> MemsCacheLog::append(std::int64_t line, bool dirty) {
  // The first slot from the head that holds no dirty line (the line itself excepted: its old
  // copy is superseded by this append).
  std::int64_t slot = -1;
  const auto own = dirty_of_.find(line);
  const bool rewrite_of_dirty = own != dirty_of_.end() && own->second;
  if (dirty_ >= p_.slots && !rewrite_of_dirty) return std::nullopt;  // every slot dirty
  for (std::int64_t i = 0; i < p_.slots; ++i) {
    const std::int64_t s = (head_ + i) % p_.slots;
    const std::int64_t held = line_in_[s];
    const auto held_dirty = held < 0 ? dirty_of_.end() : dirty_of_.find(held);
    if (held < 0 || held == line || held_dirty == dirty_of_.end() || !held_dirty->second) {
      slot = s;
      break;
    }
  }
  if (slot < 0) return std::nullopt;
  head_ = (slot + 1) % p_.slots;
  if (const std::int64_t evicted = line_in_[slot]; evicted >= 0 && evicted != line) {
    slot_of_.erase(evicted);  // a clean line reclaimed by the head
    dirty_of_.erase(evicted);
  }
  bool was_dirty = false;
  if (const auto old = slot_of_.find(line); old != slot_of_.end()) {
    line_in_[old->second] = -1;  // §3.5: the older location is marked empty
    was_dirty = dirty_of_[line];
  }
  line_in_[slot] = line;
  slot_of_[line] = slot;
  const bool now_dirty = dirty || was_dirty;
  dirty_of_[line] = now_dirty;
  if (now_dirty && !was_dirty) ++dirty_;
  if (dirty) {
    if (const auto f = in_flight_.find(line); f != in_flight_.end()) {
      f->second = true;
    } else {
      waiting_.insert(line);
    }
  }
  return slot;
}

bool MemsCacheLog::flushing() {
  const auto slots = static_cast<double>(p_.slots);
  if (static_cast<double>(dirty_) >= p_.high_water * slots) flushing_ = true;
  if (static_cast<double>(dirty_) < p_.low_water * slots) flushing_ = false;
  return flushing_;
}

std::optional<DestageRun> MemsCacheLog::next_flush() {
  if (waiting_.empty()) return std::nullopt;
  auto it = waiting_.lower_bound(cursor_);
  if (it == waiting_.end()) it = waiting_.begin();
  DestageRun run{*it, 0};
  while (it != waiting_.end() && *it == run.first_line + run.lines &&
         run.lines < p_.max_flush_lines) {
    in_flight_[*it] = false;
    it = waiting_.erase(it);
    ++run.lines;
  }
  cursor_ = run.first_line + run.lines;
  return run;
}

void MemsCacheLog::flushed(const DestageRun& run) {
  for (std::int64_t line = run.first_line; line < run.first_line + run.lines; ++line) {
    const auto f = in_flight_.find(line);
    if (f == in_flight_.end()) continue;
    const bool rewritten = f->second;
    in_flight_.erase(f);
    if (rewritten) {
      waiting_.insert(line);
      continue;
    }
    const auto d = dirty_of_.find(line);
    if (d != dirty_of_.end() && d->second) {
      d->second = false;
      --dirty_;
    }
  }
}

}  // namespace memstore::sim
