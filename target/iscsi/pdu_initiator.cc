// SPDX-License-Identifier: Apache-2.0
#include "target/iscsi/pdu_initiator.h"

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

// ---- NOP-Out (RFC 7143 §11.18) ----

Bhs encode(const NopOutPdu& p) {
  Bhs b = detail::start(Opcode::kNopOut, p.immediate, 0x80, 0, p.data_segment_length);
  detail::put_bytes(b, 8, p.lun);
  put32(b, 16, p.itt);
  put32(b, 20, p.ttt);
  put32(b, 24, p.cmd_sn);
  put32(b, 28, p.exp_stat_sn);
  return b;
}

Expected<NopOutPdu, PduError> decode_nop_out(const Bhs& b) {
  if (const auto s = check_common(b, Opcode::kNopOut, false, true); !s.ok()) return s.error();
  NopOutPdu p{immediate_bit(b), data_segment_length(b), lun_of(b),   get32(b, 16),
              get32(b, 20),     get32(b, 24),           get32(b, 28)};
  // §11.18.2: a NOP-Out that answers a NOP-In (ITT reserved) must be immediate.
  if (p.itt == kReservedTag && !p.immediate) {
    return error(RejectReason::kProtocolError, 0, "NOP-Out with reserved ITT must set I");
  }
  return p;
}

// ---- SCSI Command (RFC 7143 §11.3) ----

Bhs encode(const ScsiCommandPdu& p) {
  const auto flags =
      static_cast<std::uint8_t>(flag(p.final, 0x80) | flag(p.read, 0x40) | flag(p.write, 0x20) |
                                (static_cast<std::uint8_t>(p.attr) & 0x07));
  Bhs b = detail::start(Opcode::kScsiCommand, p.immediate, flags, p.total_ahs_length,
                        p.data_segment_length);
  detail::put_bytes(b, 8, p.lun);
  put32(b, 16, p.itt);
  put32(b, 20, p.expected_data_transfer_length);
  put32(b, 24, p.cmd_sn);
  put32(b, 28, p.exp_stat_sn);
  detail::put_bytes(b, 32, p.cdb);
  return b;
}

Expected<ScsiCommandPdu, PduError> decode_scsi_command(const Bhs& b) {
  if (const auto s = check_common(b, Opcode::kScsiCommand, true, true); !s.ok()) return s.error();
  const std::uint8_t attr = b[1] & 0x07;
  if (attr > static_cast<std::uint8_t>(TaskAttribute::kAca)) {
    return error(RejectReason::kProtocolError, 1, "reserved task attribute");
  }
  ScsiCommandPdu p;
  p.immediate = immediate_bit(b);
  p.final = (b[1] & 0x80) != 0;
  p.read = (b[1] & 0x40) != 0;
  p.write = (b[1] & 0x20) != 0;
  p.attr = static_cast<TaskAttribute>(attr);
  p.total_ahs_length = total_ahs_length(b);
  p.data_segment_length = data_segment_length(b);
  p.lun = lun_of(b);
  p.itt = get32(b, 16);
  p.expected_data_transfer_length = get32(b, 20);
  p.cmd_sn = get32(b, 24);
  p.exp_stat_sn = get32(b, 28);
  p.cdb = detail::get_bytes<16>(b, 32);
  if (p.itt == kReservedTag) {
    return error(RejectReason::kInvalidPduField, 16, "SCSI Command with the reserved ITT");
  }
  // §11.3.1.1: R and W must not both be 0 when data transfer is expected.
  if (!p.read && !p.write && p.expected_data_transfer_length != 0) {
    return error(RejectReason::kInvalidPduField, 20,
                 "Expected Data Transfer Length without R or W");
  }
  return p;
}

// ---- Task Management Function Request (RFC 7143 §11.5) ----

Bhs encode(const TaskMgmtRequestPdu& p) {
  const auto flags =
      static_cast<std::uint8_t>(0x80 | (static_cast<std::uint8_t>(p.function) & 0x7F));
  Bhs b = detail::start(Opcode::kTaskMgmtRequest, p.immediate, flags, 0, 0);
  detail::put_bytes(b, 8, p.lun);
  put32(b, 16, p.itt);
  put32(b, 20, p.referenced_task_tag);
  put32(b, 24, p.cmd_sn);
  put32(b, 28, p.exp_stat_sn);
  put32(b, 32, p.ref_cmd_sn);
  put32(b, 36, p.exp_data_sn);
  return b;
}

