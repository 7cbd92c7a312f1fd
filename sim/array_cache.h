// SPDX-License-Identifier: Apache-2.0
// The bookkeeping of a MEMS cache in front of a disk array (issue 19; Uysal, Merchant and
// Alvarez, FAST 2003, the configuration with MEMS-based storage as a cache between the
// array controller and its disks). Which lines of the logical volume are cached, in which
// slot of the MEMStores, which are dirty, and which line to evict (least recently used).
// The timing is in sim/array.h.
//
// memsim's choices, which the paper does not fix here: fixed-size lines (`line_blocks`),
// fully associative, LRU, write-back (the MEMStore is non-volatile, so a write completes
// once it is on the MEMStore), write-allocate; an evicted dirty line is written to the disks.
#pragma once

#include <cstdint>
#include <list>
#include <optional>
#include <unordered_map>

namespace memstore::sim {

class LineCache {
 public:
  // REQUIRES: slots >= 1.
  explicit LineCache(std::int64_t slots);

  // The line's slot, or nothing; a hit makes the line the most recently used.
  std::optional<std::int64_t> touch(std::int64_t line);
  bool contains(std::int64_t line) const { return where_.count(line) > 0; }

  struct Inserted {
    std::int64_t slot = 0;
    std::optional<std::int64_t> evicted_dirty;  // a dirty line that made room: write it back
  };
  // Caches `line` (already cached: marks it used, and dirty if `dirty`), evicting the least
  // recently used line when every slot is taken.
  Inserted insert(std::int64_t line, bool dirty);

  std::int64_t size() const { return static_cast<std::int64_t>(where_.size()); }

 private:
  struct Entry {
    std::int64_t line = 0;
    std::int64_t slot = 0;
    bool dirty = false;
  };
  std::int64_t slots_;
  std::list<Entry> lru_;  // most recently used first
  std::unordered_map<std::int64_t, std::list<Entry>::iterator> where_;
};

}  // namespace memstore::sim
