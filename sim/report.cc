// SPDX-License-Identifier: Apache-2.0
#include "sim/report.h"

#include <cstdio>
#include <sstream>

namespace memstore::sim {
namespace {

double ms(double ns) {
  return ns / 1e6;
}

nlohmann::ordered_json summary_json(const Summary& s) {
  return {{"mean", ms(s.mean())},
          {"sd", ms(s.sd())},
          {"p50", ms(static_cast<double>(s.p50()))},
          {"p99", ms(static_cast<double>(s.p99()))},
          {"max", ms(static_cast<double>(s.max()))}};
}

}  // namespace

const char* metric_key(Metric m) {
  static const char* const kKeys[kMetrics] = {"response_ms", "queue_ms",      "service_ms",
                                              "seek_ms",     "seek_x_ms",     "seek_y_ms",
                                              "settle_ms",   "turnaround_ms", "transfer_ms"};
  return kKeys[static_cast<int>(m)];
}

void RunStats::add(const model::Completion& c) {
  const model::Breakdown& b = c.breakdown;
  const std::int64_t values[kMetrics] = {c.response_ns(), c.queue_ns(),    b.service_ns(),
                                         b.seek_ns,       b.seek_x_ns,     b.seek_y_ns,
                                         b.settle_ns,     b.turnaround_ns, b.transfer_ns};
  metrics.add(values);
  ++requests;
  // Without a branch: reads and writes come in random order.
  reads += c.request.op == model::Op::kRead ? 1 : 0;
  blocks += c.request.blocks;
  if (first_arrival_ns < 0 || c.request.arrival_ns < first_arrival_ns) {
    first_arrival_ns = c.request.arrival_ns;
  }
  if (c.done_ns > last_done_ns) last_done_ns = c.done_ns;
}

double RunStats::throughput_iops() const {
  const double span_s = static_cast<double>(last_done_ns - first_arrival_ns) * 1e-9;
  return span_s > 0 ? static_cast<double>(requests) / span_s : 0.0;
}

std::string format_text(const RunStats& s, const RunLabel& label) {
  std::ostringstream os;
  char line[160];
  os << "device " << label.device << ", scheduler " << label.scheduler << ", workload "
     << label.workload << "\n";
  std::snprintf(line, sizeof line, "%lld requests (%lld reads), %lld blocks, %.1f requests/s\n\n",
                static_cast<long long>(s.requests), static_cast<long long>(s.reads),
                static_cast<long long>(s.blocks), s.throughput_iops());
  os << line;
  std::snprintf(line, sizeof line, "%-14s %10s %10s %10s %10s %10s\n", "time (ms)", "mean", "sd",
                "p50", "p99", "max");
  os << line;
  for (int i = 0; i < kMetrics; ++i) {
    const Summary m = s.metrics[static_cast<std::size_t>(i)];
    std::string name = metric_key(static_cast<Metric>(i));
    name.resize(name.size() - 3);  // drop "_ms"
    std::snprintf(line, sizeof line, "%-14s %10.4f %10.4f %10.4f %10.4f %10.4f\n", name.c_str(),
                  ms(m.mean()), ms(m.sd()), ms(static_cast<double>(m.p50())),
                  ms(static_cast<double>(m.p99())), ms(static_cast<double>(m.max())));
    os << line;
  }
  os << "\nenergy (J)";
  for (int i = 0; i < model::kPowerStates; ++i) {
    std::snprintf(line, sizeof line, "  %s %.4f",
                  model::power_state_name(static_cast<model::PowerState>(i)), s.energy.energy_j[i]);
    os << line;
  }
  std::snprintf(line, sizeof line, "  total %.4f  (%lld startups)\n", s.energy.total_j(),
                static_cast<long long>(s.energy.startups));
  os << line;
  if (s.merged > 0) {
    std::snprintf(line, sizeof line, "%lld requests joined another's media access (merging)\n",
                  static_cast<long long>(s.merged));
    os << line;
  }
  return os.str();
}

nlohmann::ordered_json to_json(const RunStats& s, const RunLabel& label) {
  nlohmann::ordered_json j;
  j["device"] = label.device;
  j["scheduler"] = label.scheduler;
  j["workload"] = label.workload;
  j["requests"] = s.requests;
  j["reads"] = s.reads;
  j["blocks"] = s.blocks;
  j["throughput_iops"] = s.throughput_iops();
  for (int i = 0; i < kMetrics; ++i) {
    j[metric_key(static_cast<Metric>(i))] = summary_json(s.metrics[static_cast<std::size_t>(i)]);
  }
  nlohmann::ordered_json e;
  for (int i = 0; i < model::kPowerStates; ++i) {
    e[model::power_state_name(static_cast<model::PowerState>(i))] = s.energy.energy_j[i];
  }
  e["total"] = s.energy.total_j();
  j["energy_j"] = e;
  j["startups"] = s.energy.startups;
  j["merged_requests"] = s.merged;
  return j;
}

std::string format_csv(const RunStats& s) {
  std::ostringstream os;
  os << "metric,mean,sd,p50,p99,max\n";
  char line[200];
  for (int i = 0; i < kMetrics; ++i) {
    const Summary m = s.metrics[static_cast<std::size_t>(i)];
    std::snprintf(line, sizeof line, "%s,%.6f,%.6f,%.6f,%.6f,%.6f\n",
                  metric_key(static_cast<Metric>(i)), ms(m.mean()), ms(m.sd()),
                  ms(static_cast<double>(m.p50())), ms(static_cast<double>(m.p99())),
                  ms(static_cast<double>(m.max())));
    os << line;
  }
  return os.str();
}

}  // namespace memstore::sim
