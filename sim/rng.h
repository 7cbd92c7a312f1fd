// SPDX-License-Identifier: Apache-2.0
// The draws every synthetic workload of memsim makes, on std::mt19937_64
// (fully specified by the standard) with the distributions written out here
// rather than std::*_distribution (whose algorithms are implementation-
// defined): the same seed gives the same workload on every platform. The one
// dependence left is libm's log1p (see sim/workload.h).
#pragma once

#include <cmath>
#include <cstdint>
#include <random>

namespace memstore::sim {

class Rng {
 public:
  explicit Rng(std::uint64_t seed) : engine_(seed) {}

  // [0, 1): the top 53 bits as a multiple of 2^-53, every double of that grid
  // equally likely, never 1.
  double uniform() { return static_cast<double>(engine_() >> 11) * 0x1.0p-53; }

  // mean * Exp(1) by inversion: 1 - u is in (0, 1], so log1p(-u) is finite.
  double exponential(double mean) { return -mean * std::log1p(-uniform()); }

  // [0, n), n > 0. Rejection (as OpenBSD's arc4random_uniform): the 2^64 mod
  // n lowest raw values are discarded so the remaining range is a multiple of n.
  std::uint64_t uniform_below(std::uint64_t n) {
    const std::uint64_t threshold = (0 - n) % n;
    for (;;) {
      const std::uint64_t x = engine_();
      if (x >= threshold) return x % n;
    }
  }

 private:
  std::mt19937_64 engine_;
};

}  // namespace memstore::sim
