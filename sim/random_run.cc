// SPDX-License-Identifier: Apache-2.0
#include "sim/random_run.h"

#include <iostream>

#include "sim/pipelined_simulate.h"
#include "sim/trace.h"

namespace memstore::sim {

std::unique_ptr<model::Device> device_or_report(const DeviceOptions& o) {
  auto d = build_device(o);
  if (!d.ok()) {
    std::cerr << "memsim: " << d.error().message << "\n";
    return nullptr;
  }
  return std::move(d).value();
}

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

bool check_workload(const std::string& w) {
  if (w == "random") return true;
  std::cerr << "memsim: --workload: unknown workload '" << w
            << "'; use 'random', 'files', 'user', 'server', 'mobile' (`run` only) or `memsim "
               "replay` for traces\n";
  return false;
}

std::unique_ptr<model::Device> prepare_random(const DeviceOptions& o, RandomWorkloadSpec& spec) {
  auto device = device_or_report(o);
  if (!device) return nullptr;
  spec.capacity_blocks = device->blocks();
  const std::vector<std::string> problems = validate(spec);
  for (const std::string& e : problems) std::cerr << "memsim: " << e << "\n";
  if (!problems.empty()) return nullptr;
  return device;
}

RunStats simulate_random(model::Device& device, const RandomWorkloadSpec& spec, std::ostream* trace,
                         int threads) {
  RandomWorkload w(spec);
  const RequestSource next = [&w, trace] {
    std::optional<model::Request> r = w.next();
    if (r && trace != nullptr) *trace << disksim_line(*r);
    return r;
  };
  return simulate_pipelined(device, next, threads);
}

std::optional<RunStats> run_random(const DeviceOptions& o, RandomWorkloadSpec spec) {
  auto device = prepare_random(o, spec);
  if (!device) return std::nullopt;
  return simulate_random(*device, spec);
}

}  // namespace memstore::sim
