// SPDX-License-Identifier: Apache-2.0
// File sizes for the thesis' layout experiment (§6.2.3): "sizes drawn from
// the file size distribution reported in [Ganger and Kaashoek 1997]. In this
// size distribution, 78% of files are 8 KB or smaller, 4% are larger than
// 64 KB, and 0.25% are larger than 1 MB."
//
// The thesis gives only those three points of the distribution. memsim fills
// in the rest as log-uniform within each band, which meets the three points
// exactly: (0.5, 8] KB with probability 0.78, (8, 64] KB 0.18, (64, 1024] KB
// 0.0375 and (1, 8] MB 0.0025. The bounds at 0.5 KB (one block) and 8 MB are
// memsim's choices; the thesis names neither.
#pragma once

#include <cstdint>

namespace memstore::sim {

inline constexpr std::int64_t kSmallFileMaxBytes = 8 * 1024;    // "8 KB or smaller" (§6.2.3)
inline constexpr std::int64_t kMaxFileBytes = 8 * 1024 * 1024;  // memsim's bound, see above

// The size in bytes for a uniform draw u in [0, 1): the inverse of the
// distribution above, so that sizes are non-decreasing in u.
double file_size_bytes(double u);

}  // namespace memstore::sim
