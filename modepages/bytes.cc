// SPDX-License-Identifier: Apache-2.0
#include "modepages/bytes.h"

namespace memstore::modepages {

std::uint64_t get_be(std::span<const std::uint8_t> b, std::size_t at, std::size_t n) {
  std::uint64_t v = 0;
  for (std::size_t i = 0; i < n; ++i) v = (v << 8) | b[at + i];
  return v;
}

void put_be(std::span<std::uint8_t> b, std::size_t at, std::size_t n, std::uint64_t v) {
  for (std::size_t i = 0; i < n; ++i) {
    b[at + n - 1 - i] = static_cast<std::uint8_t>(v & 0xFF);
    v >>= 8;
  }
}

void append_be(Bytes& out, std::size_t n, std::uint64_t v) {
  out.resize(out.size() + n);
  put_be(out, out.size() - n, n, v);
}

}  // namespace memstore::modepages
