// SPDX-License-Identifier: Apache-2.0
// The vertically partitioned page layout the thesis sets beside capsules
// (§6.3.7, "Relational database tables": "an alternative page layout
// vertically partitions data to pages with a fixed number of records of a
// single attribute [Copeland and Khoshafian 1985]"). Each attribute has its
// own run of 8 KB pages; a page holds a header and as many values of that
// one attribute as fit. A scan of some attributes reads only their pages;
// a whole record is one page in every attribute's run: n places, "record
// updates or appends require writes to n different locations".
//
// Choices (the thesis names the layout but not its format):
// - the page header is the normal layout's (PageFormat: 64 bytes, the first
//   8 the page's number in this layout, little-endian), then values back to
//   back, then zero padding;
// - a value's record is its position (page × values per page + slot): no
//   stored record identifiers, as "a fixed number of records" allows;
// - the attributes' runs follow one another, a1 first, from the first LBN.
#pragma once

#include "apps/normal_layout.h"
#include "apps/table.h"
#include "host/result.h"

namespace memstore::apps {

class VerticalLayout final : public TableLayout {
 public:
  // kInvalidArgument when the page is not whole blocks, holds no value of
  // some attribute, or the table does not fit between `first_lbn` and
  // `device_blocks`.
  static host::Result<VerticalLayout> create(const TableSchema& schema, const PageFormat& format,
                                             std::uint32_t block_bytes, Lbn first_lbn,
                                             std::uint64_t device_blocks);

  std::string name() const override { return "vertical"; }
  Lbn first_lbn() const override { return first_; }
  Lbn end_lbn() const override { return first_ + data_blocks(); }
  std::uint64_t data_blocks() const override { return page_start_.back() * blocks_per_page_; }
  std::vector<Lbn> blocks_for(std::uint64_t first, std::uint64_t count,
                              AttributeMask attrs) const override;
  void block_image(Lbn lbn, std::span<std::uint8_t> out) const override;

  // Values of attribute `a` per page, and the pages of its run.
  std::uint64_t values_per_page(std::size_t a) const { return per_page_[a]; }
  std::uint64_t pages(std::size_t a) const { return page_start_[a + 1] - page_start_[a]; }
  std::uint64_t pages() const { return page_start_.back(); }

 private:
  VerticalLayout(const TableSchema& s, const PageFormat& f, std::uint32_t block_bytes, Lbn first);
  TableSchema schema_;
  PageFormat format_;
  std::uint32_t block_bytes_;
  Lbn first_;
  std::uint64_t blocks_per_page_;
  std::vector<std::uint64_t> per_page_;    // values per page, per attribute
  std::vector<std::uint64_t> page_start_;  // first page of attribute a's run; back() = all pages
};

}  // namespace memstore::apps
