// SPDX-License-Identifier: Apache-2.0
// Synthetic stand-ins for the two HP traces Wang and Brandt replay ("Using MEMS Device as
// Disk Write Buffer", §4), which are not available here. Each matches what the paper states
// of its trace and nothing more is claimed of it: they are stand-ins, not the traces.
//
//   snake-like  Snake server, disk 6 (an HP 97560, 1.3 GB), one day of 1992: 77,372
//               requests, 43% reads, "a little smaller than one request per second"; a
//               small data set; and the paper's remark that "a large amount of write
//               requests arrive in very small period of time", here as HP-UX's 30-second
//               sync flushing dirty blocks in bursts.
//   cello-like  Cello, a time-sharing server, a 17 GB Seagate disk, one day of 1999:
//               1,621,165 requests, 30.1% reads; a larger data set.
//
// The paper scales the Snake trace from one request per second to sixteen: every
// inter-arrival time is divided by the scaling factor (1-16).
//
// memsim's choices, the numbers the paper does not give (StandInSpec below): the data set
// (a hot region most requests fall in, the rest uniform over the traced disk's capacity,
// folded onto the simulated disk), request sizes (1 KB-aligned, mostly 8 KB blocks), the
// burst sizes and gaps, and Poisson arrivals outside the bursts (Cello: Poisson only, as
// the paper says nothing of bursts there).
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include "model/request.h"

namespace memstore::sim {

struct StandInSpec {
  std::string name;
  std::int64_t day_requests = 0;  // the paper's one-day request count
  double read_fraction = 0;       // the paper's
  std::int64_t disk_bytes = 0;    // the traced disk's capacity (the paper's)
  std::int64_t hot_bytes = 0;     // the data set most requests fall in (memsim's choice)
  double hot_write_share = 0;     // writes in it (memsim's choice)
  double hot_read_share = 0;      // reads in it (memsim's choice)
  double flush_period_s = 0;      // 0: no flush bursts
  double flush_write_share = 0;   // writes that come in the bursts (memsim's choice)
  double burst_gap_ms = 0;        // mean gap between a burst's writes (memsim's choice)
};

// "snake-like" or "cello-like"; nothing for another name.
std::optional<StandInSpec> stand_in(const std::string& name);

// The first `requests` requests (all of the day when 0 or more than a day's) of the
// stand-in, in arrival order, inter-arrival times divided by `scaling`, addresses within
// `capacity_blocks` 512-byte sectors (the simulated disk), widened to 1 KB boundaries.
std::vector<model::Request> stand_in_requests(const StandInSpec& spec, std::int64_t requests,
                                              double scaling, std::int64_t capacity_blocks,
                                              std::uint64_t seed);

}  // namespace memstore::sim
