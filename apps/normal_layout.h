// SPDX-License-Identifier: Apache-2.0
// The page layout of commercial database systems (thesis §6.3.7, "Relational
// database tables"): row-major pages of 8 KB, each a small header followed
// by as many whole records (all n attributes) as fit; pages one after the
// other from the first LBN. A scan of any subset of attributes reads every
// page of its records.
//
// Page format (our choice; the thesis only says "some page metadata"):
// the first (up to) 8 header bytes hold the page number (little-endian), the
// rest of the header is zero; then records back to back, each a1..an, then
// zero padding.
#pragma once

#include "apps/table.h"
#include "host/result.h"

namespace memstore::apps {

struct PageFormat {
  std::uint32_t page_bytes = 8192;
  std::uint32_t header_bytes = 64;
};

class NormalLayout final : public TableLayout {
 public:
  // kInvalidArgument when the page is not whole blocks, holds no record, or
  // the table does not fit between `first_lbn` and `device_blocks`.
  static host::Result<NormalLayout> create(const TableSchema& schema, const PageFormat& format,
                                           std::uint32_t block_bytes, Lbn first_lbn,
                                           std::uint64_t device_blocks);

  std::string name() const override { return "normal"; }
  Lbn first_lbn() const override { return first_; }
  Lbn end_lbn() const override { return first_ + pages_ * blocks_per_page_; }
  std::uint64_t data_blocks() const override { return pages_ * blocks_per_page_; }
  std::vector<Lbn> blocks_for(std::uint64_t first, std::uint64_t count,
                              AttributeMask attrs) const override;
  void block_image(Lbn lbn, std::span<std::uint8_t> out) const override;

  std::uint64_t records_per_page() const { return records_per_page_; }
  std::uint64_t pages() const { return pages_; }

 private:
  NormalLayout(const TableSchema& s, const PageFormat& f, std::uint32_t block_bytes, Lbn first);
  TableSchema schema_;
  PageFormat format_;
  std::uint32_t block_bytes_;
  Lbn first_;
  std::uint64_t blocks_per_page_, records_per_page_, pages_;
};

}  // namespace memstore::apps
