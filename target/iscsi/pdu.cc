// SPDX-License-Identifier: Apache-2.0
#include "target/iscsi/pdu.h"

#include <utility>

namespace memstore::iscsi {

namespace {

// Widens decode_xxx's Expected<T, PduError> to Expected<Pdus, PduError>.
template <typename Pdus, typename T>
Expected<Pdus, PduError> widen(Expected<T, PduError> r) {
  if (!r.ok()) return std::move(r.error());
  return Pdus{std::move(r).value()};
}

PduError wrong_direction() {
  return PduError{RejectReason::kProtocolError, 0, "opcode of the other direction"};
}

}  // namespace

Expected<InitiatorPdu, PduError> decode_initiator_pdu(const Bhs& b) {
  const auto op = opcode_of(b);
  if (!op) return PduError{RejectReason::kCommandNotSupported, 0, "undefined opcode"};
  using P = InitiatorPdu;
  switch (*op) {
    case Opcode::kNopOut:
      return widen<P>(decode_nop_out(b));
    case Opcode::kScsiCommand:
      return widen<P>(decode_scsi_command(b));
    case Opcode::kTaskMgmtRequest:
      return widen<P>(decode_task_mgmt_request(b));
    case Opcode::kLoginRequest:
      return widen<P>(decode_login_request(b));
    case Opcode::kTextRequest:
      return widen<P>(decode_text_request(b));
    case Opcode::kDataOut:
      return widen<P>(decode_data_out(b));
    case Opcode::kLogoutRequest:
      return widen<P>(decode_logout_request(b));
    case Opcode::kSnackRequest:
      return widen<P>(decode_snack(b));
    default:
      return wrong_direction();
  }
}

Expected<TargetPdu, PduError> decode_target_pdu(const Bhs& b) {
  const auto op = opcode_of(b);
  if (!op) return PduError{RejectReason::kCommandNotSupported, 0, "undefined opcode"};
  using P = TargetPdu;
  switch (*op) {
    case Opcode::kNopIn:
      return widen<P>(decode_nop_in(b));
    case Opcode::kScsiResponse:
      return widen<P>(decode_scsi_response(b));
    case Opcode::kTaskMgmtResponse:
      return widen<P>(decode_task_mgmt_response(b));
    case Opcode::kLoginResponse:
      return widen<P>(decode_login_response(b));
    case Opcode::kTextResponse:
      return widen<P>(decode_text_response(b));
    case Opcode::kDataIn:
      return widen<P>(decode_data_in(b));
    case Opcode::kLogoutResponse:
      return widen<P>(decode_logout_response(b));
    case Opcode::kR2t:
      return widen<P>(decode_r2t(b));
    case Opcode::kAsyncMessage:
      return widen<P>(decode_async_message(b));
    case Opcode::kReject:
      return widen<P>(decode_reject(b));
    default:
      return wrong_direction();
  }
}

Bhs encode(const InitiatorPdu& pdu) {
  return std::visit([](const auto& p) { return encode(p); }, pdu);
}

Bhs encode(const TargetPdu& pdu) {
  return std::visit([](const auto& p) { return encode(p); }, pdu);
}

}  // namespace memstore::iscsi
