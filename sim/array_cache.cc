// SPDX-License-Identifier: Apache-2.0
// LRU bookkeeping of the MEMS cache; described in the header.
#include "sim/array_cache.h"

namespace memstore::sim {

LineCache::LineCache(std::int64_t slots) : slots_(slots) {}

std::optional<std::int64_t> LineCache::touch(std::int64_t line) {
  auto it = where_.find(line);
  if (it == where_.end()) return std::nullopt;
  lru_.splice(lru_.begin(), lru_, it->second);
  return it->second->slot;
}

LineCache::Inserted LineCache::insert(std::int64_t line, bool dirty) {
  Inserted out;
  if (auto it = where_.find(line); it != where_.end()) {
    lru_.splice(lru_.begin(), lru_, it->second);
    it->second->dirty = it->second->dirty || dirty;
    out.slot = it->second->slot;
    return out;
  }
  std::int64_t slot = static_cast<std::int64_t>(where_.size());
  if (slot >= slots_) {
    const Entry victim = lru_.back();
    lru_.pop_back();
    where_.erase(victim.line);
    slot = victim.slot;
    if (victim.dirty) out.evicted_dirty = victim.line;
  }
  lru_.push_front({line, slot, dirty});
  where_[line] = lru_.begin();
  out.slot = slot;
  return out;
}

}  // namespace memstore::sim
