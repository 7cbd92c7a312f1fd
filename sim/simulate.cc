// SPDX-License-Identifier: Apache-2.0
#include "sim/simulate.h"

namespace memstore::sim {

RunStats simulate(model::Device& device, const RequestSource& next,
                  const model::Device::Sink& on_completion) {
  RunStats stats;
  const model::Device::Sink sink = [&](const model::Completion& c) {
    stats.add(c);
    if (on_completion) on_completion(c);
  };
  // Causality (device.h): before the device may start anything at time t,
  // every request arriving by t must be submitted. After submitting a request
  // arriving at a, everything starting before a can be decided.
  while (std::optional<model::Request> r = next()) {
    device.run_until(r->arrival_ns - 1, sink);
    device.submit(*r);
  }
  device.drain(sink);
  stats.energy = device.energy(stats.last_done_ns);
  stats.merged = device.merged_requests();
  return stats;
}

}  // namespace memstore::sim
