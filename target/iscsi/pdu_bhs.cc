// SPDX-License-Identifier: Apache-2.0
#include "target/iscsi/pdu_bhs.h"

#include "target/iscsi/pdu_bytes.h"
#include "target/scsi/lun_address.h"

namespace memstore::iscsi {

std::optional<Opcode> opcode_of(const Bhs& bhs) {
  const auto code = static_cast<std::uint8_t>(bhs[0] & 0x3F);
  switch (static_cast<Opcode>(code)) {
    case Opcode::kNopOut:
    case Opcode::kScsiCommand:
    case Opcode::kTaskMgmtRequest:
    case Opcode::kLoginRequest:
    case Opcode::kTextRequest:
    case Opcode::kDataOut:
    case Opcode::kLogoutRequest:
    case Opcode::kSnackRequest:
    case Opcode::kNopIn:
    case Opcode::kScsiResponse:
    case Opcode::kTaskMgmtResponse:
    case Opcode::kLoginResponse:
    case Opcode::kTextResponse:
    case Opcode::kDataIn:
    case Opcode::kLogoutResponse:
    case Opcode::kR2t:
    case Opcode::kAsyncMessage:
    case Opcode::kReject:
      return static_cast<Opcode>(code);
  }
  return std::nullopt;
}

LunBytes encode_lun(std::uint16_t lun) {
  return scsi::lun_address(lun);
}

std::optional<std::uint16_t> decode_lun(const LunBytes& bytes) {
  for (std::size_t i = 2; i < bytes.size(); ++i) {
    if (bytes[i] != 0) return std::nullopt;  // a multi-level or extended address
  }
  switch (bytes[0] >> 6) {
    case 0:  // peripheral device addressing: byte 0 bits 5-0 are the bus identifier
      if ((bytes[0] & 0x3F) != 0) return std::nullopt;
      return bytes[1];
    case 1:  // flat space addressing: 14-bit LUN
      return static_cast<std::uint16_t>((bytes[0] & 0x3F) << 8 | bytes[1]);
    default:  // logical unit or extended addressing
      return std::nullopt;
  }
}

namespace detail {

BasicStatus<PduError> check_common(const Bhs& b, Opcode expected, bool ahs_allowed,
                                   bool data_allowed) {
  if (opcode_of(b) != expected) {
    return error(RejectReason::kProtocolError, 0, "opcode does not match the PDU type");
  }
  if (!ahs_allowed && total_ahs_length(b) != 0) {
    return error(RejectReason::kInvalidPduField, 4, "TotalAHSLength must be 0 for this PDU");
  }
  if (!data_allowed && data_segment_length(b) != 0) {
    return error(RejectReason::kInvalidPduField, 5, "DataSegmentLength must be 0 for this PDU");
  }
  return {};
}

}  // namespace detail
}  // namespace memstore::iscsi
