// SPDX-License-Identifier: Apache-2.0
// Thesis §6.2.2, Fig. 6.8: "the request service times for a 256 KB read with
// respect to the X distance between the initial and final sled positions" on
// a G2 MEMStore. The excerpt describes no more of the method; the choices
// made here (docs/reproduction.md, "Large reads (Fig. 6.8)"):
// - Initial position: where the sled stands after reading one block chosen
//   uniformly over the device, as after a request of §6.1.1's Random workload
//   (its starts are "uniformly distributed across the device's capacity").
// - The read: 256 KB from a start block chosen uniformly among those whose
//   whole read fits on the device, as §6.1.1's starts; each read is served
//   alone (no queue), so its response is its service time.
// - Final position: where the sled must be to read the first block, so the X
//   distance is the X seek's length in cylinders, |x(first) - x(initial)|.
// - Service time = positioning + media transfer + the track and cylinder
//   switches inside the read (Breakdown::service_ns); the sled never spins
//   down between reads (the figure is about positioning, not startup).
//
// The disk half (§6.2.2: "seek distance is a significant issue with disks,
// where long seeks more than double the total service time for 256 KB
// requests"): the same reads on a zoned disk with DiskSim's validated
// parameters (model/disk_presets.h). The head stands on the cylinder and
// surface of the block just read; the platter's angle is uniform (the read
// starts at a time drawn uniformly over one revolution); the X distance is
// the arm's seek in cylinders. Service is the media pass alone (seek, settle,
// rotational latency, the sectors and the track switches inside the read):
// the controller overhead and bus transfer are the same at every distance and
// are left out, so the on-board cache plays no part.
#pragma once

#include <cstdint>
#include <vector>

#include "base/expected.h"
#include "model/disk_presets.h"
#include "model/params.h"

namespace memstore::sim {

struct LargeReadSpec {
  std::int64_t requests = 2000;  // reads, each from its own random initial position
  std::int64_t size_kb = 256;    // Fig. 6.8's size
  std::uint64_t seed = 1;
};

struct LargeReadSample {
  std::int32_t x_distance = 0;  // cylinders between the initial position and the first block
  double service_ms = 0;        // Fig. 6.8's quantity: seek_ms + media_ms
  double seek_ms = 0;           // positioning before the first row (disk: seek + latency)
  double media_ms = 0;          // transfer plus the switches inside the read
};

// One sample per read, in the order drawn. An error naming the problem when
// the spec is unusable or the device is not a one-sled MEMStore.
Expected<std::vector<LargeReadSample>> measure_large_reads(const model::DeviceParams& params,
                                                           const LargeReadSpec& spec);

// The same on a zoned disk (see above); the X distance is in the disk's cylinders.
Expected<std::vector<LargeReadSample>> measure_disk_large_reads(
    const model::ZonedDiskParams& params, const LargeReadSpec& spec);

}  // namespace memstore::sim
