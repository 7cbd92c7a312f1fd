// SPDX-License-Identifier: Apache-2.0
// Which cached write owns each block (volatile_cache.h): runs of blocks, not
// one entry per block, so that a 128 KB write costs a few map operations
// instead of 256 hash-table insertions (docs/benchmarks.md, "The volatile
// cache's cost").
//
// The runs never overlap; a block in no run is owned by nobody (it reads
// from the medium). Not thread-safe, like the cache.
#pragma once

#include <algorithm>
#include <cstdint>
#include <iterator>
#include <map>

namespace memstore::scsi {

class BlockOwners {
 public:
  bool empty() const { return runs_.empty(); }
  void clear() { runs_.clear(); }

  // Calls f(lba, blocks, owner) for each owned piece of [lba, lba + count),
  // clipped to it, in LBA order.
  template <class F>
  void for_each(std::uint64_t lba, std::uint64_t count, F&& f) const {
    const std::uint64_t end = lba + count;
    for (auto it = first_touching(lba); it != runs_.end() && it->first < end; ++it) {
      const std::uint64_t from = std::max(it->first, lba);
      const std::uint64_t to = std::min(it->second.end, end);
      f(from, to - from, it->second.owner);
    }
  }

  // Takes [lba, lba + count) from its owners, splitting runs at the edges;
  // calls lost(owner, blocks) for each piece taken.
  template <class F>
  void release(std::uint64_t lba, std::uint64_t count, F&& lost) {
    const std::uint64_t end = lba + count;
    auto it = first_touching(lba);
    while (it != runs_.end() && it->first < end) {
      const std::uint64_t start = it->first;
      const Run run = it->second;
      it = runs_.erase(it);
      const std::uint64_t from = std::max(start, lba);
      const std::uint64_t to = std::min(run.end, end);
      if (start < from) runs_.emplace_hint(it, start, Run{from, run.owner});
      if (to < run.end) it = runs_.emplace_hint(it, to, Run{run.end, run.owner});
      lost(run.owner, to - from);
    }
  }

  // REQUIRES: [lba, lba + count) released first.
  void assign(std::uint64_t lba, std::uint64_t count, std::uint64_t owner) {
    if (count > 0) runs_.emplace(lba, Run{lba + count, owner});
  }

  // Removes the runs `owner` has in [lba, lba + count): its own runs lie
  // inside the range it was assigned, so none is split.
  void drop(std::uint64_t lba, std::uint64_t count, std::uint64_t owner) {
    const std::uint64_t end = lba + count;
    for (auto it = runs_.lower_bound(lba); it != runs_.end() && it->first < end;) {
      it = it->second.owner == owner ? runs_.erase(it) : std::next(it);
    }
  }

 private:
  struct Run {
    std::uint64_t end = 0;  // one past the last block
    std::uint64_t owner = 0;
  };
  using Runs = std::map<std::uint64_t, Run>;  // by first block

  // The first run that ends after `lba`.
  Runs::const_iterator first_touching(std::uint64_t lba) const {
    auto it = runs_.upper_bound(lba);
    if (it != runs_.begin() && std::prev(it)->second.end > lba) --it;
    return it;
  }
  Runs::iterator first_touching(std::uint64_t lba) {
    auto it = runs_.upper_bound(lba);
    if (it != runs_.begin() && std::prev(it)->second.end > lba) --it;
    return it;
  }

  Runs runs_;
};

}  // namespace memstore::scsi
