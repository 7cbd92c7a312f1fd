// SPDX-License-Identifier: Apache-2.0
// PDUs the target sends (RFC 7143 §11, opcodes 20h-3Fh): one struct per
// opcode, `encode` to a BHS and `decode_xxx` back (for tests and test
// initiators). Fields the RFC calls "reserved" in a given context (e.g. the
// LUN of a Data-In without status) are simply left at their defaults.
#pragma once

#include <cstdint>

#include "base/expected.h"
#include "target/iscsi/pdu_bhs.h"

namespace memstore::iscsi {

// Status and sequence numbers carried by most target PDUs (RFC 7143 §4.2.2).
struct StatusSns {
  std::uint32_t stat_sn = 0;
  std::uint32_t exp_cmd_sn = 0;
  std::uint32_t max_cmd_sn = 0;
  bool operator==(const StatusSns&) const = default;
};

// NOP-In, RFC 7143 §11.19.
struct NopInPdu {
  std::uint32_t data_segment_length = 0;
  LunBytes lun{};
  std::uint32_t itt = kReservedTag;
  std::uint32_t ttt = kReservedTag;
  StatusSns sn;
  bool operator==(const NopInPdu&) const = default;
};

// SCSI Response, RFC 7143 §11.4. Response 00h = command completed at target,
// 01h = target failure (§11.4.3).
struct ScsiResponsePdu {
  bool bidi_overflow = false;   // o
  bool bidi_underflow = false;  // u
  bool overflow = false;        // O
  bool underflow = false;       // U
  std::uint8_t response = 0;
  std::uint8_t status = 0;                // SAM status, valid when response is 00h
  std::uint32_t data_segment_length = 0;  // sense and response data
  std::uint32_t itt = 0;
  std::uint32_t snack_tag = 0;
  StatusSns sn;
  std::uint32_t exp_data_sn = 0;
  std::uint32_t bidi_residual_count = 0;
  std::uint32_t residual_count = 0;
  bool operator==(const ScsiResponsePdu&) const = default;
};

// Task management responses, RFC 7143 §11.6.1.
enum class TmfResponse : std::uint8_t {
  kComplete = 0,
  kTaskDoesNotExist = 1,
  kLunDoesNotExist = 2,
  kTaskStillAllegiant = 3,
  kReassignmentNotSupported = 4,
  kNotSupported = 5,
  kAuthorizationFailed = 6,
  kRejected = 255,
};

// Task Management Function Response, RFC 7143 §11.6.
struct TaskMgmtResponsePdu {
  TmfResponse response = TmfResponse::kComplete;
  std::uint32_t itt = 0;
  StatusSns sn;
  bool operator==(const TaskMgmtResponsePdu&) const = default;
};

// Login Response, RFC 7143 §11.13.
struct LoginResponsePdu {
  bool transit = false;
  bool cont = false;
  std::uint8_t csg = 0;  // LoginStage values; raw so that the codec never rejects
  std::uint8_t nsg = 0;
  std::uint8_t version_max = 0;
  std::uint8_t version_active = 0;
  std::uint32_t data_segment_length = 0;
  Isid isid{};
  std::uint16_t tsih = 0;
  std::uint32_t itt = 0;
  StatusSns sn;
  std::uint8_t status_class = 0;  // §11.13.5: 0 success, 1 redirection, 2 initiator, 3 target
  std::uint8_t status_detail = 0;
  bool operator==(const LoginResponsePdu&) const = default;
};

// Text Response, RFC 7143 §11.11.
struct TextResponsePdu {
  bool final = true;
  bool cont = false;
  std::uint32_t data_segment_length = 0;
  LunBytes lun{};
  std::uint32_t itt = 0;
  std::uint32_t ttt = kReservedTag;
  StatusSns sn;
  bool operator==(const TextResponsePdu&) const = default;
};

// SCSI Data-In, RFC 7143 §11.7. With has_status (S) the PDU also carries the
// command's status; then final must be set and sn.stat_sn is valid.
struct DataInPdu {
  bool final = false;
  bool acknowledge = false;  // A
  bool overflow = false;     // O, valid with S
  bool underflow = false;    // U, valid with S
  bool has_status = false;   // S
  std::uint8_t status = 0;
  std::uint32_t data_segment_length = 0;
  LunBytes lun{};
  std::uint32_t itt = 0;
  std::uint32_t ttt = kReservedTag;
  StatusSns sn;
  std::uint32_t data_sn = 0;
  std::uint32_t buffer_offset = 0;
  std::uint32_t residual_count = 0;
  bool operator==(const DataInPdu&) const = default;
};

// Logout responses, RFC 7143 §11.15.1.
enum class LogoutResponse : std::uint8_t {
  kClosed = 0,
  kCidNotFound = 1,
  kRecoveryNotSupported = 2,
  kCleanupFailed = 3,
};

// Logout Response, RFC 7143 §11.15.
struct LogoutResponsePdu {
  LogoutResponse response = LogoutResponse::kClosed;
  std::uint32_t itt = 0;
  StatusSns sn;
  std::uint16_t time2wait = 0;
  std::uint16_t time2retain = 0;
  bool operator==(const LogoutResponsePdu&) const = default;
};

// Ready To Transfer, RFC 7143 §11.8.
struct R2tPdu {
  LunBytes lun{};
  std::uint32_t itt = 0;
  std::uint32_t ttt = 0;
  StatusSns sn;  // stat_sn is the next StatSN, not advanced
  std::uint32_t r2t_sn = 0;
  std::uint32_t buffer_offset = 0;
  std::uint32_t desired_data_transfer_length = 0;
  bool operator==(const R2tPdu&) const = default;
};

// Asynchronous events, RFC 7143 §11.9.1.
enum class AsyncEvent : std::uint8_t {
  kScsiAsyncEvent = 0,
  kRequestLogout = 1,
  kDropConnection = 2,
  kDropAllConnections = 3,
  kRequestNegotiation = 4,
  kVendorSpecific = 255,
};

// Asynchronous Message, RFC 7143 §11.9. The ITT is always kReservedTag.
struct AsyncMessagePdu {
  std::uint32_t data_segment_length = 0;  // sense data / iSCSI event data
  LunBytes lun{};
  StatusSns sn;
  AsyncEvent event = AsyncEvent::kScsiAsyncEvent;
  std::uint8_t vcode = 0;
  std::uint16_t parameter1 = 0;
  std::uint16_t parameter2 = 0;
  std::uint16_t parameter3 = 0;
  bool operator==(const AsyncMessagePdu&) const = default;
};

// Reject, RFC 7143 §11.17. The data segment is the complete header of the
// rejected PDU, so data_segment_length is normally kBhsSize.
struct RejectPdu {
  RejectReason reason = RejectReason::kProtocolError;
  std::uint32_t data_segment_length = kBhsSize;
  StatusSns sn;
  std::uint32_t data_sn_or_r2t_sn = 0;
  bool operator==(const RejectPdu&) const = default;
};

Bhs encode(const NopInPdu& pdu);
Bhs encode(const ScsiResponsePdu& pdu);
Bhs encode(const TaskMgmtResponsePdu& pdu);
Bhs encode(const LoginResponsePdu& pdu);
Bhs encode(const TextResponsePdu& pdu);
Bhs encode(const DataInPdu& pdu);
Bhs encode(const LogoutResponsePdu& pdu);
Bhs encode(const R2tPdu& pdu);
Bhs encode(const AsyncMessagePdu& pdu);
Bhs encode(const RejectPdu& pdu);

Expected<NopInPdu, PduError> decode_nop_in(const Bhs& bhs);
Expected<ScsiResponsePdu, PduError> decode_scsi_response(const Bhs& bhs);
Expected<TaskMgmtResponsePdu, PduError> decode_task_mgmt_response(const Bhs& bhs);
Expected<LoginResponsePdu, PduError> decode_login_response(const Bhs& bhs);
Expected<TextResponsePdu, PduError> decode_text_response(const Bhs& bhs);
Expected<DataInPdu, PduError> decode_data_in(const Bhs& bhs);
Expected<LogoutResponsePdu, PduError> decode_logout_response(const Bhs& bhs);
Expected<R2tPdu, PduError> decode_r2t(const Bhs& bhs);
Expected<AsyncMessagePdu, PduError> decode_async_message(const Bhs& bhs);
Expected<RejectPdu, PduError> decode_reject(const Bhs& bhs);

}  // namespace memstore::iscsi
