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

#include <cstdint>
#include <vector>

namespace memstore::sim {

class Summary {
 public:
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
  std::int64_t min_ = 0;
  std::int64_t max_ = 0;
  // Bucket counts, grown on demand up to the highest bucket used.
  std::vector<std::int64_t> buckets_;
};

}  // namespace memstore::sim
