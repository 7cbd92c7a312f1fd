// SPDX-License-Identifier: Apache-2.0
#include "target/iscsi/pdu_target.h"

#include "target/iscsi/pdu_bytes.h"

namespace memstore::iscsi {

using detail::check_common;
using detail::error;
using detail::flag;
using detail::get16;
using detail::get32;
using detail::lun_of;
using detail::put16;
using detail::put32;

namespace {

// StatSN, ExpCmdSN, MaxCmdSN sit at bytes 24-35 in every target PDU that has them.
void put_sns(Bhs& b, const StatusSns& sn) {
  put32(b, 24, sn.stat_sn);
  put32(b, 28, sn.exp_cmd_sn);
  put32(b, 32, sn.max_cmd_sn);
}
StatusSns sns_of(const Bhs& b) {
  return {get32(b, 24), get32(b, 28), get32(b, 32)};
}

}  // namespace

// ---- NOP-In (§11.19) ----

Bhs encode(const NopInPdu& p) {
  Bhs b = detail::start(Opcode::kNopIn, false, 0x80, 0, p.data_segment_length);
  detail::put_bytes(b, 8, p.lun);
  put32(b, 16, p.itt);
  put32(b, 20, p.ttt);
  put_sns(b, p.sn);
  return b;
}

Expected<NopInPdu, PduError> decode_nop_in(const Bhs& b) {
  if (const auto s = check_common(b, Opcode::kNopIn, false, true); !s.ok()) return s.error();
  return NopInPdu{data_segment_length(b), lun_of(b), get32(b, 16), get32(b, 20), sns_of(b)};
}

// ---- SCSI Response (§11.4) ----

Bhs encode(const ScsiResponsePdu& p) {
  const auto flags =
      static_cast<std::uint8_t>(0x80 | flag(p.bidi_overflow, 0x10) | flag(p.bidi_underflow, 0x08) |
                                flag(p.overflow, 0x04) | flag(p.underflow, 0x02));
  Bhs b = detail::start(Opcode::kScsiResponse, false, flags, 0, p.data_segment_length);
  b[2] = p.response;
  b[3] = p.status;
  put32(b, 16, p.itt);
  put32(b, 20, p.snack_tag);
  put_sns(b, p.sn);
  put32(b, 36, p.exp_data_sn);
  put32(b, 40, p.bidi_residual_count);
  put32(b, 44, p.residual_count);
  return b;
}

Expected<ScsiResponsePdu, PduError> decode_scsi_response(const Bhs& b) {
  if (const auto s = check_common(b, Opcode::kScsiResponse, false, true); !s.ok()) return s.error();
  return ScsiResponsePdu{(b[1] & 0x10) != 0,
                         (b[1] & 0x08) != 0,
                         (b[1] & 0x04) != 0,
                         (b[1] & 0x02) != 0,
                         b[2],
                         b[3],
                         data_segment_length(b),
                         get32(b, 16),
                         get32(b, 20),
                         sns_of(b),
                         get32(b, 36),
                         get32(b, 40),
                         get32(b, 44)};
}

// ---- Task Management Function Response (§11.6) ----

Bhs encode(const TaskMgmtResponsePdu& p) {
  Bhs b = detail::start(Opcode::kTaskMgmtResponse, false, 0x80, 0, 0);
  b[2] = static_cast<std::uint8_t>(p.response);
  put32(b, 16, p.itt);
  put_sns(b, p.sn);
  return b;
}

Expected<TaskMgmtResponsePdu, PduError> decode_task_mgmt_response(const Bhs& b) {
  if (const auto s = check_common(b, Opcode::kTaskMgmtResponse, false, false); !s.ok())
    return s.error();
  return TaskMgmtResponsePdu{static_cast<TmfResponse>(b[2]), get32(b, 16), sns_of(b)};
}

// ---- Login Response (§11.13) ----

Bhs encode(const LoginResponsePdu& p) {
  const auto flags = static_cast<std::uint8_t>(flag(p.transit, 0x80) | flag(p.cont, 0x40) |
                                               (p.csg & 3) << 2 | (p.nsg & 3));
  Bhs b = detail::start(Opcode::kLoginResponse, false, flags, 0, p.data_segment_length);
  b[2] = p.version_max;
  b[3] = p.version_active;
  detail::put_bytes(b, 8, p.isid);
  put16(b, 14, p.tsih);
  put32(b, 16, p.itt);
  put_sns(b, p.sn);
  b[36] = p.status_class;
  b[37] = p.status_detail;
  return b;
}

Expected<LoginResponsePdu, PduError> decode_login_response(const Bhs& b) {
  if (const auto s = check_common(b, Opcode::kLoginResponse, false, true); !s.ok())
    return s.error();
  LoginResponsePdu p;
  p.transit = (b[1] & 0x80) != 0;
  p.cont = (b[1] & 0x40) != 0;
  p.csg = static_cast<std::uint8_t>(b[1] >> 2 & 3);
  p.nsg = static_cast<std::uint8_t>(b[1] & 3);
  p.version_max = b[2];
  p.version_active = b[3];
  p.data_segment_length = data_segment_length(b);
  p.isid = detail::get_bytes<6>(b, 8);
  p.tsih = get16(b, 14);
  p.itt = get32(b, 16);
  p.sn = sns_of(b);
  p.status_class = b[36];
  p.status_detail = b[37];
  return p;
}

// ---- Text Response (§11.11) ----

Bhs encode(const TextResponsePdu& p) {
  const auto flags = static_cast<std::uint8_t>(flag(p.final, 0x80) | flag(p.cont, 0x40));
  Bhs b = detail::start(Opcode::kTextResponse, false, flags, 0, p.data_segment_length);
  detail::put_bytes(b, 8, p.lun);
  put32(b, 16, p.itt);
  put32(b, 20, p.ttt);
  put_sns(b, p.sn);
  return b;
}

Expected<TextResponsePdu, PduError> decode_text_response(const Bhs& b) {
  if (const auto s = check_common(b, Opcode::kTextResponse, false, true); !s.ok()) return s.error();
  return TextResponsePdu{(b[1] & 0x80) != 0, (b[1] & 0x40) != 0, data_segment_length(b),
                         lun_of(b),          get32(b, 16),       get32(b, 20),
                         sns_of(b)};
}

// ---- SCSI Data-In (§11.7) ----

Bhs encode(const DataInPdu& p) {
  const auto flags = static_cast<std::uint8_t>(flag(p.final, 0x80) | flag(p.acknowledge, 0x40) |
                                               flag(p.overflow, 0x04) | flag(p.underflow, 0x02) |
                                               flag(p.has_status, 0x01));
  Bhs b = detail::start(Opcode::kDataIn, false, flags, 0, p.data_segment_length);
  b[3] = p.status;
  detail::put_bytes(b, 8, p.lun);
  put32(b, 16, p.itt);
  put32(b, 20, p.ttt);
  put_sns(b, p.sn);
  put32(b, 36, p.data_sn);
  put32(b, 40, p.buffer_offset);
  put32(b, 44, p.residual_count);
  return b;
}

Expected<DataInPdu, PduError> decode_data_in(const Bhs& b) {
  if (const auto s = check_common(b, Opcode::kDataIn, false, true); !s.ok()) return s.error();
  DataInPdu p{(b[1] & 0x80) != 0,     (b[1] & 0x40) != 0, (b[1] & 0x04) != 0,
              (b[1] & 0x02) != 0,     (b[1] & 0x01) != 0, b[3],
              data_segment_length(b), lun_of(b),          get32(b, 16),
              get32(b, 20),           sns_of(b),          get32(b, 36),
              get32(b, 40),           get32(b, 44)};
  // §11.7.2: the S bit may only be set together with F.
  if (p.has_status && !p.final)
    return error(RejectReason::kProtocolError, 1, "Data-In S without F");
  return p;
}

// ---- Logout Response (§11.15) ----

Bhs encode(const LogoutResponsePdu& p) {
  Bhs b = detail::start(Opcode::kLogoutResponse, false, 0x80, 0, 0);
  b[2] = static_cast<std::uint8_t>(p.response);
  put32(b, 16, p.itt);
  put_sns(b, p.sn);
  put16(b, 40, p.time2wait);
  put16(b, 42, p.time2retain);
  return b;
}

Expected<LogoutResponsePdu, PduError> decode_logout_response(const Bhs& b) {
  if (const auto s = check_common(b, Opcode::kLogoutResponse, false, false); !s.ok())
    return s.error();
  return LogoutResponsePdu{static_cast<LogoutResponse>(b[2]), get32(b, 16), sns_of(b), get16(b, 40),
                           get16(b, 42)};
}

// ---- R2T (§11.8) ----

Bhs encode(const R2tPdu& p) {
  Bhs b = detail::start(Opcode::kR2t, false, 0x80, 0, 0);
  detail::put_bytes(b, 8, p.lun);
  put32(b, 16, p.itt);
  put32(b, 20, p.ttt);
  put_sns(b, p.sn);
  put32(b, 36, p.r2t_sn);
  put32(b, 40, p.buffer_offset);
  put32(b, 44, p.desired_data_transfer_length);
  return b;
}

Expected<R2tPdu, PduError> decode_r2t(const Bhs& b) {
  if (const auto s = check_common(b, Opcode::kR2t, false, false); !s.ok()) return s.error();
  return R2tPdu{lun_of(b),    get32(b, 16), get32(b, 20), sns_of(b),
                get32(b, 36), get32(b, 40), get32(b, 44)};
}

// ---- Asynchronous Message (§11.9) ----

Bhs encode(const AsyncMessagePdu& p) {
  Bhs b = detail::start(Opcode::kAsyncMessage, false, 0x80, 0, p.data_segment_length);
  detail::put_bytes(b, 8, p.lun);
  put32(b, 16, kReservedTag);
  put_sns(b, p.sn);
  b[36] = static_cast<std::uint8_t>(p.event);
  b[37] = p.vcode;
  put16(b, 38, p.parameter1);
  put16(b, 40, p.parameter2);
  put16(b, 42, p.parameter3);
  return b;
}

Expected<AsyncMessagePdu, PduError> decode_async_message(const Bhs& b) {
  if (const auto s = check_common(b, Opcode::kAsyncMessage, false, true); !s.ok()) return s.error();
  return AsyncMessagePdu{
      data_segment_length(b), lun_of(b),    sns_of(b),   static_cast<AsyncEvent>(b[36]), b[37],
      get16(b, 38),           get16(b, 40), get16(b, 42)};
}

// ---- Reject (§11.17) ----

Bhs encode(const RejectPdu& p) {
  Bhs b = detail::start(Opcode::kReject, false, 0x80, 0, p.data_segment_length);
  b[2] = static_cast<std::uint8_t>(p.reason);
  put32(b, 16, kReservedTag);
  put_sns(b, p.sn);
  put32(b, 36, p.data_sn_or_r2t_sn);
  return b;
}

Expected<RejectPdu, PduError> decode_reject(const Bhs& b) {
  if (const auto s = check_common(b, Opcode::kReject, false, true); !s.ok()) return s.error();
  return RejectPdu{static_cast<RejectReason>(b[2]), data_segment_length(b), sns_of(b),
                   get32(b, 36)};
}

}  // namespace memstore::iscsi
