// SPDX-License-Identifier: Apache-2.0
// Session: construction, numbering (StatSN, the CmdSN window) and the
// dispatch of each PDU to its job: login (session_login.cc), SCSI commands
// (session_command.cc), write data (session_data_out.cc), NOP, Text, task
// management and logout (session_control.cc).
#include "target/iscsi/session.h"

#include <algorithm>

#include "target/iscsi/serial.h"
#include "target/iscsi/session_task.h"

namespace memstore::iscsi {

Session::Session(TargetLookup lookup, LoginConfig discovery, std::uint64_t nexus,
                 std::uint16_t tsih, Sink sink, SessionLimits limits, AdmitSession admit)
    : lookup_(std::move(lookup)),
      discovery_(std::move(discovery)),
      nexus_(nexus),
      tsih_(tsih),
      sink_(std::move(sink)),
      limits_(limits),
      admit_(std::move(admit)) {}

Session::~Session() {
  // The connection is gone. Without a logout first, the initiator lost it:
  // a ping it left unanswered (connection.cc closes then), or the network,
  // the initiator, a reinstating login or the daemon's shutdown closed it.
  if (full_feature_ && !logged_out_) {
    log_event("connection dropped", ping_ttt_ != kReservedTag ? "no answer to the NOP-In ping"
                                                              : "closed without a logout");
  }
  // Results of commands still in the model must not call back into us.
  if (target_ != nullptr) {
    for (const auto& [id, port] : target_->luns) port->forget(nexus_);
  }
}

std::uint32_t Session::max_recv_data_segment_length() const {
  return full_feature_ ? params_.target_max_recv_data_segment_length : 8192;
}

StatusSns Session::peek_status() {
  // The window opens as far as the session has room for tasks, at most
  // cmd_window; a full session closes it (MaxCmdSN = ExpCmdSN - 1). The
  // target never takes back a window it announced (RFC 7143 §4.2.2.1).
  const std::size_t room =
      tasks_.size() >= limits_.max_tasks ? 0 : limits_.max_tasks - tasks_.size();
  const auto open = static_cast<std::uint32_t>(std::min<std::size_t>(room, limits_.cmd_window));
  const std::uint32_t max = exp_cmd_sn_ + open - 1;
  if (serial_gt(max, max_cmd_sn_)) max_cmd_sn_ = max;
  return {stat_sn_, exp_cmd_sn_, max_cmd_sn_};
}

StatusSns Session::next_status() {
  StatusSns s = peek_status();
  ++stat_sn_;
  return s;
}

std::vector<std::uint8_t> Session::spare_pdu() {
  std::vector<std::uint8_t> pdu;
  if (!spare_pdus_.empty()) {
    pdu = std::move(spare_pdus_.back());
    spare_pdus_.pop_back();
  }
  return pdu;
}

void Session::send(const Bhs& bhs, std::span<const std::uint8_t> data) {
  std::vector<std::uint8_t> pdu = spare_pdu();
  pdu.assign(bhs.begin(), bhs.end());
  pdu.insert(pdu.end(), data.begin(), data.end());
  pdu.resize(kBhsSize + padded_length(data.size()), 0);
  sink_.send(std::move(pdu));
}

void Session::recycle(std::vector<std::uint8_t> pdu) {
  // Enough for a window of Data-In sequences; beyond that, let go.
  if (spare_pdus_.size() < 256) spare_pdus_.push_back(std::move(pdu));
}

void Session::reject(const Bhs& bhs, RejectReason reason) {
  RejectPdu r;
  r.reason = reason;
  r.sn = next_status();
  send(encode(TargetPdu{r}), bhs);
}

void Session::on_pdu(const Bhs& bhs, std::span<const std::uint8_t> ahs,
                     std::span<const std::uint8_t> data) {
  if (logged_out_) return;
  const auto decoded = decode_initiator_pdu(bhs);
  if (!decoded.ok()) {
    // Before the full feature phase only Login Requests are valid: anything
    // else ends the login (RFC 7143 §6.3).
    if (!full_feature_) return sink_.close();
    return reject(bhs, decoded.error().reason);
  }
  const InitiatorPdu& pdu = *decoded;
  if (!full_feature_) {
    // Only Login Requests until the full feature phase (RFC 7143 §6.3).
    if (const auto* login = std::get_if<LoginRequestPdu>(&pdu)) return on_login(*login, data);
    sink_.close();
    return;
  }
  std::visit(
      [&](const auto& p) {
        using T = std::decay_t<decltype(p)>;
        if constexpr (std::is_same_v<T, ScsiCommandPdu>) {
          if (discovery_session_) return reject(bhs, RejectReason::kProtocolError);
          on_command(p, ahs, data);
        } else if constexpr (std::is_same_v<T, DataOutPdu>) {
          on_data_out(p, data);
        } else if constexpr (std::is_same_v<T, NopOutPdu>) {
          on_nop_out(p, data);
        } else if constexpr (std::is_same_v<T, TextRequestPdu>) {
          on_text(p, data);
        } else if constexpr (std::is_same_v<T, TaskMgmtRequestPdu>) {
          on_task_mgmt(p);
        } else if constexpr (std::is_same_v<T, LogoutRequestPdu>) {
          on_logout(p);
        } else {
          // SNACK needs ErrorRecoveryLevel > 0; a second Login is a protocol error.
          reject(bhs, RejectReason::kProtocolError);
        }
      },
      pdu);
}

// ---- SCSI commands and data (RFC 7143 §11.3-11.8) ----

bool Session::accept_cmd_sn(bool immediate, std::uint32_t cmd_sn) {
  if (immediate) return true;
  // One connection over TCP delivers in order; anything outside the window
  // [ExpCmdSN, MaxCmdSN] is dropped without a response (RFC 7143 §3.2.2.1).
  if (!serial_in_window(cmd_sn, exp_cmd_sn_, max_cmd_sn_)) return false;
  exp_cmd_sn_ = cmd_sn + 1;
  return true;
}

}  // namespace memstore::iscsi
