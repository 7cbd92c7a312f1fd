// memsim run, replay and sweep: workloads and traces through the device model.
#include <cstdio>
#include <filesystem>
#include <fstream>
#include <iostream>
#include <nlohmann/json.hpp>

#include "model/device.h"
#include "sim/commands.h"
#include "sim/simulate.h"
#include "sim/trace.h"
#include "sim/workload.h"

namespace memstore::sim {
namespace {

int print_run(const RunStats& s, const RunLabel& label, OutputFormat f) {
  switch (f) {
    case OutputFormat::kJson:
      std::cout << to_json(s, label).dump(2) << "\n";
      break;
    case OutputFormat::kCsv:
      std::cout << format_csv(s);
      break;
    case OutputFormat::kText:
      std::cout << format_text(s, label);
      break;
  }
  return 0;
}

std::unique_ptr<model::Device> device_or_report(const DeviceOptions& o) {
  std::string error;
  auto d = build_device(o, error);
  if (!d) std::cerr << "memsim: " << error << "\n";
  return d;
}

bool check_workload(const std::string& w) {
  if (w == "random") return true;
  std::cerr << "memsim: --workload: unknown workload '" << w
            << "'; use 'random' (or `memsim replay` for traces)\n";
  return false;
}

// The device for `o` and `spec` completed with its capacity, or null after
// reporting what is wrong with either.
std::unique_ptr<model::Device> prepare_random(const DeviceOptions& o, RandomWorkloadSpec& spec) {
  auto device = device_or_report(o);
  if (!device) return nullptr;
  spec.capacity_blocks = device->blocks();
  const std::vector<std::string> problems = validate(spec);
  for (const std::string& e : problems) std::cerr << "memsim: " << e << "\n";
  if (!problems.empty()) return nullptr;
  return device;
}

// `spec` as completed by prepare_random(). `trace`, if not null, receives
// every generated request as a DiskSim line.
RunStats simulate_random(model::Device& device, const RandomWorkloadSpec& spec,
                         std::ostream* trace = nullptr) {
  RandomWorkload w(spec);
  return simulate(device, [&w, trace] {
    std::optional<model::Request> r = w.next();
    if (r && trace != nullptr) *trace << disksim_line(*r);
    return r;
  });
}

std::optional<RunStats> run_random(const DeviceOptions& o, RandomWorkloadSpec spec) {
  auto device = prepare_random(o, spec);
  if (!device) return std::nullopt;
  return simulate_random(*device, spec);
}

// One point of a sweep: the Random workload at `rate` requests/s.
RandomWorkloadSpec sweep_spec(const SweepArgs& a, double rate) {
  RandomWorkloadSpec spec;
  spec.requests = a.requests;
  spec.interarrival_ms = 1000.0 / rate;
  spec.mean_size_kb = a.mean_size_kb;
  spec.read_fraction = a.read_fraction;
  spec.seed = a.seed;
  return spec;
}

}  // namespace

int cmd_run(const RunArgs& a) {
  if (!check_workload(a.workload)) return 2;
  RandomWorkloadSpec spec;
  spec.requests = a.requests;
  spec.interarrival_ms = a.interarrival_ms;
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
  const RunStats stats = simulate_random(*device, spec, trace.is_open() ? &trace : nullptr);
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
  std::ifstream in(a.trace, std::ios::binary);
  if (!in) {
    std::cerr << "memsim: --trace: cannot read '" << a.trace << "'\n";
    return 1;
  }
  TraceOptions options;
  options.scale = a.scale;
  options.capacity_blocks = device->blocks();
  if (a.device_number >= 0) options.device_filter = a.device_number;
  const std::vector<std::string> problems = validate(options);
  for (const std::string& e : problems) std::cerr << "memsim: " << e << "\n";
  if (!problems.empty()) return 2;
  TraceReader reader(in, *format, options);
  std::string error;
  RunStats stats;
  try {
    stats = simulate(*device, [&]() -> std::optional<model::Request> {
      TraceItem item = reader.next();
      if (item.kind == TraceItem::Kind::kRequest) return item.request;
      if (item.kind == TraceItem::Kind::kError) error = item.error;
      return std::nullopt;
    });
  } catch (const std::ios_base::failure& e) {
    // libstdc++'s filebuf throws when read(2) fails (EIO, a special file).
    std::cerr << "memsim: " << a.trace << ": read error: " << e.what() << "\n";
    return 1;
  }
  if (!error.empty()) {
    std::cerr << "memsim: " << a.trace << ": " << error << "\n";
    return 1;
  }
  return print_run(stats, {a.device.device, a.device.scheduler, a.trace}, a.format);
}

int cmd_sweep(const SweepArgs& a) {
  if (!check_workload(a.workload)) return 2;
  if (a.rates.empty() || a.schedulers.empty()) {
    std::cerr << "memsim: sweep needs --rates and --schedulers\n";
    return 2;
  }
  for (double r : a.rates) {
    if (!(r > 0)) {
      std::cerr << "memsim: --rates: every rate must be a positive number of requests/s\n";
      return 2;
    }
  }
  // Check every scheduler and the workload before the first line of output,
  // so a bad argument leaves stdout empty.
  for (const std::string& sched : a.schedulers) {
    DeviceOptions o = a.device;
    o.scheduler = sched;
    const auto device = device_or_report(o);
    if (!device) return 2;
    RandomWorkloadSpec spec = sweep_spec(a, a.rates.front());
    spec.capacity_blocks = device->blocks();
    const std::vector<std::string> problems = validate(spec);
    for (const std::string& e : problems) std::cerr << "memsim: " << e << "\n";
    if (!problems.empty()) return 2;
  }
  // The thesis' Fig. 6.2 method: mean response time and its squared
  // coefficient of variation (starvation resistance) per scheduler and rate.
  // JSON is one document, so its points are gathered and printed at the end.
  nlohmann::ordered_json points = nlohmann::ordered_json::array();
  const bool json = a.format == OutputFormat::kJson;
  if (!json)
    std::printf("scheduler,rate_per_s,requests,mean_response_ms,scv_response,p99_response_ms\n");
  for (const std::string& sched : a.schedulers) {
    for (double rate : a.rates) {
      DeviceOptions o = a.device;
      o.scheduler = sched;
      const auto stats = run_random(o, sweep_spec(a, rate));
      if (!stats) return 2;
      const Summary& resp = (*stats)[Metric::kResponse];
      const double mean_ms = resp.mean() / 1e6;
      const double p99_ms = static_cast<double>(resp.p99()) / 1e6;
      if (json) {
        points.push_back({{"scheduler", sched},
                          {"rate_per_s", rate},
                          {"requests", stats->requests},
                          {"mean_response_ms", mean_ms},
                          {"scv_response", resp.scv()},
                          {"p99_response_ms", p99_ms}});
      } else {
        std::printf("%s,%g,%lld,%.6f,%.6f,%.6f\n", sched.c_str(), rate,
                    static_cast<long long>(stats->requests), mean_ms, resp.scv(), p99_ms);
      }
    }
  }
  if (json) {
    const nlohmann::ordered_json doc = {{"device", a.device.device},
                                        {"workload", a.workload},
                                        {"requests_per_point", a.requests},
                                        {"mean_size_kb", a.mean_size_kb},
                                        {"read_fraction", a.read_fraction},
                                        {"seed", a.seed},
                                        {"points", points}};
    std::cout << doc.dump(2) << "\n";
  }
  return 0;
}

}  // namespace memstore::sim
