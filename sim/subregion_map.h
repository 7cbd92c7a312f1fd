// SPDX-License-Identifier: Apache-2.0
// The subregion map of thesis Fig. 6.7: "the average request service time
// (in milliseconds) for random requests starting and ending inside that
// subregion", for each of the 5 x 5 subregions of a tip's media region
// (§6.2.1). The figure's quantity is service time (positioning plus media
// transfer), not positioning alone; both are kept so the two can be told
// apart.
//
// The requests follow the thesis' "Random" workload (§6.1.1) as far as a
// subregion allows: sizes exponential with mean 4 KB, rounded up to whole
// blocks; 67% reads. Choices the caption leaves open:
// - "starting and ending inside that subregion": every block of a request
//   lies in the subregion's cylinders and rows and in one track (a request
//   crossing a track would leave the subregion's rows). A size that does
//   not fit every subregion (more blocks than the smallest subregion's rows
//   hold in a track: 50 on G2, i.e. above 25 KB, 0.2% of draws) is drawn
//   again, so every subregion sees the same sizes.
// - The requests are far apart (10 ms): none waits, so response = service.
// - The first request of each subregion brings the sled from its rest
//   position and pays the startup; it is not counted.
#pragma once

#include <cstdint>
#include <vector>

#include "base/expected.h"
#include "model/params.h"
#include "sim/layout.h"

namespace memstore::sim {

struct SubregionMapSpec {
  std::int64_t requests = 1000;  // counted requests per subregion
  double mean_size_kb = 4.0;     // §6.1.1: exponential sizes, mean 4 KB
  double read_fraction = 0.67;   // §6.1.1: 67% reads
  std::uint64_t seed = 1;
};

struct SubregionCell {
  int cx = 0;  // subregion along X (cylinders), 0..4
  int cy = 0;  // along Y (rows), 0..4
  Subregion area;
  std::int64_t requests = 0;
  double mean_blocks = 0;
  double service_ms = 0;  // Fig. 6.7's quantity
  double seek_ms = 0;     // positioning alone (X, Y, settle, turnarounds)
  double seek_x_ms = 0;
  double seek_y_ms = 0;
  double transfer_ms = 0;
};

// The 25 cells, row by row (cy, then cx). An error naming the problem when
// the spec is unusable or the device is not a one-sled MEMStore.
Expected<std::vector<SubregionCell>> measure_subregions(const model::DeviceParams& params,
                                                        const SubregionMapSpec& spec);

}  // namespace memstore::sim
