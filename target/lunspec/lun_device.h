// SPDX-License-Identifier: Apache-2.0
// Which device a LUN is: a MEMStore preset (g1, g2, g3, uysal03, tos05, asplos99-g1..g3;
// model/params.h) or a zoned disk (atlas10k, disk20k, cheetah4lp, superdisk;
// model/disk_presets.h). memstored's `device` key and
// the TCMU handler's `device=` both resolve through here, so the two accept
// the same names and say the same thing about an unknown one.
#pragma once

#include <cstdint>
#include <span>
#include <string>
#include <string_view>

#include "base/expected.h"
#include "target/lunspec/lun_spec.h"

namespace memstore::lunspec {

// "g1, g2, g3, uysal03, tos05, asplos99-g1, ..., superdisk": every name `device` takes.
std::string device_choices();

// True for a name of either kind.
bool known_device(std::string_view name);

// Sets spec.config.device (a MEMStore: the preset) or spec.config.disk (a zoned disk: the
// preset with each "key=value" of `disk_overrides` applied, then validated)
// from spec.device. A disk has no MEMStore parameter file (device_config)
// and reports its own rotation rate, so either set is an error for it. The
// error names the field; the caller spells its key ("device_config" in
// memstored, "config" in TCMU) and adds where.
struct DeviceError {
  enum class Field : std::uint8_t { kDevice, kSet, kDeviceConfig, kRotationRate } field;
  std::string message;
};
BasicStatus<DeviceError> resolve_device(LunSpec& spec, std::span<const std::string> disk_overrides);

// The capacity and block size of the resolved device.
std::uint64_t device_blocks(const LunSpec& spec);
std::uint32_t device_block_bytes(const LunSpec& spec);
// The volatile write cache's size when cache_mb is unset: a disk preset's
// own buffer (its segments times their size), else 2 MiB, about what the
// Atlas 10K preset's buffer holds (10 segments of 374 blocks).
std::uint64_t volatile_cache_bytes(const LunSpec& spec);

}  // namespace memstore::lunspec
