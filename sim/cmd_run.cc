// SPDX-License-Identifier: Apache-2.0
// memsim run and replay: workloads and traces through the device model.
#include <cerrno>
#include <cstdio>
#include <cstring>
#include <filesystem>
#include <fstream>
#include <iostream>

#include "model/device.h"
#include "sim/commands.h"
#include "sim/pipelined_simulate.h"
#include "sim/random_run.h"
#include "sim/shaped_workload.h"
#include "sim/trace.h"
#include "sim/workload.h"

namespace memstore::sim {

namespace {

// memsim replay --completions: a request's line, on the model's clock. The
// request is its place among the trace's kept requests, from 0.
constexpr const char* kCompletionHeader =
    "request,arrival_ns,lbn,blocks,op,start_ns,done_ns,service_ns,response_ns\n";

void write_completion(std::ostream& out, const model::Completion& c) {
  const model::Request& r = c.request;
  out << r.id << ',' << r.arrival_ns << ',' << r.lbn << ',' << r.blocks << ','
      << (r.op == model::Op::kRead ? 'r' : 'w') << ',' << c.start_ns << ',' << c.done_ns << ','
      << c.done_ns - c.start_ns << ',' << c.response_ns() << '\n';
}

// `memsim run --workload user|server|mobile`: one of the power paper's
// trace shapes (sim/shaped_workload.h) at --scale.
int run_shaped(const RunArgs& a, const WorkloadShape& shape) {
  auto device = device_or_report(a.device);
  if (!device) return 2;
  const Expected<model::DeviceParams> params = resolve_params(a.device);
  ShapedWorkloadSpec spec;
  spec.shape = shape;
  spec.requests = a.requests;
  spec.scale = a.scale;
  spec.seed = a.seed;
  spec.capacity_blocks = device->blocks();
  spec.block_bytes = params.ok() ? params->block_bytes : 512;  // comparison disks: 512-byte sectors
  if (const auto errors = validate(spec); !errors.empty()) {
    for (const std::string& e : errors) std::cerr << "memsim: " << e << "\n";
    return 2;
  }
  ShapedWorkload w(spec);
  const RunStats stats = simulate_pipelined(
      *device, [&w] { return w.next(); }, simulation_threads(a.threads));
  return print_run(stats, {a.device.device, a.device.scheduler, a.workload}, a.format);
}

}  // namespace

int cmd_run(const RunArgs& a) {
  if (a.workload == "files" || !a.layout.empty()) return run_files(a);
  if (const auto shape = workload_shape(a.workload)) return run_shaped(a, *shape);
  if (!check_workload(a.workload)) return 2;
  RandomWorkloadSpec spec;
  spec.requests = a.requests;
  spec.interarrival_ms = a.interarrival_ms;
  spec.constant_interarrival = a.arrivals == "constant";
  spec.mean_size_kb = a.mean_size_kb;
  spec.read_fraction = a.read_fraction;
  spec.seed = a.seed;
  // Every argument is checked before the trace file is opened: a bad one
  // must neither leave an empty file behind nor truncate an existing one.
  auto device = prepare_random(a.device, spec);
  if (!device) return 2;
  std::ofstream trace;
  if (!a.write_trace.empty()) {
    trace.open(a.write_trace, std::ios::binary | std::ios::trunc);
    if (!trace) {
      std::cerr << "memsim: --write-trace: cannot write '" << a.write_trace << "'\n";
      return 1;
    }
  }
  const RunStats stats = simulate_random(*device, spec, trace.is_open() ? &trace : nullptr,
                                         simulation_threads(a.threads));
  if (trace.is_open()) {
    trace.close();
    if (!trace) {
      std::cerr << "memsim: --write-trace: error writing '" << a.write_trace << "'\n";
      return 1;
    }
  }
  return print_run(stats, {a.device.device, a.device.scheduler, a.workload}, a.format);
}

int cmd_replay(const ReplayArgs& a) {
  const auto format = parse_trace_format(a.trace_format);
  if (!format) {
    std::cerr << "memsim: --format: unknown trace format '" << a.trace_format
              << "'; use disksim or spc\n";
    return 2;
  }
  auto device = device_or_report(a.device);
  if (!device) return 2;
  std::error_code ec;
  if (std::filesystem::is_directory(a.trace, ec)) {
    std::cerr << "memsim: --trace: '" << a.trace << "' is a directory; give a trace file\n";
    return 2;
  }
  errno = 0;
  std::ifstream in(a.trace, std::ios::binary);
  if (!in) {
    std::cerr << "memsim: --trace: cannot read '" << a.trace << "': " << std::strerror(errno)
              << "\n";
    return 1;
  }
  TraceOptions options;
  options.scale = a.scale;
  options.capacity_blocks = device->blocks();
  if (a.device_number >= 0) options.device_filter = a.device_number;
  options.absolute_times = a.absolute_times;
  const std::vector<std::string> problems = validate(options);
  for (const std::string& e : problems) std::cerr << "memsim: " << e << "\n";
  if (!problems.empty()) return 2;
  std::ofstream completions;
  if (!a.completions.empty()) {
    completions.open(a.completions, std::ios::binary | std::ios::trunc);
    if (!completions) {
      std::cerr << "memsim: --completions: cannot write '" << a.completions << "'\n";
      return 1;
    }
    completions << kCompletionHeader;
  }
  model::Device::Sink on_completion;
  if (completions.is_open()) {
    on_completion = [&completions](const model::Completion& c) {
      write_completion(completions, c);
    };
  }
  TraceReader reader(in, *format, options);
  RunStats stats;
  try {
    stats = simulate_pipelined(*device, requests_of(reader), simulation_threads(a.threads),
                               on_completion);
  } catch (const std::ios_base::failure& e) {
    // libstdc++'s filebuf throws when read(2) fails (EIO, a special file).
    std::cerr << "memsim: " << a.trace << ": read error: " << e.what() << "\n";
    return 1;
  }
  if (const Status read = reader.status(); !read.ok()) {
    std::cerr << "memsim: " << a.trace << ": " << read.error().message << "\n";
    return 1;
  }
  if (completions.is_open()) {
    completions.close();
    if (!completions) {
      std::cerr << "memsim: --completions: error writing '" << a.completions << "'\n";
      return 1;
    }
  }
  return print_run(stats, {a.device.device, a.device.scheduler, a.trace}, a.format);
}

}  // namespace memstore::sim
