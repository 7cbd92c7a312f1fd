// SPDX-License-Identifier: Apache-2.0
// Division by a divisor fixed at run time, as a multiply-high, an add and a
// shift instead of a 64-bit `div` (with `div`, the LBN mapping's divisions
// are 9% of a G2 service-time computation).
//
// The method is the round-up one of Granlund and Montgomery, "Division by
// invariant integers using multiplication" (PLDI 1994, §4), with a 65-bit
// multiplier. For a divisor d >= 1 let s = ceil(log2 d), so 2^(s-1) < d <= 2^s,
// and m = ceil(2^(64+s) / d). Then e = m d - 2^(64+s) lies in [0, d), and for
// every n < 2^64, written n = q d + r with 0 <= r < d,
//   n m / 2^(64+s) = n / d + n e / (d 2^(64+s)),
// where n e / 2^(64+s) < 2^64 d / 2^(64+s) <= 1 <= d - r. So the quotient lies
// in [q, q + 1) and floor(n m / 2^(64+s)) = q: exact for every input, with no
// case left to test. Since 2^(64+s) / d < 2^65, m < 2^65; it is stored as
// magic = m - 2^64 < 2^64, and
//   floor(n m / 2^64) = n + floor(n magic / 2^64)
// because n 2^64 contributes exactly n to the high word. That sum is below
// 2 n, so it cannot overflow for n < 2^63: every non-negative int64, which is
// all this is used for (LBNs, bit positions). d = 1 gives s = 0, magic = 0;
// a power of two gives magic = 0 and a plain shift.
//
// Tests: tests/model/invariant_divisor_test.cc checks it against `/` over
// every LBN of G2 and at the edges of the domain.
#pragma once

#include <cstdint>

namespace memstore::model {

class InvariantDivisor {
 public:
  // REQUIRES: 1 <= d <= 2^63.
  explicit constexpr InvariantDivisor(std::uint64_t d = 1) : d_(d) {
    while (shift_ < 63 && (std::uint64_t{1} << shift_) < d) ++shift_;
    const U128 two_pow = U128{1} << (64 + shift_);
    magic_ = static_cast<std::uint64_t>((two_pow + d - 1) / d - (U128{1} << 64));
  }

  // n / d. REQUIRES: n < 2^63.
  constexpr std::uint64_t divide(std::uint64_t n) const {
    const auto hi = static_cast<std::uint64_t>((U128{n} * magic_) >> 64);
    return (hi + n) >> shift_;
  }
  // For non-negative signed values (LBNs). REQUIRES: n >= 0.
  constexpr std::int64_t divide(std::int64_t n) const {
    return static_cast<std::int64_t>(divide(static_cast<std::uint64_t>(n)));
  }
  constexpr std::uint64_t divisor() const { return d_; }

 private:
  __extension__ using U128 = unsigned __int128;
  std::uint64_t d_;
  std::uint64_t magic_ = 0;
  unsigned shift_ = 0;
};

}  // namespace memstore::model
