#include "sim/stats.h"

#include <algorithm>
#include <bit>
#include <cmath>
#include <cstddef>

#if defined(__SSE2__)
#include <emmintrin.h>
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

}  // namespace

void Summary::grow(std::size_t bucket) {
  buckets_.resize(bucket + 1, 0);
}

void Summary::add_each(std::span<Summary> summaries, const std::int64_t* values) {
  const std::size_t n = summaries.size();
  std::size_t i = 0;
#if defined(__SSE2__)
  bool same_count = true;
  for (std::size_t j = 1; j < n; ++j) same_count &= summaries[j].count_ == summaries[0].count_;
  if (same_count && n >= 2) {
    // add()'s Welford update, lane by lane: delta = x - mean;
    // mean += delta / count; m2 += delta (x - mean), with count already raised.
    const __m128d count = _mm_set1_pd(static_cast<double>(summaries[0].count_ + 1));
    for (; i + 1 < n; i += 2) {
      Summary& a = summaries[i];
      Summary& b = summaries[i + 1];
      const __m128d x =
          _mm_set_pd(static_cast<double>(values[i + 1]), static_cast<double>(values[i]));
      __m128d mean = _mm_loadh_pd(_mm_load_sd(&a.mean_), &b.mean_);
      __m128d m2 = _mm_loadh_pd(_mm_load_sd(&a.m2_), &b.m2_);
      const __m128d delta = _mm_sub_pd(x, mean);
      mean = _mm_add_pd(mean, _mm_div_pd(delta, count));
      m2 = _mm_add_pd(m2, _mm_mul_pd(delta, _mm_sub_pd(x, mean)));
      _mm_storel_pd(&a.mean_, mean);
      _mm_storeh_pd(&b.mean_, mean);
      _mm_storel_pd(&a.m2_, m2);
      _mm_storeh_pd(&b.m2_, m2);
      a.add_extremes_and_bucket(values[i]);
      b.add_extremes_and_bucket(values[i + 1]);
    }
  }
#endif
  for (; i < n; ++i) summaries[i].add(values[i]);
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
