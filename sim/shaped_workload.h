// SPDX-License-Identifier: Apache-2.0
// Synthetic workloads shaped like the traces of the power paper (second
// paper, ACM ToS 2005, §4.2 and §5.2), which this project does not have:
//
//   user    shaped like hplajw, a personal workstation: "sequentially-accessed
//           ... user workload" (§4.2.2), long idle periods between bursts;
//   server  shaped like cello, a timesharing server: "randomly-accessed ...
//           server workload" (§4.2.2), busier, shorter gaps;
//   mobile  the mobile computing workloads that "exhibit strong sequential
//           data access patterns" (§5.2.2), with small metadata requests
//           (§5.2.3: subsector accesses serve requests smaller than a
//           512-byte sector).
//
// The excerpt gives these descriptions only, no numbers: every number in a
// shape (kShapes in shaped_workload.cc) is memstore's choice and is listed
// in docs/reproduction.md beside the description it follows.
//
// A workload is a train of bursts. A burst has a geometric number of
// requests separated by short exponential gaps; bursts are separated by long
// exponential idle gaps. Each request is a metadata request (a few bytes to
// a few hundred: less than one block) or a data request (exponential size,
// rounded up to whole blocks as file systems transfer data). A data request
// continues the previous data request (the next LBN, the same operation)
// with the shape's sequential probability, else starts at a uniform LBN;
// metadata requests are reads at a uniform LBN, of one block of which they
// need only their bytes (Request::tail_bytes, for subsector accesses).
//
// `scale` divides every gap, as the paper replays its traces faster.
// Draws come from sim::Rng, so a seed gives the same requests everywhere.
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "model/request.h"
#include "sim/rng.h"

namespace memstore::sim {

struct WorkloadShape {
  const char* name;
  double read_fraction;             // of data requests; metadata requests are reads
  double metadata_fraction;         // requests for less than a block
  std::int32_t metadata_max_bytes;  // metadata sizes uniform in [16, this]
  double data_mean_kb;              // exponential data request size
  double sequential;                // probability a data request continues the last
  double burst_mean_requests;       // geometric burst length (mean)
  double in_burst_gap_ms;           // exponential gap inside a burst (mean)
  double idle_gap_ms;               // exponential gap between bursts (mean)
};

// "user", "server", "mobile"; nullopt for another name.
std::optional<WorkloadShape> workload_shape(std::string_view name);
std::vector<std::string> workload_shape_names();

struct ShapedWorkloadSpec {
  WorkloadShape shape{};
  std::int64_t requests = 0;
  double scale = 1.0;  // divides every gap
  std::uint64_t seed = 1;
  std::int64_t capacity_blocks = 0;
  std::int32_t block_bytes = 512;
};

// Everything wrong with `spec`, each naming the memsim option.
std::vector<std::string> validate(const ShapedWorkloadSpec& spec);

class ShapedWorkload {
 public:
  // REQUIRES: validate(spec).empty().
  explicit ShapedWorkload(const ShapedWorkloadSpec& spec);
  std::optional<model::Request> next();

 private:
  ShapedWorkloadSpec spec_;
  Rng rng_;
  std::int64_t issued_ = 0;
  double arrival_ns_ = 0;
  model::Lbn sequential_next_ = -1;  // where the last data request ended
  model::Op sequential_op_ = model::Op::kRead;
};

}  // namespace memstore::sim
