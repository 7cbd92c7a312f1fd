// SPDX-License-Identifier: Apache-2.0
// Synthetic workloads for the disk-array comparison (issue 19). Uysal, Merchant and Alvarez
// (FAST 2003) replay traces of real applications (abstract; §4); none is in the repository,
// so three synthetic loads stand in, each named for the kind of application it imitates:
//
//   random  the thesis' Random workload (Schlosser §6.1.1): uniform starts, exponential
//           sizes with a 4 KB mean, 67% reads. No locality: a cache cannot help.
//   oltp    transaction processing: 8 KB mean, 67% reads, 80% of the requests to a hot 2%
//           of the volume (the rest uniform), so a cache the size of one MEMStore holds the
//           hot set of a four-disk volume.
//   dss     decision support: 64 KB mean, 95% reads, in sequential runs of 16 requests
//           (each run starts at a uniform block; its requests follow one another).
//
// Arrivals are exponential with the given mean; the same spec gives the same requests.
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include "model/request.h"
#include "sim/rng.h"

namespace memstore::sim {

struct ArrayWorkloadSpec {
  std::int64_t requests = 0;
  double interarrival_ms = 10;
  double mean_size_kb = 4;
  double read_fraction = 0.67;
  double hot_fraction = 0;      // share of the volume that is hot (0: no hot set)
  double hot_share = 0;         // share of the requests (run starts) that go to it
  std::int32_t run_length = 1;  // requests per sequential run
  std::uint64_t seed = 1;
  std::int64_t capacity_blocks = 0;
};

// The named workloads above; nothing for another name.
std::optional<ArrayWorkloadSpec> array_workload(const std::string& name);
std::vector<std::string> array_workload_names();

class ArrayWorkload {
 public:
  // REQUIRES: requests >= 0, interarrival_ms > 0, mean_size_kb > 0, run_length >= 1,
  // capacity_blocks > 0.
  explicit ArrayWorkload(const ArrayWorkloadSpec& spec);
  std::optional<model::Request> next();

 private:
  ArrayWorkloadSpec spec_;
  Rng rng_;
  std::int64_t issued_ = 0;
  double arrival_ns_ = 0;
  model::Lbn run_next_ = 0;  // where the current sequential run goes on
  std::int32_t run_left_ = 0;
  bool run_read_ = true;
};

}  // namespace memstore::sim
