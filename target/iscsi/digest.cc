// SPDX-License-Identifier: Apache-2.0
#include "target/iscsi/digest.h"

#include <isa-l/crc.h>

#include <algorithm>
#include <climits>

namespace memstore::iscsi {

std::uint32_t crc32c(std::span<const std::uint8_t> data, std::uint32_t previous) {
  // ISA-L's crc32_iscsi takes the register's initial value and returns the
  // register without the final complement; it takes an int length.
  constexpr std::size_t kChunk = std::size_t{INT_MAX} & ~std::size_t{0xFFF};
  unsigned int reg = ~previous;
  while (!data.empty()) {
    const std::size_t n = std::min(data.size(), kChunk);
    // crc32_iscsi does not write to the buffer; its parameter is not const.
    reg = crc32_iscsi(const_cast<unsigned char*>(data.data()), static_cast<int>(n), reg);
    data = data.subspan(n);
  }
  return ~reg;
}

DigestBytes digest_bytes(std::uint32_t crc) {
  return {static_cast<std::uint8_t>(crc), static_cast<std::uint8_t>(crc >> 8),
          static_cast<std::uint8_t>(crc >> 16), static_cast<std::uint8_t>(crc >> 24)};
}

std::uint32_t digest_value(std::span<const std::uint8_t, kDigestSize> b) {
  return std::uint32_t{b[0]} | std::uint32_t{b[1]} << 8 | std::uint32_t{b[2]} << 16 |
         std::uint32_t{b[3]} << 24;
}

void append_digest(std::vector<std::uint8_t>& out, std::span<const std::uint8_t> covered) {
  const DigestBytes d = digest_bytes(crc32c(covered));  // before `out` may reallocate
  out.insert(out.end(), d.begin(), d.end());
}

bool check_digest(std::span<const std::uint8_t> covered,
                  std::span<const std::uint8_t, kDigestSize> received) {
  return crc32c(covered) == digest_value(received);
}

}  // namespace memstore::iscsi
