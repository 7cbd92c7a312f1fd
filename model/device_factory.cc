#include "model/device_factory.h"

#include "model/disk_simple.h"
#include "model/disk_uber.h"
#include "model/mems_mechanism.h"

namespace memstore::model {

std::vector<std::string> device_names() {
  std::vector<std::string> names = preset_names();
  for (const char* d : {"uberdisk", "simpledisk-constant", "simpledisk-linear"}) {
    names.emplace_back(d);
  }
  return names;
}

bool is_comparison_disk(std::string_view name) {
  return name == "uberdisk" || name == "simpledisk-constant" || name == "simpledisk-linear";
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
  return std::make_unique<Device>(std::move(mechanisms), std::move(schedulers));
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
  } else {
    return nullptr;
  }
  auto s = make_scheduler(scheduler, options);
  if (!s) return nullptr;
  std::vector<std::unique_ptr<Mechanism>> mechanisms;
  std::vector<std::unique_ptr<Scheduler>> schedulers;
  mechanisms.push_back(std::move(m));
  schedulers.push_back(std::move(s));
  return std::make_unique<Device>(std::move(mechanisms), std::move(schedulers));
}

}  // namespace memstore::model
