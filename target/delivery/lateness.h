// How late a transport delivered its timed completions (realtime and scaled
// timing): count, mean and maximum, in ns. A delivery is never early (the
// engine compares each instant with the clock), so every figure is >= 0
// unless the clock itself is broken.
#pragma once

#include <algorithm>
#include <cstdint>

namespace memstore::delivery {

struct Lateness {
  std::uint64_t count = 0;
  std::int64_t max_ns = 0;
  long double sum_ns = 0;  // exact enough for years of nanoseconds

  void add(std::int64_t late_ns) {
    ++count;
    sum_ns += static_cast<long double>(late_ns);
    max_ns = std::max(max_ns, late_ns);
  }
  double mean_ns() const { return count == 0 ? 0.0 : static_cast<double>(sum_ns / count); }
};

}  // namespace memstore::delivery
