// SPDX-License-Identifier: Apache-2.0
// Big-endian field access inside a BHS (RFC 7143 §11.1: network byte order).
// Internal to the PDU codec.
#pragma once

#include <algorithm>
#include <array>
#include <cstddef>
#include <cstdint>
#include <string>
#include <utility>

#include "base/expected.h"
#include "target/iscsi/pdu_bhs.h"

namespace memstore::iscsi::detail {

constexpr std::uint16_t get16(const Bhs& b, std::size_t at) {
  return static_cast<std::uint16_t>(b[at] << 8 | b[at + 1]);
}
constexpr std::uint32_t get24(const Bhs& b, std::size_t at) {
  return std::uint32_t{b[at]} << 16 | std::uint32_t{b[at + 1]} << 8 | b[at + 2];
}
constexpr std::uint32_t get32(const Bhs& b, std::size_t at) {
  return std::uint32_t{get16(b, at)} << 16 | get16(b, at + 2);
}
constexpr void put16(Bhs& b, std::size_t at, std::uint16_t v) {
  b[at] = static_cast<std::uint8_t>(v >> 8);
  b[at + 1] = static_cast<std::uint8_t>(v);
}
constexpr void put24(Bhs& b, std::size_t at, std::uint32_t v) {
  b[at] = static_cast<std::uint8_t>(v >> 16);
  b[at + 1] = static_cast<std::uint8_t>(v >> 8);
  b[at + 2] = static_cast<std::uint8_t>(v);
}
constexpr void put32(Bhs& b, std::size_t at, std::uint32_t v) {
  put16(b, at, static_cast<std::uint16_t>(v >> 16));
  put16(b, at + 2, static_cast<std::uint16_t>(v));
}

template <std::size_t N>
std::array<std::uint8_t, N> get_bytes(const Bhs& b, std::size_t at) {
  std::array<std::uint8_t, N> out{};
  std::copy_n(b.begin() + static_cast<std::ptrdiff_t>(at), N, out.begin());
  return out;
}
template <std::size_t N>
void put_bytes(Bhs& b, std::size_t at, const std::array<std::uint8_t, N>& v) {
  std::copy(v.begin(), v.end(), b.begin() + static_cast<std::ptrdiff_t>(at));
}

// A BHS with byte 0 (immediate bit and opcode), byte 1 flags, the AHS length
// and the data segment length (masked to 24 bits) filled in.
inline Bhs start(Opcode op, bool immediate, std::uint8_t flags, std::uint8_t ahs_words,
                 std::uint32_t data_length) {
  Bhs b{};
  b[0] = static_cast<std::uint8_t>(static_cast<std::uint8_t>(op) | (immediate ? 0x40 : 0));
  b[1] = flags;
  b[4] = ahs_words;
  put24(b, 5, data_length & kMaxDataSegmentLength);
  return b;
}

inline PduError error(RejectReason reason, std::uint16_t byte, std::string what) {
  return PduError{reason, byte, std::move(what)};
}

// The checks shared by every decoder: the opcode, and zero TotalAHSLength or
// DataSegmentLength where the PDU may carry none (RFC 7143 §11.2.1.4/5).
BasicStatus<PduError> check_common(const Bhs& b, Opcode expected, bool ahs_allowed,
                                   bool data_allowed);

// A flag bit when `set`, else 0.
constexpr std::uint8_t flag(bool set, std::uint8_t bit) {
  return set ? bit : std::uint8_t{0};
}

// The LUN field, bytes 8-15 of every BHS that has one.
inline LunBytes lun_of(const Bhs& b) {
  return get_bytes<8>(b, 8);
}

}  // namespace memstore::iscsi::detail
