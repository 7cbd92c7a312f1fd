// SPDX-License-Identifier: Apache-2.0
// Keeps the nodes of erased map entries for reuse, so that a node-based map
// (std::map, std::unordered_map) in a steady state -- as many insertions as
// erasures -- allocates nothing: the common READ/WRITE path of the target
// must not allocate per command. A spare node keeps its mapped value (and
// what that value owns: a task's buffers); insert() hands it back for the
// caller to reset and reuse.
#pragma once

#include <utility>
#include <vector>

namespace memstore::scsi {

template <typename Map>
class NodePool {
 public:
  using key_type = typename Map::key_type;
  using iterator = typename Map::iterator;

  // Inserts `key` into `map`, in a recycled node when there is one (its
  // mapped value is then the old one: the caller resets it), else in a new
  // node with a value-initialised mapped value. When the key is present
  // already, nothing changes and `second` is false.
  std::pair<iterator, bool> insert(Map& map, const key_type& key) {
    if (spare_.empty()) return map.try_emplace(key);
    if (auto it = map.find(key); it != map.end()) return {it, false};
    auto node = std::move(spare_.back());
    spare_.pop_back();
    node.key() = key;
    auto result = map.insert(std::move(node));
    return {result.position, result.inserted};
  }

  // Erases the entry at `it`, keeping its node for the next insert().
  iterator erase(Map& map, iterator it) {
    iterator next = std::next(it);
    spare_.push_back(map.extract(it));
    return next;
  }

 private:
  std::vector<typename Map::node_type> spare_;
};

}  // namespace memstore::scsi
