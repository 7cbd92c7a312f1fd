// SPDX-License-Identifier: Apache-2.0
// Serial number arithmetic (RFC 1982, SERIAL_BITS = 32) for CmdSN, StatSN,
// DataSN and R2TSN (RFC 7143 §4.2.2.1: "comparisons and arithmetic on
// sequence numbers use serial number arithmetic").
//
// a < b when b is ahead of a by 1 .. 2^31 - 1 steps (modulo 2^32). At a
// distance of exactly 2^31 RFC 1982 leaves the comparison undefined; these
// functions then answer false to both serial_lt and serial_gt (and so also to
// serial_le / serial_ge, since the numbers differ), so an undefined comparison
// never admits a number into a window.
#pragma once

#include <cstdint>

namespace memstore::iscsi {

inline constexpr std::uint32_t kSerialHalf = 0x80000000;  // 2^(SERIAL_BITS - 1)

constexpr bool serial_lt(std::uint32_t a, std::uint32_t b) {
  const std::uint32_t ahead = b - a;  // modulo 2^32
  return ahead != 0 && ahead < kSerialHalf;
}
constexpr bool serial_gt(std::uint32_t a, std::uint32_t b) {
  return serial_lt(b, a);
}
constexpr bool serial_le(std::uint32_t a, std::uint32_t b) {
  return a == b || serial_lt(a, b);
}
constexpr bool serial_ge(std::uint32_t a, std::uint32_t b) {
  return a == b || serial_gt(a, b);
}

// lo <= x <= hi in serial order. An empty window is hi == lo - 1 (as in
// MaxCmdSN = ExpCmdSN - 1, RFC 7143 §4.2.2.1): nothing is inside it.
// Meaningful for windows of fewer than 2^31 numbers.
constexpr bool serial_in_window(std::uint32_t x, std::uint32_t lo, std::uint32_t hi) {
  return serial_le(lo, x) && serial_le(x, hi);
}

// RFC 1982 §3.1 addition. REQUIRES: n < 2^31.
constexpr std::uint32_t serial_add(std::uint32_t a, std::uint32_t n) {
  return a + n;
}

}  // namespace memstore::iscsi
