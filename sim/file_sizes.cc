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
  double alpha;  // P(> x) falls as x^-alpha inside the band
};

constexpr double kKb = 1024.0;
// §6.2.3: P(<= 8 KB) = 0.78, P(> 64 KB) = 0.04, P(> 1 MB) = 0.0025; alpha =
// ln(P(> lo) / P(> hi)) / ln(hi / lo) for the first three bands (see the header).
const Band kBands[] = {
    {0.78, 0.5 * kKb, 8 * kKb, std::log(1.0 / 0.22) / std::log(16.0)},
    {0.96, 8 * kKb, 64 * kKb, std::log(0.22 / 0.04) / std::log(8.0)},
    {0.9975, 64 * kKb, 1024 * kKb, std::log(0.04 / 0.0025) / std::log(16.0)},
    {1.0, 1024 * kKb, static_cast<double>(kMaxFileBytes), std::log(0.04 / 0.0025) / std::log(16.0)},
};

}  // namespace

double file_size_bytes(double u) {
  double lower_cdf = 0.0;
  for (const Band& b : kBands) {
    if (u < b.upper_cdf || &b == &kBands[std::size(kBands) - 1]) {
      // The inverse of the band's power law truncated to (lo, hi]: a fraction
      // t of the band's files lies below x where x^-alpha = lo^-alpha -
      // t (lo^-alpha - hi^-alpha).
      const double t = (u - lower_cdf) / (b.upper_cdf - lower_cdf);
      const double lo = std::pow(b.lo_bytes, -b.alpha);
      const double hi = std::pow(b.hi_bytes, -b.alpha);
      return std::pow(lo - t * (lo - hi), -1.0 / b.alpha);
    }
    lower_cdf = b.upper_cdf;
  }
  return kBands[0].lo_bytes;  // not reached
}

}  // namespace memstore::sim
