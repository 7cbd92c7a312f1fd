// SPDX-License-Identifier: Apache-2.0
// memsim power: the power paper's idle-timeout, request-merging and
// subsector results (second paper §5.2, Fig. 11) on workloads shaped like
// its traces (sim/shaped_workload.h). docs/reproduction.md compares them
// with the published savings.
#include <algorithm>
#include <cmath>
#include <cstdio>
#include <iostream>
#include <memory>
#include <nlohmann/json.hpp>

#include "model/device_factory.h"
#include "sim/commands.h"
#include "sim/progress.h"
#include "sim/shaped_workload.h"
#include "sim/simulate.h"

namespace memstore::sim {
namespace {

// One run: the policy, and what the device did under it.
struct Row {
  std::string study;  // "timeout" or "strategies"
  std::string shape;
  double scale = 1;
  double idle_timeout_ms = 0;  // -1 = never
  bool merge = false;
  bool subsector = false;
  RunStats stats;
  model::EnergyReport energy;  // up to the group's common end
};

double state_j(const model::EnergyReport& e, model::PowerState s) {
  return e.energy_j[static_cast<int>(s)];
}

// The second paper's "servicing energy": positioning and media access, the
// energy spent on requests rather than waiting for them.
double servicing_j(const model::EnergyReport& e) {
  return state_j(e, model::PowerState::kSeek) + state_j(e, model::PowerState::kAccess);
}

model::Ns timeout_ns(double ms) {
  return ms < 0 ? -1 : static_cast<model::Ns>(std::llround(ms * 1e6));
}

// Runs every policy of a group on the same requests and charges each
// device's energy up to the same instant (the group's last completion), so
// the totals compare like for like.
bool run_group(const model::DeviceParams& base, const PowerArgs& a, const ShapedWorkloadSpec& spec,
               std::vector<Row> group, std::vector<Row>& out) {
  std::vector<std::unique_ptr<model::Device>> devices;
  model::Ns end = 0;
  for (Row& row : group) {
    model::DeviceParams p = base;
    p.power.idle_timeout_ns = timeout_ns(row.idle_timeout_ms);
    p.power.merge_requests = row.merge;
    p.power.subsector = row.subsector;
    auto device = model::make_mems_device(p, a.device.scheduler, a.device.scheduler_options);
    if (!device) {
      std::cerr << "memsim: --scheduler: unknown scheduler '" << a.device.scheduler << "'\n";
      return false;
    }
    ShapedWorkload w(spec);
    row.stats = simulate(*device, [&w] { return w.next(); });
    end = std::max(end, row.stats.last_done_ns);
    devices.push_back(std::move(device));
  }
  for (std::size_t i = 0; i < group.size(); ++i) {
    group[i].energy = devices[i]->energy(end);
    out.push_back(std::move(group[i]));
  }
  return true;
}

void print_csv(const std::vector<Row>& rows) {
  std::cout << "study,shape,scale,idle_timeout_ms,merge,subsector,requests,merged,response_ms,"
               "inactive_j,idle_j,seek_j,access_j,startup_j,startups,servicing_j,total_j\n";
  for (const Row& r : rows) {
    const model::EnergyReport& e = r.energy;
    std::printf("%s,%s,%g,%g,%d,%d,%lld,%lld,%.6f,%.6f,%.6f,%.6f,%.6f,%.6f,%lld,%.6f,%.6f\n",
                r.study.c_str(), r.shape.c_str(), r.scale, r.idle_timeout_ms, r.merge ? 1 : 0,
                r.subsector ? 1 : 0, static_cast<long long>(r.stats.requests),
                static_cast<long long>(r.stats.merged), r.stats[Metric::kResponse].mean() / 1e6,
                state_j(e, model::PowerState::kInactive), state_j(e, model::PowerState::kIdle),
                state_j(e, model::PowerState::kSeek), state_j(e, model::PowerState::kAccess),
                state_j(e, model::PowerState::kStartup), static_cast<long long>(e.startups),
                servicing_j(e), e.total_j());
  }
}

void print_json(const std::vector<Row>& rows) {
  nlohmann::ordered_json out = nlohmann::ordered_json::array();
  for (const Row& r : rows) {
    nlohmann::ordered_json energy;
    for (int i = 0; i < model::kPowerStates; ++i) {
      energy[model::power_state_name(static_cast<model::PowerState>(i))] = r.energy.energy_j[i];
    }
    energy["servicing"] = servicing_j(r.energy);
    energy["total"] = r.energy.total_j();
    out.push_back({{"study", r.study},
                   {"shape", r.shape},
                   {"scale", r.scale},
                   {"idle_timeout_ms", r.idle_timeout_ms},
                   {"merge", r.merge},
                   {"subsector", r.subsector},
                   {"requests", r.stats.requests},
                   {"merged_requests", r.stats.merged},
                   {"response_ms", r.stats[Metric::kResponse].mean() / 1e6},
                   {"startups", r.energy.startups},
                   {"energy_j", energy}});
  }
  std::cout << out.dump(2) << "\n";
}

}  // namespace

int cmd_power(const PowerArgs& a) {
  const Expected<model::DeviceParams> base = resolve_params(a.device);
  if (!base.ok()) {
    std::cerr << "memsim: " << base.error().message << "\n";
    return 2;
  }
  for (double t : a.timeouts_ms) {
    if (!(t >= 0 || t == -1)) {
      std::cerr << "memsim: --timeouts-ms: " << t
                << " is not a timeout; use -1 (never) or 0 or more\n";
      return 2;
    }
  }
  if (!(a.strategies_timeout_ms >= 0 || a.strategies_timeout_ms == -1)) {
    std::cerr << "memsim: --strategies-timeout-ms: use -1 (never) or 0 or more\n";
    return 2;
  }
  std::vector<Row> rows;
  Progress progress(
      "memsim power",
      static_cast<std::int64_t>(a.shapes.size() * (a.timeouts_ms.size() + 4 * a.scales.size())),
      "runs");
  for (const std::string& name : a.shapes) {
    const std::optional<WorkloadShape> shape = workload_shape(name);
    if (!shape) {
      std::cerr << "memsim: --shapes: unknown shape '" << name << "'; use user, server or mobile\n";
      return 2;
    }
    ShapedWorkloadSpec spec;
    spec.shape = *shape;
    spec.requests = a.requests;
    spec.seed = a.seed;
    spec.capacity_blocks = model::Geometry(*base).blocks();
    spec.block_bytes = base->block_bytes;
    // Timeout study (Fig. 11): the traces at their own speed, strategies off.
    std::vector<Row> timeouts;
    for (double t : a.timeouts_ms)
      timeouts.push_back({"timeout", name, 1, t, false, false, {}, {}});
    if (const auto errors = validate(spec); !errors.empty()) {
      std::cerr << "memsim: " << errors.front() << "\n";
      return 2;
    }
    if (!run_group(*base, a, spec, timeouts, rows)) return 2;
    progress.step(static_cast<std::int64_t>(timeouts.size()));
    // Strategies study: each alone and both, as the traces are replayed faster.
    for (double scale : a.scales) {
      spec.scale = scale;
      if (const auto errors = validate(spec); !errors.empty()) {
        std::cerr << "memsim: " << errors.front() << "\n";
        return 2;
      }
      std::vector<Row> group;
      for (const auto& [merge, subsector] :
           {std::pair{false, false}, {true, false}, {false, true}, {true, true}}) {
        group.push_back(
            {"strategies", name, scale, a.strategies_timeout_ms, merge, subsector, {}, {}});
      }
      if (!run_group(*base, a, spec, group, rows)) return 2;
      progress.step(static_cast<std::int64_t>(group.size()));
    }
  }
  if (a.format == OutputFormat::kJson) {
    print_json(rows);
  } else {
    print_csv(rows);
  }
  return 0;
}

}  // namespace memstore::sim
