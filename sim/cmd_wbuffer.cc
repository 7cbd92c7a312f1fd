// memsim wbuffer: Wang and Brandt's comparison (issue 19): the disk alone, the disk behind a
// MEMS write buffer, and the MEMStore alone, on one write-heavy synthetic workload or a
// trace, replayed 1x to 16x faster (docs/disk-models.md, "The MEMS write buffer").
#include <cstdio>
#include <fstream>
#include <iostream>
#include <nlohmann/json.hpp>

#include "model/device_factory.h"
#include "sim/commands.h"
#include "sim/hybrid.h"
#include "sim/trace.h"
#include "sim/workload.h"

namespace memstore::sim {
namespace {

struct Row {
  double speedup = 0;
  HybridStats disk, buffered, mems;
};

std::unique_ptr<model::Device> device_or_report(const std::string& name) {
  DeviceOptions o;
  o.device = name;
  std::string error;
  auto d = build_device(o, error);
  if (!d) std::cerr << "memsim: " << error << "\n";
  return d;
}

nlohmann::ordered_json stats_json(const HybridStats& s) {
  return {{"requests", s.requests},
          {"response_ms", s.mean_response_ms()},
          {"read_ms", s.mean_read_ms()},
          {"write_ms", s.mean_write_ms()},
          {"buffer_read_hits", s.buffer_read_hits},
          {"bypassed_writes", s.bypassed_writes},
          {"segments_cleaned", s.segments_cleaned}};
}

}  // namespace

int cmd_wbuffer(const WbufferArgs& a) {
  if (a.buffer.low_water < 0 || a.buffer.low_water >= a.buffer.high_water ||
      a.buffer.high_water > 1) {
    std::cerr << "memsim: --low-water and --high-water must satisfy 0 <= low < high <= 1\n";
    return 2;
  }
  std::optional<TraceFormat> trace_format;
  if (!a.trace.empty()) {
    trace_format = parse_trace_format(a.trace_format);
    if (!trace_format) {
      std::cerr << "memsim: --trace-format must be disksim or spc\n";
      return 2;
    }
    if (!std::ifstream(a.trace)) {
      std::cerr << "memsim: --trace: cannot open " << a.trace << "\n";
      return 1;
    }
  }
  std::vector<Row> rows;
  for (double speedup : a.speedups) {
    if (!(speedup > 0)) {
      std::cerr << "memsim: --speedups must be positive\n";
      return 2;
    }
    auto disk_alone = device_or_report(a.disk);
    auto disk = device_or_report(a.disk);
    auto mems_alone = device_or_report(a.mems);
    auto mems = device_or_report(a.mems);
    if (!disk_alone || !disk || !mems_alone || !mems) return 2;
    if (a.buffer.segments * a.buffer.segment_blocks > mems->blocks()) {
      std::cerr << "memsim: --segments: the log (" << a.buffer.segments
                << " segments of 128 KB) does not fit on " << a.mems << "\n";
      return 2;
    }
    RandomWorkloadSpec spec;
    spec.requests = a.requests;
    spec.interarrival_ms = a.interarrival_ms / speedup;
    spec.mean_size_kb = a.mean_size_kb;
    spec.read_fraction = a.read_fraction;
    spec.seed = a.seed;
    spec.capacity_blocks = disk->blocks();
    if (const auto errors = validate(spec); !errors.empty()) {
      std::cerr << "memsim: " << errors.front() << "\n";
      return 2;
    }
    // The same requests for all three: a fresh generator from the same spec, or the trace
    // read again from its start, each time.
    std::string trace_error;
    auto run = [&](HybridMode mode, model::Device* m, model::Device* d) {
      if (a.trace.empty()) {
        RandomWorkload w(spec);
        return run_hybrid(mode, m, d, a.buffer, [&w] { return w.next(); });
      }
      std::ifstream in(a.trace);
      TraceOptions to;
      to.scale = speedup;
      to.capacity_blocks = disk->blocks();  // blocks beyond the disk fold into it
      TraceReader reader(in, *trace_format, to);
      return run_hybrid(mode, m, d, a.buffer, requests_of(reader, trace_error));
    };
    Row row;
    row.speedup = speedup;
    row.disk = run(HybridMode::kDiskAlone, nullptr, disk_alone.get());
    row.buffered = run(HybridMode::kWriteBuffered, mems.get(), disk.get());
    row.mems = run(HybridMode::kMemsAlone, mems_alone.get(), nullptr);
    if (!trace_error.empty()) {
      std::cerr << "memsim: " << a.trace << ": " << trace_error << "\n";
      return 1;
    }
    rows.push_back(row);
  }
  // The paper's ordering: disk alone > disk with the buffer > MEMStore alone.
  auto ordered = [](const Row& r) {
    return r.disk.mean_response_ms() > r.buffered.mean_response_ms() &&
           r.buffered.mean_response_ms() > r.mems.mean_response_ms();
  };
  if (a.format == OutputFormat::kJson) {
    nlohmann::ordered_json j = nlohmann::json::array();
    for (const Row& r : rows) {
      j.push_back({{"speedup", r.speedup},
                   {"interarrival_ms", a.trace.empty() ? a.interarrival_ms / r.speedup : 0},
                   {"disk", stats_json(r.disk)},
                   {"disk_with_buffer", stats_json(r.buffered)},
                   {"mems", stats_json(r.mems)},
                   {"ordering_holds", ordered(r)}});
    }
    nlohmann::ordered_json out{{"disk", a.disk},
                               {"mems", a.mems},
                               {"workload", a.trace.empty() ? "random" : a.trace},
                               {"requests", rows.empty() ? 0 : rows[0].disk.requests}};
    if (a.trace.empty()) {  // the synthetic workload's shape; a trace has its own
      out["read_fraction"] = a.read_fraction;
      out["mean_size_kb"] = a.mean_size_kb;
    }
    out["segments"] = a.buffer.segments;
    out["high_water"] = a.buffer.high_water;
    out["low_water"] = a.buffer.low_water;
    out["runs"] = j;
    std::cout << out.dump(2) << "\n";
    return 0;
  }
  std::printf(
      "speedup,interarrival_ms,disk_ms,disk_with_buffer_ms,mems_ms,buffer_read_hits,"
      "bypassed_writes,segments_cleaned,ordering_holds\n");
  for (const Row& r : rows) {
    std::printf("%g,%g,%.4f,%.4f,%.4f,%lld,%lld,%lld,%s\n", r.speedup,
                a.trace.empty() ? a.interarrival_ms / r.speedup : 0.0, r.disk.mean_response_ms(),
                r.buffered.mean_response_ms(), r.mems.mean_response_ms(),
                static_cast<long long>(r.buffered.buffer_read_hits),
                static_cast<long long>(r.buffered.bypassed_writes),
                static_cast<long long>(r.buffered.segments_cleaned), ordered(r) ? "yes" : "no");
  }
  return 0;
}

}  // namespace memstore::sim
