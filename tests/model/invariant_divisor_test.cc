// SPDX-License-Identifier: Apache-2.0
#include "model/invariant_divisor.h"

#include <gtest/gtest.h>

#include <cstdint>
#include <random>

#include "model/geometry.h"
#include "model/params.h"

namespace memstore::model {
namespace {

constexpr std::uint64_t kTop = (std::uint64_t{1} << 63) - 1;  // the largest input

void expect_exact(std::uint64_t d, std::uint64_t n) {
  const InvariantDivisor div(d);
  ASSERT_EQ(div.divide(n), n / d) << n << " / " << d;
}

TEST(InvariantDivisor, EdgesOfTheDomain) {
  for (std::uint64_t d :
       {std::uint64_t{1}, std::uint64_t{2}, std::uint64_t{3}, std::uint64_t{7}, std::uint64_t{10},
        std::uint64_t{270}, std::uint64_t{6750}, std::uint64_t{675000}, std::uint64_t{6750000},
        (std::uint64_t{1} << 32) - 1, std::uint64_t{1} << 32, (std::uint64_t{1} << 32) + 1,
        (std::uint64_t{1} << 62) + 1, kTop, std::uint64_t{1} << 63}) {
    for (std::uint64_t n :
         {std::uint64_t{0}, std::uint64_t{1}, d - 1, d, d + 1, 2 * d - 1, kTop - 1, kTop}) {
      if (n <= kTop) expect_exact(d, n);
    }
    // Just below and at every multiple near the top of the domain.
    const std::uint64_t q_top = kTop / d;
    for (std::uint64_t q = q_top > 3 ? q_top - 3 : 0; q <= q_top; ++q) {
      expect_exact(d, q * d);
      if (q > 0) expect_exact(d, q * d - 1);
    }
  }
}

TEST(InvariantDivisor, RandomDivisorsAndInputs) {
  std::mt19937_64 rng(15);
  for (int i = 0; i < 2000; ++i) {
    // Divisors of every magnitude: a random bit length, then random bits.
    const unsigned bits = 1 + static_cast<unsigned>(rng() % 63);
    const std::uint64_t d = (rng() >> (64 - bits)) | 1;
    for (int j = 0; j < 200; ++j) expect_exact(d, rng() & kTop);
    for (int j = 0; j < 20; ++j) {
      const std::uint64_t n = rng() & kTop;
      expect_exact(d, n - n % d);  // multiples, and the value just below
      if (n >= d) expect_exact(d, n - n % d - 1);
    }
  }
}

TEST(InvariantDivisor, EveryG2LbnThroughTheGeometry) {
  // Every divisor Geometry uses, over every LBN of G2 (the exactness proof
  // in the header covers all inputs; this is its check on the range used).
  const Geometry g(*preset("g2"));
  for (std::int64_t d : {g.blocks_per_sled(), g.sc(), std::int64_t{g.st()}, std::int64_t{g.ny()},
                         std::int64_t{g.p()}}) {
    const InvariantDivisor div(static_cast<std::uint64_t>(d));
    for (std::int64_t lbn = 0; lbn < g.blocks(); ++lbn) ASSERT_EQ(div.divide(lbn), lbn / d) << d;
  }
}

}  // namespace
}  // namespace memstore::model
