// SPDX-License-Identifier: Apache-2.0
// Additional Header Segments of a SCSI Command (RFC 7143 §11.2.2, §11.3.4,
// §11.3.5): the extended CDB (AHSType 1) and the expected bidirectional read
// data length (AHSType 2). Each AHS is AHSLength (2 bytes), AHSType (1), one
// type-specific byte and the rest, padded to a multiple of 4 bytes; AHSLength
// counts the type-specific byte and the rest.
#pragma once

#include <cstdint>
#include <optional>
#include <span>
#include <vector>

#include "base/expected.h"
#include "target/iscsi/pdu_bhs.h"
#include "target/iscsi/pdu_initiator.h"

namespace memstore::iscsi {

enum class AhsType : std::uint8_t {
  kExtendedCdb = 1,
  kBidiReadLength = 2,
};

struct ScsiCommandAhs {
  std::vector<std::uint8_t> extended_cdb;  // CDB bytes 16 onwards; empty if none
  std::optional<std::uint32_t> bidi_read_length;
  bool operator==(const ScsiCommandAhs&) const = default;
};

// REQUIRES: ahs.size() == 4 * TotalAHSLength of the command's BHS.
// Non-iSCSI extension AHS (codes 60-63) are skipped; reserved codes, repeats
// and lengths that overrun the segment are errors. PduError::byte is the
// offset in `ahs`.
Expected<ScsiCommandAhs, PduError> decode_ahs(std::span<const std::uint8_t> ahs);

// The AHS bytes (padded) for `ahs`; their size / 4 is the TotalAHSLength.
// REQUIRES: extended_cdb.size() <= 244 (a CDB of at most 260 bytes).
std::vector<std::uint8_t> encode_ahs(const ScsiCommandAhs& ahs);

// The command's whole CDB: the 16 BHS bytes followed by the extended CDB.
std::vector<std::uint8_t> full_cdb(const ScsiCommandPdu& cmd, const ScsiCommandAhs& ahs);

}  // namespace memstore::iscsi
