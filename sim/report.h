// SPDX-License-Identifier: Apache-2.0
// Statistics of a simulation run and their three renderings: a table for
// people, JSON and CSV for programs (shapes documented in docs/memsim.md).
#pragma once

#include <array>
#include <cstdint>
#include <nlohmann/json.hpp>
#include <string>

#include "model/mechanism.h"
#include "model/request.h"
#include "sim/stats.h"

namespace memstore::sim {

// The per-request metrics, in report order; names are the JSON keys.
enum class Metric {
  kResponse,
  kQueue,
  kService,
  kSeek,
  kSeekX,
  kSeekY,
  kSettle,
  kTurnaround,
  kTransfer
};
inline constexpr int kMetrics = 9;
const char* metric_key(Metric m);  // "response_ms", ...

struct RunStats {
  // Updated together, one value each per request (SummarySet).
  SummarySet<kMetrics> metrics;
  std::int64_t requests = 0;
  std::int64_t reads = 0;
  std::int64_t blocks = 0;
  model::Ns first_arrival_ns = -1;
  model::Ns last_done_ns = 0;
  model::EnergyReport energy;  // filled by the caller at the end of the run
  // Requests that joined another's media access (request merging, second
  // paper §5.2.2); filled by the caller with the energy.
  std::int64_t merged = 0;

  void add(const model::Completion& c);
  Summary operator[](Metric m) const { return metrics[static_cast<std::size_t>(m)]; }
  double throughput_iops() const;
};

struct RunLabel {
  std::string device;
  std::string scheduler;
  std::string workload;  // e.g. "random" or the trace path
};

std::string format_text(const RunStats& s, const RunLabel& label);
nlohmann::ordered_json to_json(const RunStats& s, const RunLabel& label);
std::string format_csv(const RunStats& s);

}  // namespace memstore::sim
