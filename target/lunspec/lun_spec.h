// SPDX-License-Identifier: Apache-2.0
// One LUN as memstored's configuration and the TCMU handler's
// configuration string both describe it: the device, its parameters, the
// backing, the timing and the scheduler. The library below both transports
// (memstored's [[target.lun]] tables and TCMU's cfgstring parse into it;
// open_lun() builds the LUN from it).
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "target/scsi/lun.h"

namespace memstore::lunspec {

// What an acknowledged write survives (docs/memstored.md, "durability"):
// write-back, the host's page cache (fsynced on SYNCHRONIZE CACHE);
// write-through, fsynced before GOOD; volatile, the device's own write cache,
// which a power cut empties (docs/crash-consistency.md).
enum class Durability : std::uint8_t { kWriteBack, kWriteThrough, kVolatile };
inline std::optional<Durability> durability_named(std::string_view name) {
  if (name == "write-back") return Durability::kWriteBack;
  if (name == "write-through") return Durability::kWriteThrough;
  if (name == "volatile") return Durability::kVolatile;
  return std::nullopt;
}
inline constexpr const char* kDurabilityChoices =
    "\"write-back\", \"write-through\" or \"volatile\"";

struct LunSpec {
  std::uint16_t id = 0;
  std::string device = "g2";     // preset: a MEMStore (g1, g2, ...) or a zoned disk
  std::string device_config;     // TOML file of MEMStore parameter overrides
  std::vector<std::string> set;  // key=value overrides (a MEMStore's or a disk's keys)
  std::string backing;           // image path, or "memory"
  Durability durability = Durability::kWriteBack;
  // With durability = volatile: the cache's size in MiB (unset: the device's
  // own, volatile_cache_bytes()) and how long it may sit idle before the
  // device writes it back (0: only when full or flushed).
  std::optional<std::uint32_t> cache_mb;
  std::uint32_t cache_writeback_ms = 0;
  // Every write, discard and flush recorded in dm-log-writes' format
  // (scsi::LoggedStore); empty: none.
  std::string write_log;
  // Every request the model is given, captured from the start
  // (scsi::RequestTrace); empty: none.
  std::string trace;
  model::TraceFormat trace_format = model::TraceFormat::kDiskSim;
  // The LUN as open_lun() makes it, less what comes from its backing (its
  // identity). From the configuration: config.device, resolved from
  // `device`, `device_config` and `set` (resolve_device), or config.disk
  // when `device` names a zoned disk (config.device is then unused);
  // timing, scheduler, rotation_rate, the fault rules and their seed; who
  // may change mode pages 22h and 1Ah (memstored's [daemon]
  // control_initiators, the TCMU handler's control=allow for its unnamed
  // nexus); and the daemon-wide memory budgets shared by every LUN (unset:
  // the LUN's own, of the default size).
  scsi::LunConfig config;
  // The resolved device's name, for logs and the control socket.
  const std::string& model_name() const {
    return config.disk ? config.disk->name : config.device.name;
  }
  static constexpr std::size_t kMaxFaults = 1024;
};

}  // namespace memstore::lunspec
