// SPDX-License-Identifier: Apache-2.0
// Devices by name: the MEMStore (any parameter set, one mechanism per sled)
// and the comparison disks of the thesis' specificity test (§5.1.5).
#pragma once

#include <memory>
#include <string>
#include <string_view>
#include <vector>

#include "model/device.h"
#include "model/disk_presets.h"
#include "model/params.h"

namespace memstore::model {

// "g1", "g2", "g3", "uysal03", "uberdisk", "simpledisk-constant", "simpledisk-linear", and the
// zoned disks "atlas10k", "disk20k" (disk_presets.h).
std::vector<std::string> device_names();
bool is_comparison_disk(std::string_view name);
bool is_zoned_disk(std::string_view name);

// A MEMStore built from `params`; each sled gets its own scheduler.
// nullptr when the scheduler name is unknown.
std::unique_ptr<Device> make_mems_device(const DeviceParams& params, std::string_view scheduler,
                                         const SchedulerOptions& options = {});

// A comparison disk by name. nullptr for an unknown disk or scheduler name.
std::unique_ptr<Device> make_disk_device(std::string_view name, std::string_view scheduler,
                                         const SchedulerOptions& options = {});

// A zoned disk (one mechanism) built from `params`. REQUIRES: validate(params)
// is empty. nullptr for an unknown scheduler name.
std::unique_ptr<Device> make_zoned_disk_device(const ZonedDiskParams& params,
                                               std::string_view scheduler,
                                               const SchedulerOptions& options = {});

}  // namespace memstore::model
