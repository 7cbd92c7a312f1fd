// SPDX-License-Identifier: Apache-2.0
// READ DEFECT DATA (10) and (12) (SBC-3): the lists of the logical unit's
// defects, the primary list (PLIST, found when it was made) and the grown
// list (GLIST, found since and reassigned).
//
// Neither device keeps any: the MEMStore model and the zoned disk model map
// every LBA to its place on the media and reassign nothing. The failures a
// tester declares (fault rules, docs/faults.md, failed tips included) are
// answered as the errors they declare when a command meets them, not
// listed here. So the lists a host asks for are there and empty, in
// whichever defined format it asks: an empty list reads the same in each.
#include "target/scsi/lun.h"

namespace memstore::scsi {
namespace {

// DEFECT LIST FORMAT (SBC-3 "Address descriptor formats"): 000b short
// block, 011b long block, 100b bytes from index, 101b physical sector,
// 110b vendor specific; 001b, 010b and 111b are reserved.
constexpr bool defined_format(std::uint8_t format) {
  return format == 0x0 || (format >= 0x3 && format <= 0x6);
}

constexpr std::uint8_t kReqLists = 0x18;  // REQ_PLIST (bit 4), REQ_GLIST (bit 3)
constexpr std::uint8_t kFormat = 0x07;    // bits 2..0

}  // namespace

Outcome Lun::read_defect_data(const CommandContext& c) {
  // The byte with REQ_PLIST, REQ_GLIST and DEFECT LIST FORMAT: byte 2 of
  // the 10-byte CDB, byte 1 of the 12-byte one. Their headers: 4 bytes, or
  // 8 with a 4-byte DEFECT LIST LENGTH and a GENERATION CODE (0: not
  // supported).
  const bool twelve = c.spec.cdb_length == 12;
  const std::uint16_t at = twelve ? 1 : 2;
  const std::uint8_t format = c.cdb[at] & kFormat;
  // A reserved value: INVALID FIELD IN CDB, the bit pointer at the field's
  // most significant bit (SPC-4 §4.5.2.4.2).
  if (!defined_format(format)) {
    return Outcome::fail(Sense::cdb(Reason::kInvalidFieldInCdb, at, 2));
  }
  // The header alone: PLISTV and GLISTV say the requested lists are
  // returned (at the bits REQ_PLIST and REQ_GLIST have in the CDB), the
  // format is the one asked for, and DEFECT LIST LENGTH is 0. An ADDRESS
  // DESCRIPTOR INDEX (12-byte CDB) has no descriptor to start from. The
  // allocation length is applied after the handler, as for every command.
  Outcome o;
  o.data_in.assign(twelve ? 8 : 4, 0);
  o.data_in[1] = static_cast<std::uint8_t>((c.cdb[at] & kReqLists) | format);
  return o;
}

}  // namespace memstore::scsi