Expected<TaskMgmtRequestPdu, PduError> decode_task_mgmt_request(const Bhs& b) {
  if (const auto s = check_common(b, Opcode::kTaskMgmtRequest, false, false); !s.ok())
    return s.error();
  return TaskMgmtRequestPdu{immediate_bit(b), static_cast<TmfFunction>(b[1] & 0x7F),
                            lun_of(b),        get32(b, 16),
                            get32(b, 20),     get32(b, 24),
                            get32(b, 28),     get32(b, 32),
                            get32(b, 36)};
}

// ---- Login Request (RFC 7143 §11.12) ----

Bhs encode(const LoginRequestPdu& p) {
  const auto flags = static_cast<std::uint8_t>(flag(p.transit, 0x80) | flag(p.cont, 0x40) |
                                               (static_cast<std::uint8_t>(p.csg) & 3) << 2 |
                                               (static_cast<std::uint8_t>(p.nsg) & 3));
  Bhs b = detail::start(Opcode::kLoginRequest, true, flags, 0, p.data_segment_length);
  b[2] = p.version_max;
  b[3] = p.version_min;
  detail::put_bytes(b, 8, p.isid);
  put16(b, 14, p.tsih);
  put32(b, 16, p.itt);
  put16(b, 20, p.cid);
  put32(b, 24, p.cmd_sn);
  put32(b, 28, p.exp_stat_sn);
  return b;
}

Expected<LoginRequestPdu, PduError> decode_login_request(const Bhs& b) {
  if (const auto s = check_common(b, Opcode::kLoginRequest, false, true); !s.ok()) return s.error();
  LoginRequestPdu p;
  p.transit = (b[1] & 0x80) != 0;
  p.cont = (b[1] & 0x40) != 0;
  const auto csg = static_cast<std::uint8_t>(b[1] >> 2 & 3);
  const auto nsg = static_cast<std::uint8_t>(b[1] & 3);
  // §11.12.2: T and C must not both be 1.
  if (p.transit && p.cont) return error(RejectReason::kProtocolError, 1, "login with T and C");
  if (csg == 2) return error(RejectReason::kProtocolError, 1, "reserved login stage in CSG");
  if (p.transit && nsg == 2) {
    return error(RejectReason::kProtocolError, 1, "reserved login stage in NSG");
  }
  p.csg = static_cast<LoginStage>(csg);
  p.nsg = p.transit ? static_cast<LoginStage>(nsg) : LoginStage::kSecurityNegotiation;
  p.version_max = b[2];
  p.version_min = b[3];
  p.data_segment_length = data_segment_length(b);
  p.isid = detail::get_bytes<6>(b, 8);
  p.tsih = get16(b, 14);
  p.itt = get32(b, 16);
  p.cid = get16(b, 20);
  p.cmd_sn = get32(b, 24);
  p.exp_stat_sn = get32(b, 28);
  return p;
}

// ---- Text Request (RFC 7143 §11.10) ----

Bhs encode(const TextRequestPdu& p) {
  const auto flags = static_cast<std::uint8_t>(flag(p.final, 0x80) | flag(p.cont, 0x40));
  Bhs b = detail::start(Opcode::kTextRequest, p.immediate, flags, 0, p.data_segment_length);
  detail::put_bytes(b, 8, p.lun);
  put32(b, 16, p.itt);
  put32(b, 20, p.ttt);
  put32(b, 24, p.cmd_sn);
  put32(b, 28, p.exp_stat_sn);
  return b;
}

