// SPDX-License-Identifier: Apache-2.0
// INQUIRY: standard data and the VPD pages (SPC-4 §6.4, §7.8; SBC-3 §6.6).
#include "modepages/mode_disk.h"
#include "target/scsi/limits.h"
#include "target/scsi/lun.h"

namespace memstore::scsi {

modepages::VpdInputs Lun::vpd_inputs() const {
  modepages::VpdInputs in;
  in.identity = config_.identity;
  // A MEMStore's granularity p and optimal length ST (docs/design.md, "What
  // an unmodified host sees"); a disk reports neither (SBC-3 §6.6.3: 0 = not
  // reported).
  if (!is_disk()) in.limits = modepages::block_limits_for(geometry_);
  in.limits.wsnz = true;
  in.limits.max_transfer = kMaxTransferBlocks;
  in.limits.max_compare_and_write = kMaxCompareAndWriteBlocks;
  in.limits.max_unmap_lba_count = kMaxUnmapBlocks;
  in.limits.max_unmap_descriptors = kMaxUnmapDescriptors;
  in.limits.optimal_unmap_granularity = 1;
  in.limits.max_write_same = kMaxWriteSameBlocks;
  // SBC-3 §6.6.2 MEDIUM ROTATION RATE: a disk's nominal rpm (so hosts treat
  // it as rotating); for a MEMStore what the configuration says.
  in.rotation.medium_rotation_rate =
      is_disk() ? modepages::nominal_rotation_rpm(*config_.disk) : config_.rotation_rate;
  return in;
}

Outcome Lun::inquiry(const CommandContext& c) {
  const bool evpd = (c.cdb[1] & 0x01) != 0;
  const std::uint8_t page = c.cdb[2];
  Outcome o;
  if (!evpd) {
    // SPC-4 §6.4.1: PAGE CODE must be zero when EVPD is zero.
    if (page != 0) return Outcome::fail(Sense::cdb(Reason::kInvalidFieldInCdb, 2));
    o.data_in = modepages::standard_inquiry(config_.identity);
    return o;
  }
  std::optional<Bytes> data = modepages::vpd_page(page, vpd_inputs());
  if (!data) return Outcome::fail(Sense::cdb(Reason::kInvalidFieldInCdb, 2));
  o.data_in = std::move(*data);
  return o;
}

}  // namespace memstore::scsi
