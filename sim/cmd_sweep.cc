// SPDX-License-Identifier: Apache-2.0
// memsim sweep (the thesis' Fig. 6.2 method) and memsim merge (joining the
// outputs of `sweep --shard I/N`, see sim/sweep_shard.h).
#include <cerrno>
#include <cstdio>
#include <cstring>
#include <fstream>
#include <iostream>
#include <nlohmann/json.hpp>
#include <sstream>

#include "sim/commands.h"
#include "sim/progress.h"
#include "sim/random_run.h"
#include "sim/sweep_shard.h"

namespace memstore::sim {
namespace {

constexpr const char* kSweepHeader =
    "scheduler,rate_per_s,requests,mean_response_ms,scv_response,p99_response_ms";

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

// Everything that decides the sweep's rows, so that merge can refuse shards
// of different sweeps. Doubles with 17 digits: equal text, equal value.
std::string sweep_identity(const SweepArgs& a) {
  std::ostringstream s;
  s.precision(17);
  s << "device=" << a.device.device << " config=" << a.device.config << " set=";
  for (const std::string& kv : a.device.set) s << kv << ";";
  s << " workload=" << a.workload << " rates=";
  for (double r : a.rates) s << r << ";";
  s << " schedulers=";
  for (const std::string& n : a.schedulers) s << n << ";";
  s << " requests=" << a.requests << " mean_size_kb=" << a.mean_size_kb
    << " read_fraction=" << a.read_fraction << " seed=" << a.seed;
  std::string out = s.str();
  for (char& c : out)
    if (c == '\n' || c == '\r') c = ' ';
  return out;
}

}  // namespace

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
  const bool json = a.format == OutputFormat::kJson;
  if (json && !a.shard.empty()) {
    std::cerr << "memsim: --json and --shard: a shard's output is CSV for `memsim merge`; "
                 "drop --json, or --shard\n";
    return 2;
  }
  std::optional<Shard> shard;
  if (!a.shard.empty()) {
    const Expected<Shard> parsed = parse_shard(a.shard);
    if (!parsed.ok()) {
      std::cerr << "memsim: " << parsed.error().message << "\n";
      return 2;
    }
    shard = *parsed;
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
  const auto points = static_cast<std::int64_t>(a.schedulers.size() * a.rates.size());
  if (shard) {
    std::printf("%s\npoint,%s\n", shard_comment(*shard, points, sweep_identity(a)).c_str(),
                kSweepHeader);
  } else if (!json) {
    std::printf("%s\n", kSweepHeader);
  }
  // JSON is one document: its points are gathered and printed at the end.
  nlohmann::ordered_json json_points = nlohmann::ordered_json::array();
  // The thesis' Fig. 6.2 method: mean response time and its squared
  // coefficient of variation (starvation resistance) per scheduler and rate.
  std::int64_t point = 0;
  std::int64_t mine = 0;
  for (std::int64_t k = 0; k < points; ++k) mine += !shard || in_shard(k, *shard) ? 1 : 0;
  Progress progress("memsim sweep", mine, "points");
  for (const std::string& sched : a.schedulers) {
    for (double rate : a.rates) {
      const std::int64_t k = point++;
      if (shard && !in_shard(k, *shard)) continue;
      DeviceOptions o = a.device;
      o.scheduler = sched;
      const auto stats = run_random(o, sweep_spec(a, rate));
      if (!stats) return 2;
      progress.step();
      const Summary& resp = (*stats)[Metric::kResponse];
      if (json) {
        json_points.push_back({{"scheduler", sched},
                               {"rate_per_s", rate},
                               {"requests", stats->requests},
                               {"mean_response_ms", resp.mean() / 1e6},
                               {"scv_response", resp.scv()},
                               {"p99_response_ms", static_cast<double>(resp.p99()) / 1e6}});
        continue;
      }
      if (shard) std::printf("%lld,", static_cast<long long>(k));
      std::printf("%s,%g,%lld,%.6f,%.6f,%.6f\n", sched.c_str(), rate,
                  static_cast<long long>(stats->requests), resp.mean() / 1e6, resp.scv(),
                  static_cast<double>(resp.p99()) / 1e6);
      // A shard under a job array may be killed at its time limit: what is
      // done by then is on disk, and merge reports the rows that are not.
      std::fflush(stdout);
    }
  }
  if (json) {
    const nlohmann::ordered_json doc = {{"device", a.device.device},
                                        {"workload", a.workload},
                                        {"requests_per_point", a.requests},
                                        {"mean_size_kb", a.mean_size_kb},
                                        {"read_fraction", a.read_fraction},
                                        {"seed", a.seed},
                                        {"points", json_points}};
    std::cout << doc.dump(2) << "\n";
  }
  return 0;
}

int cmd_merge(const MergeArgs& a) {
  std::vector<ShardInput> inputs;
  for (const std::string& name : a.files) {
    errno = 0;
    std::ifstream in(name, std::ios::binary);
    std::ostringstream content;
    if (!(in && content << in.rdbuf())) {
      std::cerr << "memsim: merge: cannot read '" << name << "': " << std::strerror(errno) << "\n";
      return 1;
    }
    inputs.push_back({name, content.str()});
  }
  const Expected<std::string> merged = merge_shards(inputs, kSweepHeader);
  if (!merged.ok()) {
    std::cerr << "memsim: " << merged.error().message << "\n";
    return 1;
  }
  std::cout << *merged;
  return 0;
}

}  // namespace memstore::sim
