// SPDX-License-Identifier: Apache-2.0
// memsim run --workload files --layout NAME (the thesis' layout comparison,
// §6.2.3) and memsim subregions (the subregion map, §6.2.1 and Fig. 6.7).
#include <cmath>
#include <cstdio>
#include <iostream>

#include "sim/commands.h"
#include "sim/file_workload.h"
#include "sim/pipelined_simulate.h"
#include "sim/random_run.h"
#include "sim/simulate.h"

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
  if (a.requests <= 0 || !(a.size_kb > 0) || !std::isfinite(a.size_kb)) {
    std::cerr << "memsim: --requests and --size-kb must be positive\n";
    return 2;
  }
  // The map measures positioning between requests inside one subregion: the
  // sled must not spin down and restart from its rest position between them.
  DeviceOptions o = a.device;
  o.set.push_back("power.idle_timeout_ns=-1");
  const auto params = mems_params(o, "subregions");
  if (!params) return 2;
  const model::Geometry g(*params);
  const auto blocks = static_cast<std::int32_t>(std::ceil(a.size_kb * 1024 / params->block_bytes));
  {
    Rng probe(0);
    if (g.sleds() != 1 || !place_in_subregion(g, subregion(g, 0, 0), blocks, probe)) {
      std::cerr << "memsim: subregions: needs one sled and --size-kb within a subregion's rows "
                   "of one track ("
                << (subregion(g, 0, 0).y_end - subregion(g, 0, 0).y_begin) * g.p()
                << " blocks here)\n";
      return 2;
    }
  }
  std::printf(
      "cx,cy,x_begin,x_end,y_begin,y_end,requests,mean_seek_ms,mean_seek_x_ms,mean_seek_y_ms,"
      "mean_service_ms\n");
  // Requests 10 ms apart: far more than a service time, so none waits.
  constexpr model::Ns kGapNs = 10'000'000;
  for (int cy = 0; cy < kSubregionsPerSide; ++cy) {
    for (int cx = 0; cx < kSubregionsPerSide; ++cx) {
      auto device = device_or_report(o);
      if (!device) return 2;
      const Subregion s = subregion(g, cx, cy);
      Rng rng(a.seed);
      std::int64_t issued = 0;
      RunStats cell;
      // Request 0 brings the sled from its rest position into the
      // subregion and pays the startup; it is not counted.
      const auto count = [&cell](const model::Completion& c) {
        if (c.request.id != 0) cell.add(c);
      };
      simulate(
          *device,
          [&]() -> std::optional<model::Request> {
            if (issued > a.requests) return std::nullopt;
            model::Request r;
            r.id = static_cast<std::uint64_t>(issued);
            r.arrival_ns = issued * kGapNs;
            r.lbn = *place_in_subregion(g, s, blocks, rng);
            r.blocks = blocks;
            ++issued;
            return r;
          },
          count);
      std::printf("%d,%d,%d,%d,%d,%d,%lld,%.6f,%.6f,%.6f,%.6f\n", cx, cy, s.x_begin, s.x_end,
                  s.y_begin, s.y_end, static_cast<long long>(cell.requests),
                  cell[Metric::kSeek].mean() / 1e6, cell[Metric::kSeekX].mean() / 1e6,
                  cell[Metric::kSeekY].mean() / 1e6, cell[Metric::kService].mean() / 1e6);
    }
  }
  return 0;
}

}  // namespace memstore::sim
