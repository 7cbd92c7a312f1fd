// SPDX-License-Identifier: Apache-2.0
// Random numbers the applications draw: the same sequence for a seed on
// every platform (mt19937_64's bits are fully specified; the reduction to a
// range is ours, since std::uniform_int_distribution's is not).
#pragma once

#include <cstdint>
#include <random>

namespace memstore::apps {

// Uniform in [0, n) by rejection sampling: unbiased. REQUIRES: n > 0.
inline std::uint64_t uniform_below(std::mt19937_64& rng, std::uint64_t n) {
  const std::uint64_t limit = UINT64_MAX - UINT64_MAX % n;
  std::uint64_t r;
  do {
    r = rng();
  } while (r >= limit);
  return r % n;
}

}  // namespace memstore::apps
