// SPDX-License-Identifier: Apache-2.0
#include "sim/stats.h"

#include <gtest/gtest.h>

#include <algorithm>
#include <bit>
#include <cmath>
#include <cstdint>
#include <limits>
#include <random>
#include <vector>

namespace memstore::sim {
namespace {

// Nearest rank, as documented in stats.h, on the sorted data.
std::int64_t exact_percentile(const std::vector<std::int64_t>& sorted, double pct) {
  const auto n = static_cast<std::int64_t>(sorted.size());
  auto rank = static_cast<std::int64_t>(std::ceil(pct * static_cast<double>(n) / 100.0));
  rank = std::clamp<std::int64_t>(rank, 1, n);
  return sorted[static_cast<std::size_t>(rank - 1)];
}

void expect_percentiles_close(const Summary& s, std::vector<std::int64_t> values) {
  std::sort(values.begin(), values.end());
  for (double pct : {0.0, 1.0, 10.0, 25.0, 50.0, 75.0, 90.0, 99.0, 99.9, 100.0}) {
    const auto exact = static_cast<double>(exact_percentile(values, pct));
    const auto got = static_cast<double>(s.percentile(pct));
    EXPECT_LE(std::abs(got - exact), 0.002 * exact) << "pct " << pct;
  }
}

// The bucket mapping as first written, with a branch for the linear range:
// bucket_of's one-expression form must agree with it everywhere.
std::size_t bucket_with_branch(std::int64_t value_ns) {
  using namespace summary_detail;
  const std::uint64_t v = value_ns < 0 ? 0 : static_cast<std::uint64_t>(value_ns);
  if (v < kLinearLimit) return static_cast<std::size_t>(v);
  const int k = static_cast<int>(std::bit_width(v)) - 1;
  const std::uint64_t sub = (v >> (k - kSubBits)) - kSubBuckets;
  return static_cast<std::size_t>(
      kLinearLimit + static_cast<std::uint64_t>(k - kFirstLogExponent) * kSubBuckets + sub);
}

TEST(Summary, BranchFreeBucketsEqualTheBranchingOnes) {
  using summary_detail::bucket_of;
  for (std::int64_t v = -5; v < (std::int64_t{1} << 20); ++v) {
    ASSERT_EQ(bucket_of(v), bucket_with_branch(v)) << v;
  }
  std::mt19937_64 rng(20);
  for (int width = 1; width <= 63; ++width) {
    const std::uint64_t top = std::uint64_t{1} << (width - 1);
    for (const std::uint64_t low : {std::uint64_t{0}, top - 1}) {
      const auto v = static_cast<std::int64_t>(top | low);
      ASSERT_EQ(bucket_of(v), bucket_with_branch(v)) << v;
    }
    for (int i = 0; i < 10000; ++i) {
      const auto v = static_cast<std::int64_t>(top | (rng() & (top - 1)));
      ASSERT_EQ(bucket_of(v), bucket_with_branch(v)) << v;
    }
  }
  EXPECT_EQ(bucket_of(std::numeric_limits<std::int64_t>::max()),
            bucket_with_branch(std::numeric_limits<std::int64_t>::max()));
  EXPECT_EQ(bucket_of(std::numeric_limits<std::int64_t>::min()), 0u);
}

void expect_same_summary(const Summary& a, const Summary& b) {
  EXPECT_EQ(a.count(), b.count());
  // Bit for bit: the same operations in the same order.
  EXPECT_EQ(std::bit_cast<std::uint64_t>(a.mean()), std::bit_cast<std::uint64_t>(b.mean()));
  EXPECT_EQ(std::bit_cast<std::uint64_t>(a.sd()), std::bit_cast<std::uint64_t>(b.sd()));
  EXPECT_EQ(a.min(), b.min());
  EXPECT_EQ(a.max(), b.max());
  for (double pct : {0.0, 1.0, 25.0, 50.0, 90.0, 99.0, 99.9, 100.0}) {
    EXPECT_EQ(a.percentile(pct), b.percentile(pct)) << pct;
  }
}

TEST(SummarySet, EqualsSeparateSummaries) {
  // Nine streams as memsim's metrics are: wide, constant, often 0, negative.
  constexpr std::size_t kN = 9;
  SummarySet<kN> set;
  Summary alone[kN];
  expect_same_summary(set[0], alone[0]);  // empty
  std::mt19937_64 rng(9);
  std::exponential_distribution<double> wide(1.0 / 800'000);
  for (int r = 0; r < 200'000; ++r) {
    std::int64_t v[kN];
    for (std::size_t i = 0; i < kN; ++i) v[i] = static_cast<std::int64_t>(wide(rng));
    v[1] = 123'456;                                         // constant
    v[2] = rng() % 3 == 0 ? 0 : v[2];                       // often 0
    v[3] = static_cast<std::int64_t>(rng() % 2000) - 1000;  // around 0, negative too
    v[4] = r;                                               // a new maximum every time
    v[5] = static_cast<std::int64_t>(rng() >> 1);           // up to 2^63 - 1
    for (std::size_t i = 0; i < kN; ++i) alone[i].add(v[i]);
    set.add(v);
  }
  EXPECT_EQ(set.count(), 200'000);
  for (std::size_t i = 0; i < kN; ++i) {
    SCOPED_TRACE(i);
    expect_same_summary(set[i], alone[i]);
  }
}

TEST(SummarySet, ExtremeValuesFirst) {
  // The lowest int64 first: no new maximum, yet it must be counted.
  SummarySet<2> set;
  Summary alone[2];
  const std::int64_t lowest = std::numeric_limits<std::int64_t>::min();
  const std::int64_t highest = std::numeric_limits<std::int64_t>::max();
  const std::int64_t rows[][2] = {{lowest, highest}, {lowest, 0}, {5, highest}, {-1, 2000}};
  for (const auto& row : rows) {
    for (std::size_t i = 0; i < 2; ++i) alone[i].add(row[i]);
    set.add(row);
    for (std::size_t i = 0; i < 2; ++i) expect_same_summary(set[i], alone[i]);
  }
}

TEST(SummarySet, ScalarAndPackedWelfordAgree) {
  constexpr std::size_t kLanes = 11;  // two packed groups and a scalar tail of 3
  double mean_a[kLanes] = {}, m2_a[kLanes] = {};
  double mean_b[kLanes] = {}, m2_b[kLanes] = {};
  std::mt19937_64 rng(12);
  for (int n = 1; n <= 100'000; ++n) {
    std::int64_t v[kLanes];
    for (std::int64_t& x : v) x = static_cast<std::int64_t>(rng() >> (rng() % 64));
    summary_detail::welford_lanes(v, mean_a, m2_a, n, kLanes, /*allow_avx=*/false);
    summary_detail::welford_lanes(v, mean_b, m2_b, n, kLanes, /*allow_avx=*/true);
  }
  for (std::size_t i = 0; i < kLanes; ++i) {
    EXPECT_EQ(std::bit_cast<std::uint64_t>(mean_a[i]), std::bit_cast<std::uint64_t>(mean_b[i]));
    EXPECT_EQ(std::bit_cast<std::uint64_t>(m2_a[i]), std::bit_cast<std::uint64_t>(m2_b[i]));
  }
}

TEST(Summary, EmptyIsAllZero) {
  const Summary s;
  EXPECT_EQ(s.count(), 0);
  EXPECT_EQ(s.mean(), 0.0);
  EXPECT_EQ(s.sd(), 0.0);
  EXPECT_EQ(s.scv(), 0.0);
  EXPECT_EQ(s.min(), 0);
  EXPECT_EQ(s.max(), 0);
  EXPECT_EQ(s.p50(), 0);
  EXPECT_EQ(s.p99(), 0);
}

TEST(Summary, ConstantDataIsExact) {
  for (std::int64_t v :
       {std::int64_t{0}, std::int64_t{7}, std::int64_t{1023}, std::int64_t{1025},
        std::int64_t{123'456'789}, std::int64_t{1} << 40, std::int64_t{INT64_MAX}}) {
    Summary s;
    for (int i = 0; i < 1000; ++i) s.add(v);
    EXPECT_EQ(s.count(), 1000);
    EXPECT_EQ(s.mean(), static_cast<double>(v));
    EXPECT_EQ(s.sd(), 0.0);
    EXPECT_EQ(s.scv(), 0.0);
    EXPECT_EQ(s.min(), v);
    EXPECT_EQ(s.max(), v);
    EXPECT_EQ(s.p50(), v);
    EXPECT_EQ(s.p99(), v);
    EXPECT_EQ(s.percentile(0.0), v);
    EXPECT_EQ(s.percentile(100.0), v);
  }
}

TEST(Summary, SmallValuesAreExact) {
  Summary s;
  for (std::int64_t v = 1; v <= 100; ++v) s.add(v);
  EXPECT_EQ(s.p50(), 50);
  EXPECT_EQ(s.p99(), 99);
  EXPECT_EQ(s.percentile(100.0), 100);
  EXPECT_EQ(s.percentile(0.0), 1);
  EXPECT_EQ(s.percentile(-5.0), 1);     // clamped
  EXPECT_EQ(s.percentile(500.0), 100);  // clamped
  EXPECT_EQ(s.min(), 1);
  EXPECT_EQ(s.max(), 100);
  EXPECT_DOUBLE_EQ(s.mean(), 50.5);
  // Population variance of 1..n is (n^2 - 1) / 12.
  EXPECT_DOUBLE_EQ(s.sd(), std::sqrt((100.0 * 100.0 - 1.0) / 12.0));
  EXPECT_DOUBLE_EQ(s.scv(), ((100.0 * 100.0 - 1.0) / 12.0) / (50.5 * 50.5));
}

TEST(Summary, MeanAndSdOfKnownSet) {
  Summary s;
  for (std::int64_t v : {2, 4, 4, 4, 5, 5, 7, 9}) s.add(v);
  EXPECT_DOUBLE_EQ(s.mean(), 5.0);
  EXPECT_DOUBLE_EQ(s.sd(), 2.0);
  EXPECT_DOUBLE_EQ(s.scv(), 4.0 / 25.0);
}

TEST(Summary, PercentilesWithinTwoTenthsOfAPercentOnRandomData) {
  std::mt19937_64 rng(42);
  std::vector<std::int64_t> values;
  Summary s;
  for (int i = 0; i < 200'000; ++i) {
    // Log-uniform over 1 ns .. 2^40 ns, so every octave is exercised.
    const int octave = static_cast<int>(rng() % 40);
    const std::int64_t v = (std::int64_t{1} << octave) +
                           static_cast<std::int64_t>(rng() % (std::uint64_t{1} << octave));
    values.push_back(v);
    s.add(v);
  }
  expect_percentiles_close(s, values);
  EXPECT_EQ(s.min(), *std::min_element(values.begin(), values.end()));
  EXPECT_EQ(s.max(), *std::max_element(values.begin(), values.end()));
}

TEST(Summary, PercentilesCloseOnResponseTimeLikeData) {
  std::mt19937_64 rng(7);
  std::vector<std::int64_t> values;
  Summary s;
  for (int i = 0; i < 100'000; ++i) {
    const std::int64_t v = 200'000 + static_cast<std::int64_t>(rng() % 5'000'000);  // 0.2..5.2 ms
    values.push_back(v);
    s.add(v);
  }
  expect_percentiles_close(s, values);
}

TEST(Summary, MeanAndSdMatchTwoPassComputation) {
  std::mt19937_64 rng(3);
  std::vector<std::int64_t> values;
  Summary s;
  for (int i = 0; i < 10'000; ++i) {
    const auto v = static_cast<std::int64_t>(rng() % 10'000'000);
    values.push_back(v);
    s.add(v);
  }
  double sum = 0;
  for (auto v : values) sum += static_cast<double>(v);
  const double mean = sum / static_cast<double>(values.size());
  double ss = 0;
  for (auto v : values) ss += (static_cast<double>(v) - mean) * (static_cast<double>(v) - mean);
  const double sd = std::sqrt(ss / static_cast<double>(values.size()));
  EXPECT_NEAR(s.mean(), mean, 1e-9 * mean);
  EXPECT_NEAR(s.sd(), sd, 1e-9 * sd);
}

TEST(Summary, MergeEqualsAddingEverything) {
  std::mt19937_64 rng(11);
  Summary a, b, all;
  std::vector<std::int64_t> values;
  for (int i = 0; i < 50'000; ++i) {
    const auto v = static_cast<std::int64_t>(rng() % 3'000'000'000ULL);
    values.push_back(v);
    all.add(v);
    (i % 3 == 0 ? a : b).add(v);
  }
  a.merge(b);
  EXPECT_EQ(a.count(), all.count());
  EXPECT_EQ(a.min(), all.min());
  EXPECT_EQ(a.max(), all.max());
  EXPECT_NEAR(a.mean(), all.mean(), 1e-9 * all.mean());
  EXPECT_NEAR(a.sd(), all.sd(), 1e-9 * all.sd());
  for (double pct : {0.0, 50.0, 90.0, 99.0, 100.0}) {
    EXPECT_EQ(a.percentile(pct), all.percentile(pct)) << pct;  // same buckets
  }
  expect_percentiles_close(a, values);
}

TEST(Summary, MergeWithEmptySides) {
  Summary a, empty;
  a.add(5);
  a.add(15);
  a.merge(empty);
  EXPECT_EQ(a.count(), 2);
  EXPECT_DOUBLE_EQ(a.mean(), 10.0);
  Summary c;
  c.merge(a);
  EXPECT_EQ(c.count(), 2);
  EXPECT_DOUBLE_EQ(c.sd(), 5.0);
  EXPECT_EQ(c.min(), 5);
  EXPECT_EQ(c.max(), 15);
}

TEST(Summary, PercentileClampedIntoMinMax) {
  Summary s;
  s.add(1'000'001);
  s.add(1'000'003);
  // Both land in the 1024-wide bucket [999'424, 1'000'447], whose midpoint
  // 999'935 is below min, so every percentile is clamped up to min.
  EXPECT_EQ(s.p50(), 1'000'001);
  EXPECT_EQ(s.percentile(100.0), 1'000'001);
}

TEST(Summary, NegativeValuesDoNotBreakAnything) {
  Summary s;
  s.add(-10);
  s.add(10);
  EXPECT_EQ(s.min(), -10);
  EXPECT_EQ(s.max(), 10);
  EXPECT_DOUBLE_EQ(s.mean(), 0.0);
  EXPECT_EQ(s.scv(), 0.0);  // mean 0
  EXPECT_EQ(s.percentile(100.0), 10);
}

}  // namespace
}  // namespace memstore::sim
