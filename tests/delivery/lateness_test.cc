// SPDX-License-Identifier: Apache-2.0
// Lateness percentiles from the histogram: within a bucket's width of the
// exact order statistic, never above the maximum.
#include "target/delivery/lateness.h"

#include <gtest/gtest.h>

#include <algorithm>
#include <random>
#include <vector>

namespace memstore::delivery {
namespace {

TEST(Lateness, BucketsCoverEveryValueInOrder) {
  for (std::uint64_t v :
       {0ULL, 1ULL, 15ULL, 16ULL, 17ULL, 31ULL, 32ULL, 1000ULL, 123456789ULL, (1ULL << 62) + 5}) {
    const int b = Lateness::bucket_of(v);
    EXPECT_LE(v, Lateness::bucket_top(b)) << v;
    if (b > 0) {
      EXPECT_GT(v, Lateness::bucket_top(b - 1)) << v;
    }
  }
}

TEST(Lateness, PercentilesAreWithinABucketOfTheExactOnes) {
  std::mt19937_64 rng(7);
  std::lognormal_distribution<double> late(9.0, 1.2);  // around 8 us, a long tail
  Lateness l;
  std::vector<std::int64_t> all;
  for (int i = 0; i < 100'000; ++i) {
    const auto v = static_cast<std::int64_t>(late(rng));
    l.add(v);
    all.push_back(v);
  }
  std::sort(all.begin(), all.end());
  for (const double q : {0.5, 0.9, 0.99, 0.999}) {
    const auto exact = all[static_cast<std::size_t>(q * static_cast<double>(all.size())) - 1];
    const std::int64_t got = l.percentile_ns(q);
    EXPECT_GE(got, exact) << q;
    EXPECT_LE(static_cast<double>(got), static_cast<double>(exact) * 1.126)
        << q;  // 8 buckets per power of two
  }
  EXPECT_EQ(l.percentile_ns(1.0), all.back());
  EXPECT_EQ(Lateness{}.percentile_ns(0.99), 0);
}

}  // namespace
}  // namespace memstore::delivery
