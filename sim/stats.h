// SPDX-License-Identifier: Apache-2.0
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
#include <utility>
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
// For v >= 2^k, k >= 10 (2^k <= v < 2^(k+1)) the bucket is
//   kLinearLimit + (k - 10) kSubBuckets + (v >> (k - 9)) - kSubBuckets
//   = s kSubBuckets + (v >> s), with s = k - 9 = bit_width(v) - 10;
// below kLinearLimit the same form with s = 0 gives v itself. bit_width(v |
// 2^9) - 10 is that s in both cases, so one expression covers every value
// with no branch: for the metrics that are 0 in some requests and not in
// others (queue, turnaround) a test of the range would be a branch on the
// data.
inline std::size_t bucket_of(std::int64_t value_ns) {
  const std::uint64_t v = value_ns < 0 ? 0 : static_cast<std::uint64_t>(value_ns);
  const int s = static_cast<int>(std::bit_width(v | kSubBuckets)) - kFirstLogExponent;
  return static_cast<std::size_t>(static_cast<std::uint64_t>(s) * kSubBuckets + (v >> s));
}

// For i < lanes, the running moments of lane i take
// values[i] as the n-th value, exactly as Summary::add does it:
//   delta = x - mean[i]; mean[i] += delta / n; m2[i] += delta * (x - mean[i]).
// Four lanes at a time with AVX when the CPU has it (chosen at run time;
// only AVX is enabled, not FMA, so every operation is rounded as in the
// scalar code and each lane's value is bit-identical to Summary::add's).
// allow_avx = false forces the scalar path (for the tests).
void welford_lanes(const std::int64_t* values, double* mean, double* m2, double n,
                   std::size_t lanes, bool allow_avx = true);
}  // namespace summary_detail

class Summary {
 public:
  Summary() = default;
  // Inline (below): it runs once per value. (memsim's nine per-request
  // metrics go through SummarySet, further down, which gives the same values.)
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
  template <std::size_t N>
  friend class SummarySet;
  Summary(std::int64_t count, double mean, double m2, std::int64_t min, std::int64_t max,
          std::vector<std::int64_t> buckets)
      : count_(count), mean_(mean), m2_(m2), min_(min), max_(max), buckets_(std::move(buckets)) {}

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

// N summaries that always take one value each at a time (memsim's nine
// per-request metrics, sim/report.h), kept as arrays: the count is shared,
// and the N running means and squared deviations sit side by side, so their
// Welford updates take N/4 four-wide AVX divisions (and N % 4 scalar ones)
// instead of N scalar ones (docs/benchmarks/log/2026-11-27.md, "Toward 40x,
// second step").
// Every summary it gives is bit-identical to a Summary that had add() called
// with the same values in the same order.
template <std::size_t N>
class SummarySet {
 public:
  SummarySet() {
    for (std::size_t i = 0; i < N; ++i) {
      min_[i] = std::numeric_limits<std::int64_t>::max();  // as Summary's
      max_[i] = std::numeric_limits<std::int64_t>::min();
      // Bucket 0 from the start: a first value equal to the initial max_
      // (the lowest int64) grows nothing and lands there.
      buckets_[i].resize(1, 0);
    }
  }
  void add(const std::int64_t (&values)[N]) {
    ++count_;
    for (std::size_t i = 0; i < N; ++i) {
      const std::int64_t v = values[i];
      min_[i] = v < min_[i] ? v : min_[i];
      // bucket_of never decreases with the value, so the buckets up to the
      // maximum's hold every value seen: they only grow with a new maximum,
      // which is rare once the run has begun.
      if (max_[i] < v) [[unlikely]] {
        grow(i, v);
      }
      ++buckets_[i][summary_detail::bucket_of(v)];
    }
    summary_detail::welford_lanes(values, mean_, m2_, static_cast<double>(count_), N);
  }
  // Summary i, as if it had been fed on its own. REQUIRES: i < N.
  Summary operator[](std::size_t i) const {
    return Summary(count_, mean_[i], m2_[i], min_[i], max_[i], buckets_[i]);
  }
  std::int64_t count() const { return count_; }

 private:
  std::int64_t count_ = 0;
  double mean_[N] = {};
  double m2_[N] = {};
  std::int64_t min_[N];
  std::int64_t max_[N];
  // Summary's buckets_, each up to the bucket of max_[i].
  std::vector<std::int64_t> buckets_[N];

  void grow(std::size_t i, std::int64_t new_max) {
    max_[i] = new_max;
    const std::size_t b = summary_detail::bucket_of(new_max);
    if (b >= buckets_[i].size()) buckets_[i].resize(b + 1, 0);
  }
};

}  // namespace memstore::sim
