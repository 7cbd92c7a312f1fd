// SPDX-License-Identifier: Apache-2.0
#include "apps/table.h"

#include <numeric>

namespace memstore::apps {

std::uint32_t TableSchema::record_bytes() const {
  return std::accumulate(attribute_bytes.begin(), attribute_bytes.end(), std::uint32_t{0});
}

std::uint32_t TableSchema::attribute_offset(std::size_t a) const {
  return std::accumulate(attribute_bytes.begin(),
                         attribute_bytes.begin() + static_cast<std::ptrdiff_t>(a),
                         std::uint32_t{0});
}

std::uint8_t value_byte(std::uint64_t r, std::size_t a, std::uint32_t k) {
  // splitmix64's finaliser over (record, attribute, byte).
  std::uint64_t z = r * 0x9E3779B97F4A7C15ULL + (std::uint64_t{a} << 32) + k + 1;
  z = (z ^ (z >> 30)) * 0xBF58476D1CE4E5B9ULL;
  z = (z ^ (z >> 27)) * 0x94D049BB133111EBULL;
  return static_cast<std::uint8_t>(z ^ (z >> 31));
}

}  // namespace memstore::apps
