// SPDX-License-Identifier: Apache-2.0
// The device options every memsim command shares: --device, --config,
// --set, and how they become a device.
#pragma once

#include <memory>
#include <string>
#include <vector>

#include "base/expected.h"
#include "model/device.h"
#include "model/params.h"
#include "model/scheduler.h"

namespace memstore::sim {

struct DeviceOptions {
  std::string device = "g2";     // preset or comparison disk
  std::string config;            // TOML file of parameter overrides
  std::vector<std::string> set;  // "key=value" overrides, applied after the file
  std::string scheduler = "fcfs";
  model::SchedulerOptions scheduler_options;
};

// The MEMStore parameters the options describe, or an error naming the
// option or key and the fix.
Expected<model::DeviceParams> resolve_params(const DeviceOptions& o);

// The device (MEMStore or comparison disk) with its scheduler.
Expected<std::unique_ptr<model::Device>> build_device(const DeviceOptions& o);

}  // namespace memstore::sim
