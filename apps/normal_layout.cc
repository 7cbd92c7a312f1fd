// SPDX-License-Identifier: Apache-2.0
#include "apps/normal_layout.h"

#include <algorithm>

namespace memstore::apps {

NormalLayout::NormalLayout(const TableSchema& s, const PageFormat& f, std::uint32_t block_bytes,
                           Lbn first)
    : schema_(s),
      format_(f),
      block_bytes_(block_bytes),
      first_(first),
      blocks_per_page_(f.page_bytes / block_bytes),
      records_per_page_((f.page_bytes - f.header_bytes) / s.record_bytes()),
      pages_((s.records + records_per_page_ - 1) / records_per_page_) {}

host::Result<NormalLayout> NormalLayout::create(const TableSchema& s, const PageFormat& f,
                                                std::uint32_t block_bytes, Lbn first,
                                                std::uint64_t device_blocks) {
  if (s.attributes() == 0 || s.record_bytes() == 0) {
    return host::invalid_argument("the table needs at least one attribute of at least one byte");
  }
  if (f.page_bytes == 0 || f.page_bytes % block_bytes != 0) {
    return host::invalid_argument("a page of " + std::to_string(f.page_bytes) +
                                  " bytes is not whole blocks of " + std::to_string(block_bytes));
  }
  if (f.header_bytes + std::uint64_t{s.record_bytes()} > f.page_bytes) {
    return host::invalid_argument("a record of " + std::to_string(s.record_bytes()) +
                                  " bytes does not fit a page of " + std::to_string(f.page_bytes) +
                                  " bytes after its " + std::to_string(f.header_bytes) +
                                  "-byte header");
  }
  NormalLayout l(s, f, block_bytes, first);
  if (l.end_lbn() > device_blocks) {
    return host::invalid_argument("the row-major table needs " + std::to_string(l.data_blocks()) +
                                  " blocks from LBN " + std::to_string(first) +
                                  "; the device has " + std::to_string(device_blocks));
  }
  return l;
}

std::vector<Lbn> NormalLayout::blocks_for(
    std::uint64_t first, std::uint64_t count,
    AttributeMask /*attrs: a page holds whole records*/) const {
  std::vector<Lbn> out;
  if (count == 0) return out;
  const std::uint64_t p0 = first / records_per_page_;
  const std::uint64_t p1 = (first + count - 1) / records_per_page_;
  out.reserve((p1 - p0 + 1) * blocks_per_page_);
  for (Lbn l = first_ + p0 * blocks_per_page_; l < first_ + (p1 + 1) * blocks_per_page_; ++l) {
    out.push_back(l);
  }
  return out;
}

void NormalLayout::block_image(Lbn lbn, std::span<std::uint8_t> out) const {
  std::fill(out.begin(), out.end(), 0);
  const std::uint64_t page = (lbn - first_) / blocks_per_page_;
  const std::uint64_t at = (lbn - first_) % blocks_per_page_ * block_bytes_;  // within the page
  const std::uint32_t rb = schema_.record_bytes();
  for (std::uint32_t i = 0; i < block_bytes_; ++i) {
    const std::uint64_t b = at + i;  // byte within the page
    if (b < format_.header_bytes) {
      if (b < 8) out[i] = static_cast<std::uint8_t>(page >> (8 * b));
      continue;
    }
    const std::uint64_t slot = (b - format_.header_bytes) / rb;
    const std::uint64_t record = page * records_per_page_ + slot;
    if (slot >= records_per_page_ || record >= schema_.records) continue;  // padding
    auto in_record = static_cast<std::uint32_t>((b - format_.header_bytes) % rb);
    std::size_t a = 0;
    while (in_record >= schema_.attribute_bytes[a]) in_record -= schema_.attribute_bytes[a++];
    out[i] = value_byte(record, a, in_record);
  }
}

}  // namespace memstore::apps
