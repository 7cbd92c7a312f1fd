// Summary statistics of a stream of nanosecond values (response times, queue
// times, service times): count, mean, population standard deviation, squared
// coefficient of variation (the thesis' fairness metric, σ²/μ², §6.1.1),
// min, max and percentiles.
//
// Precision:
// - count, min, max: exact.
// - mean, sd: Welford's running update in double (merge uses Chan et al.'s
//   pairwise formula), so they carry double rounding only; exact for constant
//   data.
// - percentiles: from a log-linear (HDR-style) histogram. Values below 1024 ns
//   get one bucket each (exact); from 2^k (k >= 10) up to 2^(k+1) there are
//   512 equal sub-buckets of width 2^(k-9). The reported value is the bucket's
//   midpoint clamped into [min, max], so it is within 1/1024 (< 0.1%) of the
//   exact nearest-rank percentile, and exact when all values are equal.
//   Memory is O(log2(max)): at most 28,160 counters (all of int64) and about
//   16,900 for values up to 2^40 ns (18 minutes), whatever the count.
// Negative values are counted in the lowest bucket (they do not occur for
// times; mean/sd/min/max still see them exactly).
// Everything is deterministic: no randomness, no dependence on insertion
// order except for the last bits of mean/sd.
#pragma once

#include <bit>
#include <cstddef>
#include <cstdint>
#include <limits>
#include <vector>

namespace memstore::sim {

namespace summary_detail {

// Log-linear buckets (HdrHistogram's layout with 10 significant bits):
// values below kLinearLimit map to themselves; above, each power of two
// [2^k, 2^k+1) is split into kSubBuckets buckets of width 2^(k - kSubBits).
inline constexpr int kSubBits = 9;
inline constexpr std::uint64_t kSubBuckets = std::uint64_t{1} << kSubBits;  // 512
inline constexpr std::uint64_t kLinearLimit = kSubBuckets * 2;              // 1024
inline constexpr int kFirstLogExponent = kSubBits + 1;                      // 10
inline std::size_t bucket_of(std::int64_t value_ns) {
  const std::uint64_t v = value_ns < 0 ? 0 : static_cast<std::uint64_t>(value_ns);
  if (v < kLinearLimit) return static_cast<std::size_t>(v);
  const int k = static_cast<int>(std::bit_width(v)) - 1;          // 2^k <= v < 2^(k+1), k >= 10
  const std::uint64_t sub = (v >> (k - kSubBits)) - kSubBuckets;  // 0..511
  return static_cast<std::size_t>(
      kLinearLimit + static_cast<std::uint64_t>(k - kFirstLogExponent) * kSubBuckets + sub);
}
}  // namespace summary_detail

class Summary {
 public:
  // Inline (below): memsim adds nine values per simulated request, and the
  // call overhead and the serialisation of nine out-of-line calls were a
  // visible part of a replay's time (docs/benchmarks.md).
  void add(std::int64_t value_ns);
  // Afterwards *this summarises both streams.
  void merge(const Summary& other);

  std::int64_t count() const { return count_; }
  // All of the following return 0 when count() == 0.
  double mean() const { return mean_; }
  double sd() const;   // population standard deviation (divides by count)
  double scv() const;  // sd² / mean²; 0 when mean is 0
  std::int64_t min() const { return count_ == 0 ? 0 : min_; }
  std::int64_t max() const { return count_ == 0 ? 0 : max_; }

  // Nearest-rank percentile: the value v such that at least
  // ceil(pct * count / 100) values are <= v (rank at least 1), as represented
  // by its histogram bucket (see Precision above). pct is in [0, 100] and is
  // clamped into it; NaN is treated as 0.
  std::int64_t percentile(double pct) const;
  std::int64_t p50() const { return percentile(50.0); }
  std::int64_t p99() const { return percentile(99.0); }

 private:
  std::int64_t count_ = 0;
  double mean_ = 0.0;
  double m2_ = 0.0;  // sum of squared deviations from the mean
  std::int64_t min_ = std::numeric_limits<std::int64_t>::max();  // of no values
  std::int64_t max_ = std::numeric_limits<std::int64_t>::min();
  // Bucket counts, grown on demand up to the highest bucket used.
  std::vector<std::int64_t> buckets_;

  void grow(std::size_t bucket);  // out of line: rare
};

inline void Summary::add(std::int64_t value_ns) {
  // min_ and max_ start at the extremes, so the first value needs no branch.
  min_ = value_ns < min_ ? value_ns : min_;
  max_ = max_ < value_ns ? value_ns : max_;
  ++count_;
  // Welford (Knuth TAOCP vol. 2, §4.2.2): numerically stable running moments.
  const double x = static_cast<double>(value_ns);
  const double delta = x - mean_;
  mean_ += delta / static_cast<double>(count_);
  m2_ += delta * (x - mean_);

  const std::size_t b = summary_detail::bucket_of(value_ns);
  if (b >= buckets_.size()) grow(b);
  ++buckets_[b];
}

}  // namespace memstore::sim
