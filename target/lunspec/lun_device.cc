// SPDX-License-Identifier: Apache-2.0
#include "target/lunspec/lun_device.h"

#include <vector>

#include "model/disk_layout.h"
#include "model/geometry.h"
#include "modepages/mode_disk.h"

namespace memstore::lunspec {
namespace {

std::vector<std::string> all_names() {
  std::vector<std::string> names = model::preset_names();
  for (std::string& d : model::disk_preset_names()) names.push_back(std::move(d));
  return names;
}

// "cache_segments = 0" (memstored's `set` is written like TOML) ->
// "cache_segments=0", the form model::apply_disk_override reads.
std::string without_blanks(std::string_view kv) {
  std::string out;
  for (const char ch : kv) {
    if (ch != ' ' && ch != '\t') out += ch;
  }
  return out;
}

}  // namespace

std::string device_choices() {
  const std::vector<std::string> names = all_names();
  std::string s;
  for (std::size_t i = 0; i < names.size(); ++i) {
    if (i > 0) s += i + 1 == names.size() ? " or " : ", ";
    s += names[i];
  }
  return s;
}

bool known_device(std::string_view name) {
  return model::preset(name).has_value() || model::disk_preset(name).has_value();
}

BasicStatus<DeviceError> resolve_device(LunSpec& spec,
                                        std::span<const std::string> disk_overrides) {
  using F = DeviceError::Field;
  if (const auto mems = model::preset(spec.device)) {
    spec.config.device = *mems;
    spec.config.disk.reset();
    return {};
  }
  std::optional<model::ZonedDiskParams> disk = model::disk_preset(spec.device);
  if (!disk) {
    return DeviceError{F::kDevice, "unknown preset '" + spec.device + "'; use " + device_choices()};
  }
  for (const std::string& kv : disk_overrides) {
    if (const auto s = model::apply_disk_override(*disk, without_blanks(kv)); !s.ok()) {
      return DeviceError{F::kSet, s.error().message};
    }
  }
  for (const model::ParamError& e : model::validate(*disk)) {
    return DeviceError{F::kSet, e.key + ": " + e.message};
  }
  if (!spec.device_config.empty()) {
    return DeviceError{F::kDeviceConfig,
                       "describes a MEMStore (g1, g2, g3, uysal03, tos05, asplos99-g1..g3); " +
                           spec.device + " is a disk and takes none (its keys go in set)"};
  }
  if (spec.config.rotation_rate != 0) {
    return DeviceError{F::kRotationRate,
                       spec.device + " is a disk and reports its own rotation rate (" +
                           std::to_string(modepages::nominal_rotation_rpm(*disk)) +
                           " rpm) in VPD B1h and mode page 04h; remove the key"};
  }
  spec.config.disk = std::move(disk);
  return {};
}

std::uint64_t device_blocks(const LunSpec& spec) {
  if (spec.config.disk)
    return static_cast<std::uint64_t>(model::ZonedLayout(*spec.config.disk).blocks());
  return static_cast<std::uint64_t>(model::Geometry(spec.config.device).blocks());
}

std::uint32_t device_block_bytes(const LunSpec& spec) {
  return static_cast<std::uint32_t>(spec.config.disk ? spec.config.disk->block_bytes
                                                     : spec.config.device.block_bytes);
}

std::uint64_t volatile_cache_bytes(const LunSpec& spec) {
  if (spec.cache_mb) return std::uint64_t{*spec.cache_mb} << 20;
  if (const auto& disk = spec.config.disk; disk && disk->cache.segments > 0) {
    return std::uint64_t(disk->cache.segments) * disk->cache.segment_blocks * disk->block_bytes;
  }
  return std::uint64_t{2} << 20;
}

}  // namespace memstore::lunspec
