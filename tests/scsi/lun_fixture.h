// SPDX-License-Identifier: Apache-2.0
// A G2 LUN (or the LunConfig's disk) on an in-memory store, and helpers to
// run CDBs against it.
#pragma once

#include <gtest/gtest.h>

#include <initializer_list>
#include <memory>
#include <vector>

#include "model/disk_layout.h"
#include "target/scsi/lun.h"
#include "target/scsi/memory_store.h"

namespace memstore::scsi::testing {

inline std::unique_ptr<Lun> make_lun(LunConfig config = {}) {
  const std::int64_t blocks = config.disk ? model::ZonedLayout(*config.disk).blocks()
                                          : model::Geometry(config.device).blocks();
  const std::int32_t block_bytes =
      config.disk ? config.disk->block_bytes : config.device.block_bytes;
  auto store = MemoryStore::create(static_cast<std::uint64_t>(blocks),
                                   static_cast<std::uint32_t>(block_bytes));
  auto created = Lun::create(std::move(config), std::move(store.value()));
  if (!created.ok()) ADD_FAILURE() << created.error().message;
  return std::move(created).value();
}

class LunTest : public ::testing::Test {
 protected:
  std::unique_ptr<Lun> lun = make_lun();
  std::uint64_t tag = 0;
  model::Ns now = 0;

  ScsiResult run(std::vector<std::uint8_t> cdb, std::vector<std::uint8_t> out = {},
                 std::uint64_t nexus = 1) {
    cdb.resize(16, 0);  // transports hand over 16-byte CDB buffers
    ScsiCommand c;
    c.nexus = nexus;
    c.tag = ++tag;
    c.cdb = cdb;
    c.data_out = out;
    now += 1'000'000;
    c.arrival_ns = now;
    return lun->execute(c);
  }

  // Sense key, ASC, ASCQ of a fixed-format result.
  static std::vector<int> kcq(const ScsiResult& r) {
    if (r.sense.size() < 14) return {};
    return {r.sense[2] & 0x0F, r.sense[12], r.sense[13]};
  }
  // SKSV, C/D, BPV, bit pointer and field pointer of a fixed-format result.
  static std::vector<int> field(const ScsiResult& r) {
    if (r.sense.size() < 18 || (r.sense[15] & 0x80) == 0) return {};
    return {(r.sense[15] >> 6) & 1, (r.sense[15] & 0x08) ? (r.sense[15] & 0x07) : -1,
            (r.sense[16] << 8) | r.sense[17]};
  }
};

}  // namespace memstore::scsi::testing
