// SPDX-License-Identifier: Apache-2.0
// memsim paper-array's options (sim/cmd_paper_array.cc).
#pragma once

#include <cstdint>
#include <string>
#include <vector>

namespace memstore::sim {

// Figures 5, 6 and 10 of Uysal, Merchant and Alvarez (FAST 2003) on the paper's own
// architectures and methods (sim/paper_array.h, sim/paper_setup.h). CSV.
struct PaperArrayArgs {
  std::int64_t figure = 5;
  std::int64_t max_requests = 20000;                             // per maximum-throughput run
  std::int64_t half_requests = 10000;                            // per normal-usage run (Figure 5)
  std::vector<double> read_fractions = {0, 0.25, 0.5, 0.75, 1};  // Figure 6
  std::vector<std::int64_t> ks = {0, 1, 2, 4};                   // Figure 6: LogDisk+K
  std::uint64_t seed = 1;
  // The LU in banks of MEMS chips; every capacity scales with it (sim/paper_setup.h). 4 is
  // memsim's default scale; 50 gives the paper's 2 TB of raw disk (100 disk20k drives); 2 is
  // the least (MEMScache's RAID 5 needs 3 chips).
  std::int32_t banks = 4;
  std::string max_from;  // Figure 10: Figure 5's CSV, whose maximum throughputs it uses
  // §4.3.3: a trace replayed open-loop on every Figure 5 configuration, its inter-arrival
  // times divided by each scale factor.
  std::string trace;
  std::string trace_format = "disksim";
  std::vector<double> scales = {1};
};
int cmd_paper_array(const PaperArrayArgs& a);

}  // namespace memstore::sim
