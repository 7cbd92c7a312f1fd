// SPDX-License-Identifier: Apache-2.0
// The array's NVRAM write cache; described in the header.
#include "sim/nvram_cache.h"

namespace memstore::sim {
namespace {

template <typename F>
void for_each_line(model::Lbn lbn, std::int32_t blocks, std::int32_t line_blocks, F f) {
  if (blocks <= 0) return;
  const std::int64_t first = lbn / line_blocks;
  const std::int64_t last = (lbn + blocks - 1) / line_blocks;
  for (std::int64_t line = first; line <= last; ++line) f(line);
}

}  // namespace

NvramCache::NvramCache(const NvramParams& p)
    : p_(p), capacity_lines_(p.capacity_blocks / p.line_blocks) {}

bool NvramCache::read_hit(model::Lbn lbn, std::int32_t blocks) {
  bool all = true;
  for_each_line(lbn, blocks, p_.line_blocks,
                [&](std::int64_t line) { all = all && entries_.count(line) > 0; });
  if (!all) return false;
  for_each_line(lbn, blocks, p_.line_blocks, [&](std::int64_t line) {
    Entry& e = entries_[line];
    if (!e.dirty) clean_lru_.splice(clean_lru_.begin(), clean_lru_, e.clean);
  });
  return true;
}

bool NvramCache::make_room() {
  if (clean_lru_.empty()) return false;
  entries_.erase(clean_lru_.back());
  clean_lru_.pop_back();
  return true;
}

void NvramCache::fill_clean(model::Lbn lbn, std::int32_t blocks) {
  for_each_line(lbn, blocks, p_.line_blocks, [&](std::int64_t line) {
    if (entries_.count(line) > 0) return;  // written meanwhile: that copy is newer
    if (lines() >= capacity_lines_ && !make_room()) return;
    Entry& e = entries_[line];
    clean_lru_.push_front(line);
    e.clean = clean_lru_.begin();
  });
}

std::int64_t NvramCache::new_lines(model::Lbn lbn, std::int32_t blocks) const {
  std::int64_t n = 0;
  for_each_line(lbn, blocks, p_.line_blocks, [&](std::int64_t line) {
    const auto it = entries_.find(line);
    if (it == entries_.end() || !it->second.dirty) ++n;
  });
  return n;
}

bool NvramCache::can_write(model::Lbn lbn, std::int32_t blocks) const {
  // Every line that becomes dirty needs a line that is not dirty: a free one or a clean one.
  return dirty_ + new_lines(lbn, blocks) <= capacity_lines_;
}

void NvramCache::write(model::Lbn lbn, std::int32_t blocks) {
  for_each_line(lbn, blocks, p_.line_blocks, [&](std::int64_t line) {
    auto it = entries_.find(line);
    if (it == entries_.end()) {
      if (lines() >= capacity_lines_) make_room();
      it = entries_.emplace(line, Entry{}).first;
    } else if (!it->second.dirty) {
      clean_lru_.erase(it->second.clean);
    } else {
      // §3: overwrites of dirty data fold into one destage.
      if (it->second.in_flight) it->second.rewritten = true;
      return;
    }
    it->second.dirty = true;
    ++dirty_;
    waiting_.insert(line);
  });
}

bool NvramCache::over_high_water() const {
  return static_cast<double>(dirty_) >= p_.high_water * static_cast<double>(capacity_lines_);
}

std::optional<DestageRun> NvramCache::take_run(bool take) {
  if (waiting_.empty()) return std::nullopt;
  auto it = waiting_.lower_bound(cursor_);
  if (it == waiting_.end()) it = waiting_.begin();
  DestageRun run{*it, 0};
  while (it != waiting_.end() && *it == run.first_line + run.lines &&
         run.lines < p_.max_destage_lines) {
    if (take) {
      entries_[*it].in_flight = true;
      it = waiting_.erase(it);
    } else {
      ++it;
    }
    ++run.lines;
  }
  if (take) cursor_ = run.first_line + run.lines;
  return run;
}

void NvramCache::mark_clean(std::int64_t line, Entry& e) {
  e.dirty = false;
  --dirty_;
  clean_lru_.push_front(line);
  e.clean = clean_lru_.begin();
}

void NvramCache::destaged(const DestageRun& run) {
  for (std::int64_t line = run.first_line; line < run.first_line + run.lines; ++line) {
    const auto it = entries_.find(line);
    if (it == entries_.end() || !it->second.in_flight) continue;
    Entry& e = it->second;
    e.in_flight = false;
    if (e.rewritten) {
      e.rewritten = false;
      waiting_.insert(line);  // still dirty: the newer data goes out with a later destage
    } else {
      mark_clean(line, e);
    }
  }
}

}  // namespace memstore::sim
