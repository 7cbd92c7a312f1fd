// SPDX-License-Identifier: Apache-2.0
// File sizes for the thesis' layout experiment (§6.2.3): "sizes drawn from
// the file size distribution reported in [Ganger and Kaashoek 1997]. In this
// size distribution, 78% of files are 8 KB or smaller, 4% are larger than
// 64 KB, and 0.25% are larger than 1 MB."
//
// The thesis gives only those three points of the distribution, as fractions
// of files above a size: P(> 512 B) = 1 (one block), P(> 8 KB) = 0.22,
// P(> 64 KB) = 0.04, P(> 1 MB) = 0.0025. memsim joins them with power laws,
// straight lines on the log-log plot of P(> x), the usual shape of file-size
// tails: inside a band (lo, hi], P(> x) = P(> lo) (x / lo)^-alpha with alpha
// set by the band's two published points (0.546, 0.820 and 1.0). The last
// band, (1, 8] MB, keeps the previous band's alpha = 1 and is truncated at
// 8 MB. The bounds at 0.5 KB and 8 MB, and the power-law shape, are memsim's
// choices; the thesis names none (docs/reproduction.md, "Layouts"). Mean
// size: 18.3 KB.
#pragma once

#include <cstdint>

namespace memstore::sim {

inline constexpr std::int64_t kSmallFileMaxBytes = 8 * 1024;    // "8 KB or smaller" (§6.2.3)
inline constexpr std::int64_t kMaxFileBytes = 8 * 1024 * 1024;  // memsim's bound, see above

// The size in bytes for a uniform draw u in [0, 1): the inverse of the
// distribution above, so that sizes are non-decreasing in u.
double file_size_bytes(double u);

}  // namespace memstore::sim
