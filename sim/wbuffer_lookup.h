// SPDX-License-Identifier: Apache-2.0
// The write buffer's data lookup table (Wang and Brandt, "Using MEMS Device as Disk Write
// Buffer", §3, "Data Lookup Table" and its Fig. 3): where the latest copy of each piece of
// disk data sits in the MEMS log.
//
// The paper keys the table by 8 KB-aligned disk blocks, not by request LBN, so that
// overlapping requests of different sizes find each other: a request's LBN is rounded down
// to its 8 KB block, and every block it touches is looked up. Requests are at least 1 KB
// aligned, so an entry either holds the whole 8 KB block in eight consecutive 1 KB slots
// (its fragment entry point is NULL) or points to fragment entries, one per 1 KB of the
// block, each in the log or not; a fragment not in the log is on the disk. A block can
// thus be served partly from the MEMS log and partly from the disk.
//
// memsim's choices where the paper leaves them open: the hash table with chained buckets is
// std::unordered_map (its buckets are singly linked lists, not the paper's doubly linked
// ones; only the lookup matters here); the fragment entries are one array of eight slot
// addresses allocated only for fragmented blocks, which keeps the paper's concern, memory,
// as small as a whole-block entry when a block is written whole.
#pragma once

#include <array>
#include <cstddef>
#include <cstdint>
#include <memory>
#include <optional>
#include <unordered_map>

#include "model/request.h"

namespace memstore::sim {

// 512-byte sectors per 1 KB fragment (one log slot) and per 8 KB block (one table entry).
inline constexpr std::int32_t kFragmentBlocks = 2;
inline constexpr std::int32_t kFragmentsPerBlock = 8;
inline constexpr std::int32_t kTableBlockBlocks = kFragmentBlocks * kFragmentsPerBlock;

class DataLookupTable {
 public:
  // The MEMS LBN of the slot holding disk fragment `fragment` (disk LBN / kFragmentBlocks),
  // or nothing when the fragment's latest copy is on the disk.
  std::optional<model::Lbn> find(std::int64_t fragment) const;
  // Records that the fragment's latest copy is now in the slot at `slot_lbn`; returns the
  // slot of the copy it supersedes, if there was one in the log.
  std::optional<model::Lbn> set(std::int64_t fragment, model::Lbn slot_lbn);
  // Forgets the fragment (its latest copy is on the disk now); returns its slot, if any.
  std::optional<model::Lbn> erase(std::int64_t fragment);

  // Entries (8 KB blocks with anything in the log), and those of them that are fragmented.
  std::size_t entries() const { return table_.size(); }
  std::size_t fragmented_entries() const;

 private:
  static constexpr model::Lbn kNone = -1;
  struct Entry {
    // The first slot of the block when all eight fragments lie in consecutive slots.
    model::Lbn whole = kNone;
    // Otherwise (NULL for a whole block), each fragment's slot or kNone (on the disk).
    std::unique_ptr<std::array<model::Lbn, kFragmentsPerBlock>> fragments;
    model::Lbn slot(int i) const;
  };
  // Turns a whole-block entry into fragments, or fragments that became consecutive back
  // into a whole one.
  static void split(Entry& e);
  static void join(Entry& e);

  std::unordered_map<std::int64_t, Entry> table_;  // key: disk LBN / kTableBlockBlocks
};

}  // namespace memstore::sim
