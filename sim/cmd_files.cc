// SPDX-License-Identifier: Apache-2.0
// memsim run --workload files --layout NAME (the thesis' layout comparison,
// §6.2.3) and memsim subregions (the subregion map of service time, §6.2.1
// and Fig. 6.7; sim/subregion_map.h).
#include <cstdio>
#include <iostream>

#include "sim/commands.h"
#include "sim/file_workload.h"
#include "sim/pipelined_simulate.h"
#include "sim/random_run.h"
#include "sim/simulate.h"
#include "sim/subregion_map.h"

namespace memstore::sim {
namespace {

// The geometry of the MEMStore `o` describes, or nullopt after reporting
// that it is no MEMStore (the comparison disks have no media to lay out).
std::optional<model::DeviceParams> mems_params(const DeviceOptions& o, const char* what) {
  auto params = resolve_params(o);
  if (!params.ok()) {
    std::cerr << "memsim: " << what << ": " << params.error().message << "\n";
    return std::nullopt;
  }
  return *params;
}

}  // namespace

int run_files(const RunArgs& a) {
  if (a.workload != "files") {
    std::cerr << "memsim: --layout places the files workload; use --workload files (or leave "
                 "--workload out)\n";
    return 2;
  }
  if (!a.write_trace.empty()) {
    std::cerr << "memsim: --write-trace writes the random workload only\n";
    return 2;
  }
  FileWorkloadSpec spec;
  if (!a.layout.empty()) {
    const auto layout = parse_layout(a.layout);
    if (!layout) {
      std::cerr << "memsim: --layout: unknown layout '" << a.layout << "'; use one of "
                << layout_names() << "\n";
      return 2;
    }
    spec.layout = *layout;
  }
  const auto params = mems_params(a.device, "--layout");
  if (!params) return 2;
  const model::Geometry geometry(*params);
  spec.requests = a.requests;
  spec.interarrival_ms = a.interarrival_ms;
  spec.popularity_mean_fraction = a.popularity_mean;
  spec.seed = a.seed;
  spec.block_bytes = params->block_bytes;
  const std::vector<std::string> problems = validate(spec, geometry);
  for (const std::string& e : problems) std::cerr << "memsim: " << e << "\n";
  if (!problems.empty()) return 2;
  auto device = device_or_report(a.device);
  if (!device) return 2;
  FileWorkload workload(spec, geometry);
  const RunStats stats = simulate_pipelined(
      *device, [&workload] { return workload.next(); }, simulation_threads(a.threads));
  const std::string label = std::string("files, layout ") + layout_name(spec.layout);
  return print_run(stats, {a.device.device, a.device.scheduler, label}, a.format);
}

int cmd_subregions(const SubregionsArgs& a) {
  // The map measures positioning between requests inside one subregion: the
  // sled must not spin down and restart from its rest position between them.
  DeviceOptions o = a.device;
  o.set.push_back("power.idle_timeout_ns=-1");
  const auto params = mems_params(o, "subregions");
  if (!params) return 2;
  SubregionMapSpec spec;
  spec.requests = a.requests;
  spec.mean_size_kb = a.mean_size_kb;
  spec.read_fraction = a.read_fraction;
  spec.seed = a.seed;
  const auto cells = measure_subregions(*params, spec);
  if (!cells.ok()) {
    std::cerr << "memsim: subregions: " << cells.error().message << "\n";
    return 2;
  }
  // Fig. 6.7 shows service time; it comes first, positioning after it.
  std::cout << "cx,cy,x_begin,x_end,y_begin,y_end,requests,mean_blocks,mean_service_ms,"
               "mean_seek_ms,mean_seek_x_ms,mean_seek_y_ms,mean_transfer_ms\n";
  char line[256];
  for (const SubregionCell& c : *cells) {
    std::snprintf(line, sizeof line, "%d,%d,%d,%d,%d,%d,%lld,%.4f,%.6f,%.6f,%.6f,%.6f,%.6f\n", c.cx,
                  c.cy, c.area.x_begin, c.area.x_end, c.area.y_begin, c.area.y_end,
                  static_cast<long long>(c.requests), c.mean_blocks, c.service_ms, c.seek_ms,
                  c.seek_x_ms, c.seek_y_ms, c.transfer_ms);
    std::cout << line;
  }
  return 0;
}

}  // namespace memstore::sim
