// SPDX-License-Identifier: Apache-2.0
// Drives a device with a stream of requests and collects the statistics.
#pragma once

#include <functional>
#include <optional>

#include "model/device.h"
#include "sim/report.h"

namespace memstore::sim {

// Returns the next request (arrivals non-decreasing) or nullopt at the end.
using RequestSource = std::function<std::optional<model::Request>()>;

// Streams every request through `device` (never holding more than the
// device's own queue) and returns the run's statistics, energy included.
// `on_completion`, when set, sees every completion (for traces of the run).
RunStats simulate(model::Device& device, const RequestSource& next,
                  const model::Device::Sink& on_completion = {});

}  // namespace memstore::sim
