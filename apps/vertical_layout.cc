// SPDX-License-Identifier: Apache-2.0
#include "apps/vertical_layout.h"

#include <algorithm>

namespace memstore::apps {

VerticalLayout::VerticalLayout(const TableSchema& s, const PageFormat& f, std::uint32_t block_bytes,
                               Lbn first)
    : schema_(s),
      format_(f),
      block_bytes_(block_bytes),
      first_(first),
      blocks_per_page_(f.page_bytes / block_bytes) {
  page_start_.push_back(0);
  for (const std::uint32_t size : s.attribute_bytes) {
    const std::uint64_t per = (f.page_bytes - f.header_bytes) / size;
    per_page_.push_back(per);
    page_start_.push_back(page_start_.back() + (s.records + per - 1) / per);
  }
}

host::Result<VerticalLayout> VerticalLayout::create(const TableSchema& s, const PageFormat& f,
                                                    std::uint32_t block_bytes, Lbn first,
                                                    std::uint64_t device_blocks) {
  if (s.attributes() == 0 || std::find(s.attribute_bytes.begin(), s.attribute_bytes.end(), 0u) !=
                                 s.attribute_bytes.end()) {
    return host::invalid_argument("the table needs at least one attribute, each at least 1 byte");
  }
  if (f.page_bytes == 0 || f.page_bytes % block_bytes != 0) {
    return host::invalid_argument("a page of " + std::to_string(f.page_bytes) +
                                  " bytes is not whole blocks of " + std::to_string(block_bytes));
  }
  const std::uint32_t largest =
      *std::max_element(s.attribute_bytes.begin(), s.attribute_bytes.end());
  if (f.header_bytes + std::uint64_t{largest} > f.page_bytes) {
    return host::invalid_argument("an attribute of " + std::to_string(largest) +
                                  " bytes does not fit a page of " + std::to_string(f.page_bytes) +
                                  " bytes after its " + std::to_string(f.header_bytes) +
                                  "-byte header");
  }
  VerticalLayout l(s, f, block_bytes, first);
  if (l.end_lbn() > device_blocks) {
    return host::invalid_argument("the vertically partitioned table needs " +
                                  std::to_string(l.data_blocks()) + " blocks from LBN " +
                                  std::to_string(first) + "; the device has " +
                                  std::to_string(device_blocks));
  }
  return l;
}

std::vector<Lbn> VerticalLayout::blocks_for(std::uint64_t first, std::uint64_t count,
                                            AttributeMask attrs) const {
  std::vector<Lbn> out;
  if (count == 0) return out;
  // Runs in attribute order lie in ascending LBN order: the result is sorted.
  for (std::size_t a = 0; a < schema_.attributes(); ++a) {
    if (((attrs >> a) & 1U) == 0) continue;
    const std::uint64_t p0 = page_start_[a] + first / per_page_[a];
    const std::uint64_t p1 = page_start_[a] + (first + count - 1) / per_page_[a];
    for (Lbn l = first_ + p0 * blocks_per_page_; l < first_ + (p1 + 1) * blocks_per_page_; ++l) {
      out.push_back(l);
    }
  }
  return out;
}

void VerticalLayout::block_image(Lbn lbn, std::span<std::uint8_t> out) const {
  std::fill(out.begin(), out.end(), 0);
  const std::uint64_t page = (lbn - first_) / blocks_per_page_;
  const std::uint64_t at = (lbn - first_) % blocks_per_page_ * block_bytes_;  // within the page
  // The attribute whose run holds the page.
  const auto it = std::upper_bound(page_start_.begin(), page_start_.end(), page);
  const auto a = static_cast<std::size_t>(it - page_start_.begin()) - 1;
  const std::uint32_t size = schema_.attribute_bytes[a];
  const std::uint64_t in_run = page - page_start_[a];
  for (std::uint32_t i = 0; i < block_bytes_; ++i) {
    const std::uint64_t b = at + i;  // byte within the page
    if (b < format_.header_bytes) {
      if (b < 8) out[i] = static_cast<std::uint8_t>(page >> (8 * b));
      continue;
    }
    const std::uint64_t slot = (b - format_.header_bytes) / size;
    const std::uint64_t record = in_run * per_page_[a] + slot;
    if (slot >= per_page_[a] || record >= schema_.records) continue;  // padding
    out[i] = value_byte(record, a, static_cast<std::uint32_t>((b - format_.header_bytes) % size));
  }
}

}  // namespace memstore::apps
