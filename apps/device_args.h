// SPDX-License-Identifier: Apache-2.0
// How both applications pick their device on the command line, the same way:
//   --target URL            a MEMStore over the host library (memstored: iscsi://...)
//   --sim [--device NAME] [--config FILE] [--set key=value]...
//                           the device model itself, with memsim's device options
// Exactly one of --target and --sim.
#pragma once

#include <CLI/CLI.hpp>
#include <memory>
#include <string>

#include "apps/block_device.h"
#include "host/result.h"
#include "sim/device_options.h"

namespace memstore::apps {

struct DeviceArgs {
  std::string target;
  bool sim = false;
  sim::DeviceOptions sim_device;
  std::string initiator = "iqn.2026-11.org.memstore:apps";
  int timeout_s = 60;
};

void add_device_args(CLI::App& app, DeviceArgs& args);

// Opens what the arguments name. `keep_data`: a simulated device keeps
// written data (a target always does). kInvalidArgument for bad options.
host::Result<std::unique_ptr<BlockDevice>> open_device(const DeviceArgs& args, bool keep_data);

// Exit statuses, as memsctl and memsim use them.
inline constexpr int kExitOk = 0;
inline constexpr int kExitFailure = 1;
inline constexpr int kExitUsage = 2;
inline int exit_status(const host::Error& e) {
  return e.code == host::Error::Code::kInvalidArgument ? kExitUsage : kExitFailure;
}

}  // namespace memstore::apps
