// SPDX-License-Identifier: Apache-2.0
// Capsule-based layout of a 2D table (thesis §6.3.7, Figs. 6.13 and 6.14).
//
// A capsule holds K whole records: attribute a of the K records fills b_a
// whole blocks, so a capsule is c = Σ b_a blocks. Its blocks lie in one
// equivalence class (get_equivalent with M = 0), at offsets that are
// multiples of p from the capsule's own position in the class: block k of
// a capsule whose first block is E[i] is E[i + k·p], i.e. the same column
// of the k-th track after it, within the same cylinder. So
//  - a whole capsule (all attributes of K records) is one parallel access
//    (c <= p blocks, one per square);
//  - the first blocks of consecutive capsules are consecutive LBNs of one
//    track, and so are the blocks of any attribute: scanning one attribute
//    reads whole tracks, p blocks per media step, at full bandwidth.
// Fig. 6.14 (a1 8 bytes, a2 16 bytes, G2): K = 64, c = 3; a1 of capsules
// 0-269 fills LBNs 0-269 and a2 fills 270-539 and 540-809.
//
// Allocation (CapsuleAlloc): capsules take the LBNs of a track one after
// the other; at the end of the track (get_ensemble) the next capsule starts
// c tracks further on, past the tracks this row of capsules occupies; a
// cylinder holds ⌊Ny / c⌋ such groups of c tracks. Every capsule stays in
// one equivalence class, so the Ny mod c tracks left in each cylinder are
// not used (the thesis' alternative splits capsules across two classes).
#pragma once

#include <optional>

#include "apps/table.h"
#include "host/geometry.h"
#include "host/result.h"

namespace memstore::apps {

// CapsuleResolve's answer: how many records a capsule holds and where each
// attribute's blocks lie within it.
struct CapsuleShape {
  std::uint64_t records = 0;                    // K
  std::vector<std::uint32_t> attribute_blocks;  // b_a
  std::vector<std::uint32_t> attribute_offset;  // first capsule block of attribute a
  std::uint32_t blocks = 0;                     // c
};

// CapsuleResolve: K = `records_per_capsule`, or (0) as many records as
// fill one block with the smallest attribute, ⌊block / smallest⌋ (the rule
// of Fig. 6.14, where 8- and 16-byte attributes give 64 records in 1 + 2
// blocks); each attribute takes ⌈K·size / block⌉ whole blocks, padded where
// its size does not divide the block (the thesis' 15-byte attribute: 64
// values in 960 of 1024 bytes). kInvalidArgument when a capsule
// would not be one parallel access (c > p) or not fit a cylinder's tracks
// (c > Ny), naming the sizes.
host::Result<CapsuleShape> capsule_resolve(const TableSchema& schema, std::uint32_t block_bytes,
                                           const host::HostGeometry& g,
                                           std::uint64_t records_per_capsule = 0);

class CapsuleLayout final : public TableLayout {
 public:
  // Allocates capsules for every record from the first cylinder boundary at
  // or after `first_lbn`. kInvalidArgument when the table does not fit.
  static host::Result<CapsuleLayout> create(const TableSchema& schema, const host::HostGeometry& g,
                                            std::uint32_t block_bytes, Lbn first_lbn,
                                            std::uint64_t records_per_capsule = 0);

  std::string name() const override { return "capsule"; }
  Lbn first_lbn() const override { return first_; }
  Lbn end_lbn() const override { return end_; }
  std::uint64_t data_blocks() const override { return anchors_.size() * shape_.blocks; }
  std::vector<Lbn> blocks_for(std::uint64_t first, std::uint64_t count,
                              AttributeMask attrs) const override;
  void block_image(Lbn lbn, std::span<std::uint8_t> out) const override;

  const CapsuleShape& shape() const { return shape_; }
  std::uint64_t capsules() const { return anchors_.size(); }
  // The capsule's starting LBN: all the database keeps per capsule.
  Lbn capsule_lbn(std::uint64_t q) const { return anchors_[q]; }
  // Its c blocks, block k = E[i + k·p] (get_equivalent).
  std::vector<Lbn> capsule_blocks(std::uint64_t q) const;
  // Which capsule and which of its blocks `lbn` is; nullopt for a hole.
  struct Place {
    std::uint64_t capsule = 0;
    std::uint32_t block = 0;
  };
  std::optional<Place> place_of(Lbn lbn) const;
  // CapsuleAlloc: the starting LBN of the capsule after the one at `last`.
  Lbn capsule_alloc(Lbn last) const;

 private:
  CapsuleLayout(const TableSchema& s, const host::HostGeometry& g, CapsuleShape shape,
                std::uint32_t block_bytes, Lbn first)
      : schema_(s), g_(g), shape_(std::move(shape)), block_bytes_(block_bytes), first_(first) {}
  TableSchema schema_;
  host::HostGeometry g_;
  CapsuleShape shape_;
  std::uint32_t block_bytes_;
  Lbn first_;
  Lbn end_ = 0;
  std::vector<Lbn> anchors_;  // capsule q's starting LBN, ascending
};

}  // namespace memstore::apps
