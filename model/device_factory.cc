// SPDX-License-Identifier: Apache-2.0
#include "model/device_factory.h"

#include "model/disk_simple.h"
#include "model/disk_uber.h"
#include "model/disk_zoned.h"
#include "model/mems_mechanism.h"

namespace memstore::model {

namespace {
// One mechanism with its scheduler; nullptr for an unknown scheduler name.
std::unique_ptr<Device> single_mechanism_device(std::unique_ptr<Mechanism> m,
                                                std::string_view scheduler,
                                                const SchedulerOptions& options) {
  auto s = make_scheduler(scheduler, options);
  if (!s) return nullptr;
  std::vector<std::unique_ptr<Mechanism>> mechanisms;
  std::vector<std::unique_ptr<Scheduler>> schedulers;
  mechanisms.push_back(std::move(m));
  schedulers.push_back(std::move(s));
  return std::make_unique<Device>(std::move(mechanisms), std::move(schedulers));
}
}  // namespace

std::vector<std::string> device_names() {
  std::vector<std::string> names = preset_names();
  for (const char* d : {"uberdisk", "simpledisk-constant", "simpledisk-linear"}) {
    names.emplace_back(d);
  }
  for (const std::string& d : disk_preset_names()) names.push_back(d);
  return names;
}

bool is_comparison_disk(std::string_view name) {
  return name == "uberdisk" || name == "simpledisk-constant" || name == "simpledisk-linear";
}

bool is_zoned_disk(std::string_view name) {
  return disk_preset(name).has_value();
}

std::unique_ptr<Device> make_mems_device(const DeviceParams& params, std::string_view scheduler,
                                         const SchedulerOptions& options) {
  std::vector<std::unique_ptr<Mechanism>> mechanisms;
  std::vector<std::unique_ptr<Scheduler>> schedulers;
  for (int i = 0; i < params.sleds; ++i) {
    auto s = make_scheduler(scheduler, options);
    if (!s) return nullptr;
    schedulers.push_back(std::move(s));
    mechanisms.push_back(std::make_unique<MemsMechanism>(params));
  }
  auto device = std::make_unique<Device>(std::move(mechanisms), std::move(schedulers));
  device->set_merge_requests(params.power.merge_requests);
  return device;
}

std::unique_ptr<Device> make_disk_device(std::string_view name, std::string_view scheduler,
                                         const SchedulerOptions& options) {
  std::unique_ptr<Mechanism> m;
  if (name == "uberdisk") {
    m = std::make_unique<Uberdisk>(UberdiskParams{});
  } else if (name == "simpledisk-constant") {
    m = std::make_unique<Simpledisk>(simpledisk_constant_defaults());
  } else if (name == "simpledisk-linear") {
    m = std::make_unique<Simpledisk>(simpledisk_linear_defaults());
  } else if (std::optional<ZonedDiskParams> z = disk_preset(name)) {
    m = std::make_unique<ZonedDisk>(*z);
  } else {
    return nullptr;
  }
  return single_mechanism_device(std::move(m), scheduler, options);
}

std::unique_ptr<Device> make_zoned_disk_device(const ZonedDiskParams& params,
                                               std::string_view scheduler,
                                               const SchedulerOptions& options) {
  return single_mechanism_device(std::make_unique<ZonedDisk>(params), scheduler, options);
}

}  // namespace memstore::model
