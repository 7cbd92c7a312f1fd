// SPDX-License-Identifier: Apache-2.0
// Seed 003's microbenchmark; described in the header.
#include "sim/microbench.h"

#include <cstdio>
#include <memory>

#include "sim/random_run.h"

namespace memstore::sim {

std::vector<std::string> microbench_devices() {
  return {"cheetah4lp", "superdisk", "asplos99-g1", "asplos99-g2", "asplos99-g3"};
}

RandomWorkloadSpec microbench_workload(const MicrobenchSpec& spec) {
  RandomWorkloadSpec w;
  w.requests = spec.requests;
  w.interarrival_ms = 1000.0 / spec.rate_per_s;  // mean gap of a Poisson arrival process
  w.mean_size_kb = spec.mean_size_kb;
  w.read_fraction = spec.read_fraction;
  w.seed = spec.seed;
  return w;
}

MicrobenchRow microbench_row(const std::string& device, const RunStats& stats) {
  const Summary response = stats[Metric::kResponse];
  const Summary access = stats[Metric::kService];
  MicrobenchRow row;
  row.device = device;
  row.requests = stats.requests;
  row.reads = stats.reads;
  row.mean_response_ms = response.mean() / 1e6;
  row.sd_response_ms = response.sd() / 1e6;
  row.mean_access_ms = access.mean() / 1e6;
  row.sd_access_ms = access.sd() / 1e6;
  row.cov_access = access.mean() > 0 ? access.sd() / access.mean() : 0;
  return row;
}

std::optional<MicrobenchRow> run_microbench(const std::string& device, const MicrobenchSpec& spec,
                                            std::ostream* trace) {
  DeviceOptions o;
  o.device = device;
  o.scheduler = spec.scheduler;
  RandomWorkloadSpec w = microbench_workload(spec);
  const std::unique_ptr<model::Device> d = prepare_random(o, w);
  if (!d) return std::nullopt;
  return microbench_row(device, simulate_random(*d, w, trace));
}

std::string microbench_csv_header() {
  return "device,requests,reads,mean_response_ms,sd_response_ms,mean_access_ms,sd_access_ms,"
         "cov_access";
}

std::string microbench_csv_line(const MicrobenchRow& r) {
  char buf[256];
  std::snprintf(buf, sizeof buf, "%s,%lld,%lld,%.6f,%.6f,%.6f,%.6f,%.6f", r.device.c_str(),
                static_cast<long long>(r.requests), static_cast<long long>(r.reads),
                r.mean_response_ms, r.sd_response_ms, r.mean_access_ms, r.sd_access_ms,
                r.cov_access);
  return buf;
}

}  // namespace memstore::sim
