// SPDX-License-Identifier: Apache-2.0
#include "sim/stats.h"

#include <algorithm>
#include <bit>
#include <cmath>
#include <cstddef>
#if defined(__SSE2__)
#include <immintrin.h>
#endif

namespace memstore::sim {
namespace {

using summary_detail::kFirstLogExponent;
using summary_detail::kLinearLimit;
using summary_detail::kSubBits;
using summary_detail::kSubBuckets;

// The midpoint of a bucket, rounded down: the value itself for width-1
// buckets. Fits in int64 for every bucket bucket_of() can return.
std::int64_t midpoint_of(std::size_t bucket) {
  if (bucket < kLinearLimit) return static_cast<std::int64_t>(bucket);
  const std::uint64_t j = bucket - kLinearLimit;
  const int k = static_cast<int>(j / kSubBuckets) + kFirstLogExponent;
  const std::uint64_t sub = j % kSubBuckets;
  const int shift = k - kSubBits;
  const std::uint64_t low = (kSubBuckets + sub) << shift;
  const std::uint64_t width = std::uint64_t{1} << shift;
  return static_cast<std::int64_t>(low + (width - 1) / 2);
}

void welford_scalar(const std::int64_t* values, double* mean, double* m2, double n,
                    std::size_t lanes) {
  for (std::size_t i = 0; i < lanes; ++i) {
    const auto x = static_cast<double>(values[i]);
    const double delta = x - mean[i];
    mean[i] += delta / n;
    m2[i] += delta * (x - mean[i]);
  }
}

#if defined(__SSE2__)
// Four lanes per instruction, the rest one at a time; the int64 -> double
// conversions stay scalar (AVX has no packed one), each exact as
// static_cast's.
__attribute__((target("avx"))) void welford_avx(const std::int64_t* values, double* mean,
                                                double* m2, double n, std::size_t lanes) {
  const __m256d vn = _mm256_set1_pd(n);
  std::size_t i = 0;
  for (; i + 4 <= lanes; i += 4) {
    const __m256d x =
        _mm256_set_pd(static_cast<double>(values[i + 3]), static_cast<double>(values[i + 2]),
                      static_cast<double>(values[i + 1]), static_cast<double>(values[i]));
    const __m256d m = _mm256_loadu_pd(mean + i);
    const __m256d delta = _mm256_sub_pd(x, m);
    const __m256d m_new = _mm256_add_pd(m, _mm256_div_pd(delta, vn));
    _mm256_storeu_pd(mean + i, m_new);
    const __m256d sq = _mm256_mul_pd(delta, _mm256_sub_pd(x, m_new));
    _mm256_storeu_pd(m2 + i, _mm256_add_pd(_mm256_loadu_pd(m2 + i), sq));
  }
  welford_scalar(values + i, mean + i, m2 + i, n, lanes - i);
}

bool cpu_has_avx() {
  __builtin_cpu_init();
  return __builtin_cpu_supports("avx");
}
// Set before main(); a SummarySet fed during static initialisation takes the
// scalar path, which gives the same values.
const bool kAvx = cpu_has_avx();
#endif

}  // namespace

namespace summary_detail {

void welford_lanes(const std::int64_t* values, double* mean, double* m2, double n,
                   std::size_t lanes, bool allow_avx) {
#if defined(__SSE2__)
  if (allow_avx && kAvx) {
    welford_avx(values, mean, m2, n, lanes);
    return;
  }
#else
  (void)allow_avx;
#endif
  welford_scalar(values, mean, m2, n, lanes);
}

}  // namespace summary_detail

void Summary::grow(std::size_t bucket) {
  buckets_.resize(bucket + 1, 0);
}

void Summary::merge(const Summary& other) {
  if (other.count_ == 0) return;
  if (count_ == 0) {
    *this = other;
    return;
  }
  // Chan, Golub & LeVeque (1979): combine two partial (count, mean, M2).
  const double na = static_cast<double>(count_);
  const double nb = static_cast<double>(other.count_);
  const double n = na + nb;
  const double delta = other.mean_ - mean_;
  mean_ += delta * nb / n;
  m2_ += other.m2_ + delta * delta * na * nb / n;
  count_ += other.count_;
  min_ = std::min(min_, other.min_);
  max_ = std::max(max_, other.max_);
  if (other.buckets_.size() > buckets_.size()) buckets_.resize(other.buckets_.size(), 0);
  for (std::size_t i = 0; i < other.buckets_.size(); ++i) buckets_[i] += other.buckets_[i];
}

double Summary::sd() const {
  if (count_ == 0) return 0.0;
  return std::sqrt(std::max(0.0, m2_ / static_cast<double>(count_)));
}

double Summary::scv() const {
  if (mean_ == 0.0) return 0.0;
  const double s = sd();
  return (s * s) / (mean_ * mean_);
}

std::int64_t Summary::percentile(double pct) const {
  if (count_ == 0) return 0;
  if (!(pct > 0.0)) pct = 0.0;  // also NaN
  if (pct > 100.0) pct = 100.0;
  // Multiply before dividing so integral percentiles of integral counts are
  // exact (99 * 100 / 100 == 99, whereas 0.99 * 100 is not).
  const double n = static_cast<double>(count_);
  std::int64_t rank = static_cast<std::int64_t>(std::ceil(pct * n / 100.0));
  rank = std::clamp<std::int64_t>(rank, 1, count_);
  std::int64_t seen = 0;
  for (std::size_t b = 0; b < buckets_.size(); ++b) {
    seen += buckets_[b];
    if (seen >= rank) return std::clamp(midpoint_of(b), min_, max_);
  }
  return max_;  // unreachable: the buckets hold count_ values
}

}  // namespace memstore::sim
