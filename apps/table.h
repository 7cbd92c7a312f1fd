// SPDX-License-Identifier: Apache-2.0
// A relational table for the 2D-access experiment (thesis §6.3.7): R
// records of n fixed-size attributes a1..an, and the two ways of placing it
// on the device's LBNs behind one interface (TableLayout): row-major 8 KB
// pages (NormalLayout) and capsules on equivalence classes (CapsuleLayout).
//
// Every byte of the table has a known value (value_byte), so a loaded table
// can be checked block by block after any query.
#pragma once

#include <cstdint>
#include <span>
#include <string>
#include <vector>

#include "apps/block_device.h"

namespace memstore::apps {

struct TableSchema {
  std::vector<std::uint32_t> attribute_bytes;  // a1, a2, ... in bytes
  std::uint64_t records = 0;
  std::uint32_t record_bytes() const;
  std::size_t attributes() const { return attribute_bytes.size(); }
  // Byte offset of attribute `a` within a row-major record.
  std::uint32_t attribute_offset(std::size_t a) const;
};

// A set of attributes, bit a = attribute a (a1 is bit 0).
using AttributeMask = std::uint64_t;
inline constexpr std::size_t kMaxAttributes = 64;
inline AttributeMask all_attributes(const TableSchema& s) {
  return s.attributes() >= 64 ? ~AttributeMask{0} : (AttributeMask{1} << s.attributes()) - 1;
}

// The value of byte `k` of attribute `a` of record `r`: a mix of the three,
// so a block read from the wrong place or a record shifted by one shows.
std::uint8_t value_byte(std::uint64_t r, std::size_t a, std::uint32_t k);

class TableLayout {
 public:
  virtual ~TableLayout() = default;
  virtual std::string name() const = 0;
  // The region the layout owns: [first_lbn, end_lbn), holes included.
  virtual Lbn first_lbn() const = 0;
  virtual Lbn end_lbn() const = 0;
  // Blocks that hold table data (end - first minus holes).
  virtual std::uint64_t data_blocks() const = 0;
  // The blocks a query for attributes `attrs` of records [first, first +
  // count) must read, ascending and distinct. REQUIRES: the records exist.
  virtual std::vector<Lbn> blocks_for(std::uint64_t first, std::uint64_t count,
                                      AttributeMask attrs) const = 0;
  // The expected content of block `lbn` of the region (zeros in holes and
  // padding). REQUIRES: first_lbn() <= lbn < end_lbn(); out.size() = block size.
  virtual void block_image(Lbn lbn, std::span<std::uint8_t> out) const = 0;
};

}  // namespace memstore::apps
