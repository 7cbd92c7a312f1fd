// SPDX-License-Identifier: Apache-2.0
// What a target says about its logical units as a whole, for every
// transport, in one place: REPORT LUNS (SPC-4 §6.33) and the answer to a
// command addressed to a logical unit that does not exist (SPC-4 §4.6.8 for
// INQUIRY's peripheral qualifier, SAM-5 §5.9.1 for the rest).
#pragma once

#include <cstdint>
#include <span>
#include <variant>

#include "base/expected.h"
#include "target/scsi/lun_address.h"
#include "target/scsi/sense.h"

namespace memstore::scsi {

// REPORT LUNS parameter data for the target's logical units `ids` (in the
// order given), before the allocation length cuts it; or why the CDB is
// refused. SELECT REPORT 00h and 02h list them all, 01h (well-known logical
// units only) none: the target has no well-known logical units.
Expected<Bytes, Sense> report_luns(std::span<const std::uint16_t> ids,
                                   std::span<const std::uint8_t> cdb);

// A command to a logical unit the target does not have: INQUIRY (standard
// data) answers with peripheral qualifier 011b and device type 1Fh; every
// other command fails with LOGICAL UNIT NOT SUPPORTED. There is no logical
// unit whose D_SENSE could ask for descriptor format, so sense is fixed.
struct AbsentLunAnswer {
  Status status = Status::kGood;
  Bytes sense;
  Bytes data_in;  // already cut to the ALLOCATION LENGTH
};
AbsentLunAnswer absent_lun(std::span<const std::uint8_t> cdb);

// The same at a target whose logical units are `ids`, except that REPORT
// LUNS lists them: SPC-4 §6.33 lets it be addressed to any LUN.
AbsentLunAnswer absent_lun(std::span<const std::uint16_t> ids, std::span<const std::uint8_t> cdb);

}  // namespace memstore::scsi
