// SPDX-License-Identifier: Apache-2.0
// PDUs the initiator sends and the target receives (RFC 7143 §11, opcodes
// 00h-1Fh): one struct per opcode, `encode` to a BHS and `decode_xxx` back.
// Decoders check what the RFC makes an error and ignore reserved fields
// (RFC 7143 §11.2: "any compliant receiver MUST ignore ... reserved fields");
// reserved code values in defined fields are protocol errors. Sequence-number
// and task-tag bookkeeping belongs to the session, not here.
#pragma once

#include <array>
#include <cstdint>

#include "base/expected.h"
#include "target/iscsi/pdu_bhs.h"

namespace memstore::iscsi {

// NOP-Out, RFC 7143 §11.18. ITT = kReservedTag answers a NOP-In (then I = 1).
struct NopOutPdu {
  bool immediate = false;
  std::uint32_t data_segment_length = 0;  // ping data
  LunBytes lun{};
  std::uint32_t itt = kReservedTag;
  std::uint32_t ttt = kReservedTag;
  std::uint32_t cmd_sn = 0;
  std::uint32_t exp_stat_sn = 0;
  bool operator==(const NopOutPdu&) const = default;
};

// Task attributes, RFC 7143 §11.3.1.3 (values 5-7 are reserved).
enum class TaskAttribute : std::uint8_t {
  kUntagged = 0,
  kSimple = 1,
  kOrdered = 2,
  kHeadOfQueue = 3,
  kAca = 4,
};

// SCSI Command, RFC 7143 §11.3.
struct ScsiCommandPdu {
  bool immediate = false;
  bool final = true;  // no unsolicited Data-Out follows
  bool read = false;
  bool write = false;
  TaskAttribute attr = TaskAttribute::kSimple;
  std::uint8_t total_ahs_length = 0;      // 4-byte words
  std::uint32_t data_segment_length = 0;  // immediate data
  LunBytes lun{};
  std::uint32_t itt = 0;
  std::uint32_t expected_data_transfer_length = 0;
  std::uint32_t cmd_sn = 0;
  std::uint32_t exp_stat_sn = 0;
  std::array<std::uint8_t, 16> cdb{};  // longer CDBs continue in an AHS (pdu_ahs.h)
  bool operator==(const ScsiCommandPdu&) const = default;
};

// Task management functions, RFC 7143 §11.5.1. Other values are decoded as
// they are: the target answers them with "Function rejected" (§11.6.1).
enum class TmfFunction : std::uint8_t {
  kAbortTask = 1,
  kAbortTaskSet = 2,
  kClearAca = 3,
  kClearTaskSet = 4,
  kLogicalUnitReset = 5,
  kTargetWarmReset = 6,
  kTargetColdReset = 7,
  kTaskReassign = 8,
};

// Task Management Function Request, RFC 7143 §11.5.
struct TaskMgmtRequestPdu {
  bool immediate = false;
  TmfFunction function = TmfFunction::kAbortTask;
  LunBytes lun{};
  std::uint32_t itt = 0;
  std::uint32_t referenced_task_tag = kReservedTag;
  std::uint32_t cmd_sn = 0;
  std::uint32_t exp_stat_sn = 0;
  std::uint32_t ref_cmd_sn = 0;
  std::uint32_t exp_data_sn = 0;
  bool operator==(const TaskMgmtRequestPdu&) const = default;
};

// Login stages (CSG/NSG), RFC 7143 §11.12.3; 2 is reserved.
enum class LoginStage : std::uint8_t {
  kSecurityNegotiation = 0,
  kOperationalNegotiation = 1,
  kFullFeaturePhase = 3,
};

// Login Request, RFC 7143 §11.12. The I bit is always 1 on the wire.
struct LoginRequestPdu {
  bool transit = false;  // T
  bool cont = false;     // C: the text continues in the next PDU
  LoginStage csg = LoginStage::kSecurityNegotiation;
  LoginStage nsg = LoginStage::kSecurityNegotiation;  // meaningful only when transit
  std::uint8_t version_max = 0;
  std::uint8_t version_min = 0;
  std::uint32_t data_segment_length = 0;
  Isid isid{};
  std::uint16_t tsih = 0;
  std::uint32_t itt = 0;
  std::uint16_t cid = 0;
  std::uint32_t cmd_sn = 0;
  std::uint32_t exp_stat_sn = 0;
  bool operator==(const LoginRequestPdu&) const = default;
};

// Text Request, RFC 7143 §11.10.
struct TextRequestPdu {
  bool immediate = false;
  bool final = true;
  bool cont = false;  // C
  std::uint32_t data_segment_length = 0;
  LunBytes lun{};
  std::uint32_t itt = 0;
  std::uint32_t ttt = kReservedTag;
  std::uint32_t cmd_sn = 0;
  std::uint32_t exp_stat_sn = 0;
  bool operator==(const TextRequestPdu&) const = default;
};

// SCSI Data-Out, RFC 7143 §11.7.
struct DataOutPdu {
  bool final = false;
  std::uint32_t data_segment_length = 0;
  LunBytes lun{};
  std::uint32_t itt = 0;
  std::uint32_t ttt = kReservedTag;
  std::uint32_t exp_stat_sn = 0;
  std::uint32_t data_sn = 0;
  std::uint32_t buffer_offset = 0;
  bool operator==(const DataOutPdu&) const = default;
};

// Logout reason codes, RFC 7143 §11.14.1 (other values are reserved).
enum class LogoutReason : std::uint8_t {
  kCloseSession = 0,
  kCloseConnection = 1,
  kRemoveConnectionForRecovery = 2,
};

// Logout Request, RFC 7143 §11.14.
struct LogoutRequestPdu {
  bool immediate = false;
  LogoutReason reason = LogoutReason::kCloseSession;
  std::uint32_t itt = 0;
  std::uint16_t cid = 0;  // ignored for kCloseSession
  std::uint32_t cmd_sn = 0;
  std::uint32_t exp_stat_sn = 0;
  bool operator==(const LogoutRequestPdu&) const = default;
};

// SNACK types, RFC 7143 §11.16.1 (other values are reserved).
enum class SnackType : std::uint8_t {
  kDataR2t = 0,
  kStatus = 1,
  kDataAck = 2,
  kRData = 3,
};

// SNACK Request, RFC 7143 §11.16.
struct SnackPdu {
  SnackType type = SnackType::kDataR2t;
  LunBytes lun{};
  std::uint32_t itt = kReservedTag;
  std::uint32_t ttt_or_snack_tag = kReservedTag;
  std::uint32_t exp_stat_sn = 0;
  std::uint32_t beg_run = 0;
  std::uint32_t run_length = 0;
  bool operator==(const SnackPdu&) const = default;
};

Bhs encode(const NopOutPdu& pdu);
Bhs encode(const ScsiCommandPdu& pdu);
Bhs encode(const TaskMgmtRequestPdu& pdu);
Bhs encode(const LoginRequestPdu& pdu);
Bhs encode(const TextRequestPdu& pdu);
Bhs encode(const DataOutPdu& pdu);
Bhs encode(const LogoutRequestPdu& pdu);
Bhs encode(const SnackPdu& pdu);

Expected<NopOutPdu, PduError> decode_nop_out(const Bhs& bhs);
Expected<ScsiCommandPdu, PduError> decode_scsi_command(const Bhs& bhs);
Expected<TaskMgmtRequestPdu, PduError> decode_task_mgmt_request(const Bhs& bhs);
Expected<LoginRequestPdu, PduError> decode_login_request(const Bhs& bhs);
Expected<TextRequestPdu, PduError> decode_text_request(const Bhs& bhs);
Expected<DataOutPdu, PduError> decode_data_out(const Bhs& bhs);
Expected<LogoutRequestPdu, PduError> decode_logout_request(const Bhs& bhs);
Expected<SnackPdu, PduError> decode_snack(const Bhs& bhs);

}  // namespace memstore::iscsi
