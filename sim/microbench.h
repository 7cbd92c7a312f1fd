// SPDX-License-Identifier: Apache-2.0
// Seed 003's microbenchmark (Schlosser, Griffin, Nagle and Ganger, "Designing computer systems
// with MEMS-based storage", ASPLOS IX, §3.2 and Fig. 5): "a set of 10,000 random requests. Two
// thirds of the requests were reads, and the arrival rate was 20 requests per second." Fig. 5
// plots each device's average total response time with its variation; the text gives the
// coefficient of variation of the access times.
//
// The method's figures are MicrobenchSpec's defaults. What the paper leaves open, and the
// choice made here (docs/reproduction.md, "Seed 003"):
// - arrivals are a Poisson process (exponential gaps, mean 1/rate): "arrival rate" and
//   DiskSim's synthetic generator, which the paper used, whose general inter-arrival times
//   are exponential;
// - request sizes are exponential with a mean of 4 KB, rounded up to whole blocks, and start
//   blocks uniform over the device: the thesis' Random workload (sim/workload.h), which is
//   also what DiskSim's validated Cheetah 4LP parameter file asks its generator for (sizes
//   exponential, mean 8 blocks);
// - FCFS at the device (the validated Cheetah's "Scheduling policy = 1");
// - "access time" is the service time (positioning and transfer, without the queue), and
//   "variation" the population standard deviation.
#pragma once

#include <cstdint>
#include <iosfwd>
#include <optional>
#include <string>
#include <vector>

#include "sim/device_options.h"
#include "sim/report.h"
#include "sim/workload.h"

namespace memstore::sim {

struct MicrobenchSpec {
  std::int64_t requests = 10'000;  // §3.2: "a set of 10,000 random requests"
  double read_fraction = 2.0 / 3;  // §3.2: "Two thirds of the requests were reads"
  double rate_per_s = 20;          // §3.2: "the arrival rate was 20 requests per second"
  double mean_size_kb = 4;         // not in the paper: the thesis' Random workload
  std::uint64_t seed = 1;
  std::string scheduler = "fcfs";
};

// Fig. 5's devices in its order: the Cheetah 4LP, the SuperDisk, and G1, G2, G3 (Table 1).
std::vector<std::string> microbench_devices();

// The Random workload spec the method asks for (capacity left for the device to fill in).
RandomWorkloadSpec microbench_workload(const MicrobenchSpec& spec);

// One device's result: what Fig. 5 and its text report.
struct MicrobenchRow {
  std::string device;
  std::int64_t requests = 0;
  std::int64_t reads = 0;
  double mean_response_ms = 0;
  double sd_response_ms = 0;
  double mean_access_ms = 0;
  double sd_access_ms = 0;
  double cov_access = 0;  // sd / mean of the access (service) time
};

// Runs the method on one device; nullopt after reporting an unknown device on stderr.
// `trace`, if not null, receives the requests as DiskSim lines (sim/trace.h), which
// bench/asplos99-microbench replays against a live LUN.
std::optional<MicrobenchRow> run_microbench(const std::string& device, const MicrobenchSpec& spec,
                                            std::ostream* trace = nullptr);
// The row from a run's statistics.
MicrobenchRow microbench_row(const std::string& device, const RunStats& stats);

std::string microbench_csv_header();
std::string microbench_csv_line(const MicrobenchRow& row);

}  // namespace memstore::sim
