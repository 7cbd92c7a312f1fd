// SPDX-License-Identifier: Apache-2.0
// LOG SENSE (SPC-4 §6.6): Supported Log Pages, and the vendor pages with the
// device's power and positioning statistics (docs/vendor-interface.md).
#include "modepages/bytes.h"
#include "target/scsi/lun.h"

namespace memstore::scsi {

Outcome Lun::log_sense(const CommandContext& c) {
  const std::uint8_t page = c.cdb[2] & 0x3F;
  const std::uint8_t subpage = c.cdb[3];
  // Subpages are not supported; a PARAMETER POINTER other than 0 would ask
  // for a partial page, which this target does not produce.
  if (subpage != 0) return Outcome::fail(Sense::cdb(Reason::kInvalidFieldInCdb, 3));
  if (modepages::get_be16(c.cdb, 5) != 0) {
    return Outcome::fail(Sense::cdb(Reason::kInvalidFieldInCdb, 5));
  }
  modepages::LogInputs in;
  // A disk model keeps no power states: no page 30h (MEMStore power).
  in.has_power = !is_disk();
  if (in.has_power) in.power = modepages::power_log_from(device_->energy(last_arrival_ns_));
  in.positioning = stats_.log();
  std::optional<Bytes> data = modepages::log_page(page, in);
  if (!data) return Outcome::fail(Sense::cdb(Reason::kInvalidFieldInCdb, 2, 5));
  Outcome o;
  o.data_in = std::move(*data);
  return o;
}

}  // namespace memstore::scsi
