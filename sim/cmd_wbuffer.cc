// SPDX-License-Identifier: Apache-2.0
// memsim wbuffer: Wang and Brandt's "Using MEMS Device as Disk Write Buffer" (§4): the
// Atlas 10K behind a G2 write buffer at each cache size, the Atlas alone, and a G2 that
// replaces the disk, on a stand-in for one of the paper's traces (or a trace, or a random
// load), its inter-arrival times divided by each scaling factor (docs/disk-models.md,
// "The MEMS write buffer").
#include <cstdio>
#include <fstream>
#include <iostream>
#include <nlohmann/json.hpp>

#include "model/device_factory.h"
#include "sim/commands.h"
#include "sim/hybrid.h"
#include "sim/progress.h"
#include "sim/trace.h"
#include "sim/wbuffer_workloads.h"
#include "sim/workload.h"

namespace memstore::sim {
namespace {

struct Row {
  double speedup = 0;
  std::string system;  // disk, mems, buffer
  std::int64_t cache_mb = 0;
  HybridStats s;
};

std::unique_ptr<model::Device> device_or_report(const std::string& name) {
  DeviceOptions o;
  o.device = name;
  auto d = build_device(o);
  if (!d.ok()) {
    std::cerr << "memsim: " << d.error().message << "\n";
    return nullptr;
  }
  return std::move(d).value();
}

nlohmann::ordered_json row_json(const Row& r) {
  const HybridStats& s = r.s;
  return {{"speedup", r.speedup},
          {"system", r.system},
          {"cache_mb", r.cache_mb},
          {"requests", s.requests},
          {"reads", s.reads},
          {"response_ms", s.mean_response_ms()},
          {"read_ms", s.mean_read_ms()},
          {"write_ms", s.mean_write_ms()},
          {"mems_requests", s.mems_requests},
          {"disk_requests", s.disk_requests},
          {"read_hits", s.read_hits},
          {"partial_read_hits", s.partial_read_hits},
          {"bypassed_writes", s.bypassed_writes},
          {"segments_cleaned", s.segments_cleaned},
          {"waited", s.waited}};
}

// The requests of one scaling factor, read or generated once for every system.
std::optional<std::vector<model::Request>> load(const WbufferArgs& a, double speedup,
                                                std::int64_t disk_blocks) {
  std::vector<model::Request> out;
  if (!a.trace.empty()) {
    std::ifstream in(a.trace);
    TraceOptions to;
    to.scale = speedup;
    to.capacity_blocks = disk_blocks;  // blocks beyond the disk fold into it
    TraceReader reader(in, *parse_trace_format(a.trace_format), to);
    const RequestSource next = requests_of(reader);
    while (auto r = next()) out.push_back(*r);
    if (const Status read = reader.status(); !read.ok()) {
      std::cerr << "memsim: " << a.trace << ": " << read.error().message << "\n";
      return std::nullopt;
    }
    return out;
  }
  if (const auto spec = stand_in(a.workload)) {
    return stand_in_requests(*spec, a.requests, speedup, disk_blocks, a.seed);
  }
  RandomWorkloadSpec spec;
  spec.requests = a.requests;
  spec.interarrival_ms = a.interarrival_ms / speedup;
  spec.mean_size_kb = a.mean_size_kb;
  spec.read_fraction = a.read_fraction;
  spec.seed = a.seed;
  spec.capacity_blocks = disk_blocks;
  if (const auto errors = validate(spec); !errors.empty()) {
    std::cerr << "memsim: " << errors.front() << "\n";
    return std::nullopt;
  }
  RandomWorkload w(spec);
  while (auto r = w.next()) out.push_back(*r);
  return out;
}

}  // namespace

int cmd_wbuffer(const WbufferArgs& a) {
  if (a.buffer.low_water >= a.buffer.high_water || a.buffer.high_water > 1 ||
      a.buffer.high_water <= 0) {
    std::cerr << "memsim: --low-water and --high-water must satisfy low < high <= 1 (a "
                 "negative low: one clean buffer below high)\n";
    return 2;
  }
  if (a.trace.empty() && !stand_in(a.workload) && a.workload != "random") {
    std::cerr << "memsim: --workload must be snake-like, cello-like or random\n";
    return 2;
  }
  if (!a.trace.empty()) {
    if (!parse_trace_format(a.trace_format)) {
      std::cerr << "memsim: --trace-format must be disksim or spc\n";
      return 2;
    }
    if (!std::ifstream(a.trace)) {
      std::cerr << "memsim: --trace: cannot open " << a.trace << "\n";
      return 1;
    }
  }
  auto probe_disk = device_or_report(a.disk);
  auto probe_mems = device_or_report(a.mems);
  if (!probe_disk || !probe_mems) return 2;
  for (std::int64_t mb : a.cache_mb) {
    if (mb < 1 || mb * 8 * kSegmentBlocks > probe_mems->blocks()) {
      std::cerr << "memsim: --cache-mb: " << mb << " MB does not fit on " << a.mems << " (at most "
                << probe_mems->blocks() / kSegmentBlocks / 8 << ")\n";
      return 2;
    }
  }
  std::vector<Row> rows;
  Progress progress("memsim wbuffer",
                    static_cast<std::int64_t>(a.speedups.size() * (a.cache_mb.size() + 2)), "runs");
  for (double speedup : a.speedups) {
    if (!(speedup > 0)) {
      std::cerr << "memsim: --speedups must be positive\n";
      return 2;
    }
    const auto requests = load(a, speedup, probe_disk->blocks());
    if (!requests) return a.trace.empty() ? 2 : 1;
    auto run = [&](HybridMode mode, std::int64_t cache_mb) {
      auto disk = device_or_report(a.disk);
      auto mems = device_or_report(a.mems);
      WriteBufferParams p = a.buffer;
      p.segments = cache_mb * 8;  // 128 KB segments
      std::size_t i = 0;
      return run_hybrid(mode, mems.get(), disk.get(), p, [&]() -> std::optional<model::Request> {
        if (i == requests->size()) return std::nullopt;
        return (*requests)[i++];
      });
    };
    rows.push_back({speedup, "disk", 0, run(HybridMode::kDiskAlone, 0)});
    progress.step();
    rows.push_back({speedup, "mems", 0, run(HybridMode::kMemsAlone, 0)});
    progress.step();
    for (std::int64_t mb : a.cache_mb) {
      rows.push_back({speedup, "buffer", mb, run(HybridMode::kWriteBuffered, mb)});
      progress.step();
    }
  }
  const std::string workload = a.trace.empty() ? a.workload : a.trace;
  if (a.format == OutputFormat::kJson) {
    nlohmann::ordered_json runs = nlohmann::json::array();
    for (const Row& r : rows) runs.push_back(row_json(r));
    nlohmann::ordered_json out{{"disk", a.disk},
                               {"mems", a.mems},
                               {"workload", workload},
                               {"requests", rows.empty() ? 0 : rows[0].s.requests}};
    if (a.trace.empty() && a.workload == "random") {  // the random load's shape
      out["read_fraction"] = a.read_fraction;
      out["mean_size_kb"] = a.mean_size_kb;
    }
    out["high_water"] = a.buffer.high_water;
    out["low_water"] = a.buffer.low_water;
    out["clean_segments"] = a.buffer.clean_segments;
    out["runs"] = runs;
    std::cout << out.dump(2) << "\n";
    return 0;
  }
  std::printf(
      "workload,speedup,system,cache_mb,requests,response_ms,read_ms,write_ms,mems_requests,"
      "disk_requests,read_hits,partial_read_hits,bypassed_writes,segments_cleaned,waited\n");
  for (const Row& r : rows) {
    const HybridStats& s = r.s;
    std::printf("%s,%g,%s,%lld,%lld,%.4f,%.4f,%.4f,%lld,%lld,%lld,%lld,%lld,%lld,%lld\n",
                workload.c_str(), r.speedup, r.system.c_str(), static_cast<long long>(r.cache_mb),
                static_cast<long long>(s.requests), s.mean_response_ms(), s.mean_read_ms(),
                s.mean_write_ms(), static_cast<long long>(s.mems_requests),
                static_cast<long long>(s.disk_requests), static_cast<long long>(s.read_hits),
                static_cast<long long>(s.partial_read_hits),
                static_cast<long long>(s.bypassed_writes),
                static_cast<long long>(s.segments_cleaned), static_cast<long long>(s.waited));
  }
  return 0;
}

}  // namespace memstore::sim
