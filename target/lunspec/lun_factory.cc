// SPDX-License-Identifier: Apache-2.0
#include "target/lunspec/lun_factory.h"

#include <chrono>

#include "target/lunspec/lun_device.h"
#include "target/lunspec/lun_trace.h"
#include "target/scsi/file_store.h"
#include "target/scsi/lun_identity.h"
#include "target/scsi/memory_store.h"
#include "target/scsi/volatile_cache.h"
#include "target/scsi/write_log.h"

namespace memstore::lunspec {

Expected<std::unique_ptr<scsi::Lun>> open_lun(const LunSpec& spec, const std::string& target_name,
                                              const std::string& where) {
  // The field that failed in front of the store's sentence; its errno kept.
  auto failed = [&](const char* field, const Error& e) {
    return Error{e.errno_value, where + field + ": " + e.message};
  };
  const std::uint64_t blocks = device_blocks(spec);
  const std::uint32_t block_size = device_block_bytes(spec);
  scsi::LunConfig config = spec.config;

  std::unique_ptr<scsi::BackingStore> store;
  if (spec.backing == "memory") {
    auto created = scsi::MemoryStore::create(blocks, block_size);
    if (!created.ok()) return failed("backing", created.error());
    store = std::move(created).value();
    const scsi::LunIdentityRecord id =
        scsi::identity_for_name(target_name + "/lun" + std::to_string(spec.id));
    config.identity.serial = id.serial;
    config.identity.naa_id = id.naa_id;
  } else {
    // Behind a volatile cache the image is the medium: written back to
    // through the page cache, and fsynced when the cache is flushed.
    const auto mode = spec.durability == Durability::kWriteThrough
                          ? scsi::DurabilityMode::kWriteThrough
                          : scsi::DurabilityMode::kWriteBack;
    // The image first: its lock keeps a second daemon from racing on the identity file.
    auto opened = scsi::FileStore::open(spec.backing, blocks, block_size, mode);
    if (!opened.ok()) return failed("backing", opened.error());
    store = std::move(opened).value();
    const scsi::IdentityResult id = scsi::load_or_create_identity(spec.backing);
    if (!id.ok()) return failed("backing", id.error());
    const scsi::LunIdentityRecord& record = *id;
    config.identity.serial = record.serial;
    config.identity.naa_id = record.naa_id;
  }
  if (spec.durability == Durability::kVolatile) {
    scsi::VolatileCacheConfig cache;
    cache.capacity_bytes = volatile_cache_bytes(spec);
    cache.writeback_idle = std::chrono::milliseconds(spec.cache_writeback_ms);
    store = std::make_unique<scsi::VolatileCacheStore>(std::move(store), std::move(cache));
  }
  if (!spec.write_log.empty()) {
    auto logged = scsi::LoggedStore::open(std::move(store), spec.write_log);
    if (!logged.ok()) return failed("write_log", logged.error());
    store = std::move(logged).value();
  }
  auto lun = scsi::Lun::create(std::move(config), std::move(store));
  if (!lun.ok()) return Error{lun.error().errno_value, where + lun.error().message};
  if (!spec.trace.empty()) {
    auto trace =
        open_trace(spec.trace, spec.trace_format, target_name + " LUN " + std::to_string(spec.id),
                   memsim_device_args(spec), **lun, 0);
    if (!trace.ok()) return failed("trace", trace.error());
    (*lun)->set_trace(std::move(trace).value());
  }
  return lun;
}

}  // namespace memstore::lunspec
