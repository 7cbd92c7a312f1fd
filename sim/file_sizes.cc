// SPDX-License-Identifier: Apache-2.0
#include "sim/file_sizes.h"

#include <cmath>
#include <iterator>

namespace memstore::sim {
namespace {

struct Band {
  double upper_cdf;  // P(size <= hi)
  double lo_bytes;
  double hi_bytes;
};

constexpr double kKb = 1024.0;
// §6.2.3: P(<= 8 KB) = 0.78, P(> 64 KB) = 0.04, P(> 1 MB) = 0.0025.
constexpr Band kBands[] = {
    {0.78, 0.5 * kKb, 8 * kKb},
    {0.96, 8 * kKb, 64 * kKb},
    {0.9975, 64 * kKb, 1024 * kKb},
    {1.0, 1024 * kKb, static_cast<double>(kMaxFileBytes)},
};

}  // namespace

double file_size_bytes(double u) {
  double lower_cdf = 0.0;
  for (const Band& b : kBands) {
    if (u < b.upper_cdf || &b == &kBands[std::size(kBands) - 1]) {
      // Log-uniform inside the band.
      const double t = (u - lower_cdf) / (b.upper_cdf - lower_cdf);
      return b.lo_bytes * std::pow(b.hi_bytes / b.lo_bytes, t);
    }
    lower_cdf = b.upper_cdf;
  }
  return kBands[0].lo_bytes;  // not reached
}

}  // namespace memstore::sim