Expected<TextRequestPdu, PduError> decode_text_request(const Bhs& b) {
  if (const auto s = check_common(b, Opcode::kTextRequest, false, true); !s.ok()) return s.error();
  TextRequestPdu p{immediate_bit(b),       (b[1] & 0x80) != 0, (b[1] & 0x40) != 0,
                   data_segment_length(b), lun_of(b),          get32(b, 16),
                   get32(b, 20),           get32(b, 24),       get32(b, 28)};
  // §11.10.2: a Text Request with C = 1 must have F = 0.
  if (p.final && p.cont) return error(RejectReason::kProtocolError, 1, "text with F and C");
  if (p.itt == kReservedTag) {
    return error(RejectReason::kInvalidPduField, 16, "Text Request with the reserved ITT");
  }
  return p;
}

// ---- SCSI Data-Out (RFC 7143 §11.7) ----

Bhs encode(const DataOutPdu& p) {
  Bhs b = detail::start(Opcode::kDataOut, false, flag(p.final, 0x80), 0, p.data_segment_length);
  detail::put_bytes(b, 8, p.lun);
  put32(b, 16, p.itt);
  put32(b, 20, p.ttt);
  put32(b, 28, p.exp_stat_sn);
  put32(b, 36, p.data_sn);
  put32(b, 40, p.buffer_offset);
  return b;
}

Expected<DataOutPdu, PduError> decode_data_out(const Bhs& b) {
  if (const auto s = check_common(b, Opcode::kDataOut, false, true); !s.ok()) return s.error();
  return DataOutPdu{final_bit(b), data_segment_length(b), lun_of(b),    get32(b, 16),
                    get32(b, 20), get32(b, 28),           get32(b, 36), get32(b, 40)};
}

// ---- Logout Request (RFC 7143 §11.14) ----

Bhs encode(const LogoutRequestPdu& p) {
  const auto flags = static_cast<std::uint8_t>(0x80 | (static_cast<std::uint8_t>(p.reason) & 0x7F));
  Bhs b = detail::start(Opcode::kLogoutRequest, p.immediate, flags, 0, 0);
  put32(b, 16, p.itt);
  put16(b, 20, p.cid);
  put32(b, 24, p.cmd_sn);
  put32(b, 28, p.exp_stat_sn);
  return b;
}

Expected<LogoutRequestPdu, PduError> decode_logout_request(const Bhs& b) {
  if (const auto s = check_common(b, Opcode::kLogoutRequest, false, false); !s.ok())
    return s.error();
  const auto reason = static_cast<std::uint8_t>(b[1] & 0x7F);
  if (reason > static_cast<std::uint8_t>(LogoutReason::kRemoveConnectionForRecovery)) {
    return error(RejectReason::kProtocolError, 1, "reserved logout reason code");
  }
  LogoutRequestPdu p{immediate_bit(b), static_cast<LogoutReason>(reason),
                     get32(b, 16),     get16(b, 20),
                     get32(b, 24),     get32(b, 28)};
  if (p.itt == kReservedTag) {
    return error(RejectReason::kInvalidPduField, 16, "Logout Request with the reserved ITT");
  }
  return p;
}

// ---- SNACK Request (RFC 7143 §11.16) ----

Bhs encode(const SnackPdu& p) {
  const auto flags = static_cast<std::uint8_t>(0x80 | (static_cast<std::uint8_t>(p.type) & 0x0F));
  Bhs b = detail::start(Opcode::kSnackRequest, false, flags, 0, 0);
  detail::put_bytes(b, 8, p.lun);
  put32(b, 16, p.itt);
  put32(b, 20, p.ttt_or_snack_tag);
  put32(b, 28, p.exp_stat_sn);
  put32(b, 40, p.beg_run);
  put32(b, 44, p.run_length);
  return b;
}

Expected<SnackPdu, PduError> decode_snack(const Bhs& b) {
  if (const auto s = check_common(b, Opcode::kSnackRequest, false, false); !s.ok())
    return s.error();
  const auto type = static_cast<std::uint8_t>(b[1] & 0x0F);
  if (type > static_cast<std::uint8_t>(SnackType::kRData)) {
    return error(RejectReason::kProtocolError, 1, "reserved SNACK type");
  }
  return SnackPdu{static_cast<SnackType>(type),
                  lun_of(b),
                  get32(b, 16),
                  get32(b, 20),
                  get32(b, 28),
                  get32(b, 40),
                  get32(b, 44)};
}

}  // namespace memstore::iscsi
