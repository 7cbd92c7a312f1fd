// SPDX-License-Identifier: Apache-2.0
// Big-endian field access for SCSI byte layouts (SPC-4 §4.3: multi-byte
// fields are big-endian). Bounds are the caller's contract; every reader
// checks the buffer length before decoding.
#pragma once

#include <cstddef>
#include <cstdint>
#include <span>
#include <vector>

namespace memstore::modepages {

using Bytes = std::vector<std::uint8_t>;

// REQUIRES: at + n <= b.size().
std::uint64_t get_be(std::span<const std::uint8_t> b, std::size_t at, std::size_t n);
void put_be(std::span<std::uint8_t> b, std::size_t at, std::size_t n, std::uint64_t v);

inline std::uint16_t get_be16(std::span<const std::uint8_t> b, std::size_t at) {
  return static_cast<std::uint16_t>(get_be(b, at, 2));
}
inline std::uint32_t get_be32(std::span<const std::uint8_t> b, std::size_t at) {
  return static_cast<std::uint32_t>(get_be(b, at, 4));
}
inline std::uint64_t get_be64(std::span<const std::uint8_t> b, std::size_t at) {
  return get_be(b, at, 8);
}

// Appends v as n big-endian bytes.
void append_be(Bytes& out, std::size_t n, std::uint64_t v);

}  // namespace memstore::modepages
