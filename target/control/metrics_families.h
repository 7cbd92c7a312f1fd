// SPDX-License-Identifier: Apache-2.0
// What GET /metrics shows (docs/memstored.md, "Metrics"), as prometheus-cpp's
// metric families: each LUN's counters and its delivery lateness as a
// histogram, the open connections, the build, and the process. No I/O
// here but /proc/self: the server (metrics_server.h) gathers the samples.
#pragma once

#include <prometheus/metric_family.h>

#include <cstdint>
#include <string>
#include <vector>

#include "target/delivery/lateness.h"

namespace memstore::control {

// One LUN's figures, read on its own loop.
struct LunSample {
  std::string target;
  std::uint16_t id = 0;
  delivery::DeliveryCounters counters;
  delivery::Lateness lateness;
  std::uint64_t faults_fired = 0;
};

// The histogram's upper bounds in seconds, 1 us to 1 s: what realtime
// lateness spans, from a host's timer wake-up to a stalled vCPU
// (docs/benchmarks.md, "Stalls of the machine").
inline constexpr double kLatenessBounds[] = {1e-6, 2e-6, 5e-6, 1e-5, 2e-5, 5e-5, 1e-4,
                                             2e-4, 5e-4, 1e-3, 2e-3, 5e-3, 1e-2, 2e-2,
                                             5e-2, 0.1,  0.2,  0.5,  1.0};

// Every family, LUNs in the order given. A delivery is counted at the first
// bound at or above the top of its lateness bucket (delivery::Lateness:
// within 12.5%), so a bound's count never takes in one later than it.
std::vector<prometheus::MetricFamily> metric_families(const std::vector<LunSample>& luns,
                                                      std::size_t connections);

// The families as Prometheus' text format (prometheus::TextSerializer).
std::string metrics_text(const std::vector<prometheus::MetricFamily>& families);

}  // namespace memstore::control
