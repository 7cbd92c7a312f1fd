// SPDX-License-Identifier: Apache-2.0
// Session: NOP (RFC 7143 §11.18-11.19), Text (§11.10-11.11), task management
// (§11.5-11.6) and Logout (§11.14-11.15).
#include <algorithm>

#include "target/iscsi/session.h"
#include "target/iscsi/session_task.h"
#include "target/iscsi/text_keys.h"

namespace memstore::iscsi {
namespace {

// For the event log: the names RFC 7143 §11.5.1 and §11.6.1 give them.
const char* tmf_name(TmfFunction f) {
  switch (f) {
    case TmfFunction::kAbortTask:
      return "ABORT TASK";
    case TmfFunction::kAbortTaskSet:
      return "ABORT TASK SET";
    case TmfFunction::kClearAca:
      return "CLEAR ACA";
    case TmfFunction::kClearTaskSet:
      return "CLEAR TASK SET";
    case TmfFunction::kLogicalUnitReset:
      return "LOGICAL UNIT RESET";
    case TmfFunction::kTargetWarmReset:
      return "TARGET WARM RESET";
    case TmfFunction::kTargetColdReset:
      return "TARGET COLD RESET";
    case TmfFunction::kTaskReassign:
      return "TASK REASSIGN";
  }
  return "unknown function";
}

const char* tmf_response_name(TmfResponse r) {
  switch (r) {
    case TmfResponse::kComplete:
      return "function complete";
    case TmfResponse::kTaskDoesNotExist:
      return "task does not exist";
    case TmfResponse::kLunDoesNotExist:
      return "LUN does not exist";
    case TmfResponse::kTaskStillAllegiant:
      return "task still allegiant";
    case TmfResponse::kReassignmentNotSupported:
      return "task allegiance reassignment not supported";
    case TmfResponse::kNotSupported:
      return "function not supported";
    case TmfResponse::kAuthorizationFailed:
      return "function authorization failed";
    case TmfResponse::kRejected:
      return "function rejected";
  }
  return "unknown response";
}

}  // namespace

bool Session::ping() {
  if (!full_feature_ || logged_out_) return true;
  if (ping_ttt_ != kReservedTag) return false;
  NopInPdu p;
  p.itt = kReservedTag;
  p.ttt = ping_ttt_ = next_ttt_++;
  if (next_ttt_ == kReservedTag) next_ttt_ = 1;
  p.lun = encode_lun(0);
  p.sn = peek_status();  // a ping does not advance StatSN (§11.19.5)
  send(encode(TargetPdu{p}));
  return true;
}

void Session::on_nop_out(const NopOutPdu& pdu, std::span<const std::uint8_t> data) {
  if (!accept_cmd_sn(pdu.immediate, pdu.cmd_sn)) return;
  if (pdu.itt == kReservedTag) {
    // The answer to a ping of ours (§11.18.3); nothing goes back.
    if (pdu.ttt == ping_ttt_) ping_ttt_ = kReservedTag;
    return;
  }
  NopInPdu r;
  r.itt = pdu.itt;
  r.lun = pdu.lun;
  r.data_segment_length = static_cast<std::uint32_t>(data.size());
  r.sn = next_status();
  send(encode(TargetPdu{r}), data);
}

void Session::on_text(const TextRequestPdu& pdu, std::span<const std::uint8_t> data) {
  if (!accept_cmd_sn(pdu.immediate, pdu.cmd_sn)) return;
  if (text_too_long(text_.size(), data.size())) {
    // Continued text beyond any answer the target would give: the
    // initiator's negotiation cannot go on (RFC 7143 §11.17.1: Reject,
    // then the connection ends at ErrorRecoveryLevel 0).
    text_.clear();
    reject(encode(InitiatorPdu{pdu}), RejectReason::kProtocolError);
    return sink_.close();
  }
  text_.insert(text_.end(), data.begin(), data.end());
  TextResponsePdu r;
  r.itt = pdu.itt;
  r.lun = pdu.lun;
  if (pdu.cont) {
    r.final = false;
    r.ttt = next_ttt_++;
    r.sn = next_status();
    return send(encode(TargetPdu{r}));
  }
  const auto parsed = parse_text(text_);
  text_.clear();
  KeyList keys;
  if (parsed.ok()) {
    const Negotiation::Result answer = negotiation_->respond(to_keys(*parsed), Phase::kFullFeature);
    keys = answer.keys;
    // MaxRecvDataSegmentLength is the one key an initiator may declare again
    // in full-feature phase (RFC 7143 §13.12); the Data-In PDUs that follow
    // are cut to the new value.
    params_.initiator_max_recv_data_segment_length =
        negotiation_->params().initiator_max_recv_data_segment_length;
  } else {
    return reject(encode(InitiatorPdu{pdu}), RejectReason::kProtocolError);
  }
  const std::vector<std::uint8_t> text = to_text(keys);
  r.final = true;
  r.data_segment_length = static_cast<std::uint32_t>(text.size());
  r.sn = next_status();
  send(encode(TargetPdu{r}), text);
}

void Session::on_task_mgmt(const TaskMgmtRequestPdu& pdu) {
  if (!accept_cmd_sn(pdu.immediate, pdu.cmd_sn)) return;
  TaskMgmtResponsePdu r;
  r.itt = pdu.itt;
  auto abort_where = [&](auto pred) {
    for (auto it = tasks_.begin(); it != tasks_.end();) {
      if (pred(*it->second)) {
        // A command already in the model still runs there; its result is
        // dropped (complete(): the next task with this ITT has a new tag).
        if (it->second->submitted) ++generation_;
        it = task_pool_.erase(tasks_, it);
      } else {
        ++it;
      }
    }
  };
  const auto lun = decode_lun(pdu.lun);
  switch (pdu.function) {
    case TmfFunction::kAbortTask: {
      const auto task = tasks_.find(pdu.referenced_task_tag);
      if (task != tasks_.end() && task->second->refuse_abort) {
        // RFC 7143 §11.6.1: "Function rejected". The task goes on, and
        // only a LOGICAL UNIT RESET or a larger reset ends it.
        r.response = TmfResponse::kRejected;
        break;
      }
      const bool found = task != tasks_.end();
      abort_where([&](const Task& t) { return t.cmd.itt == pdu.referenced_task_tag; });
      r.response = found ? TmfResponse::kComplete : TmfResponse::kTaskDoesNotExist;
      break;
    }
    case TmfFunction::kAbortTaskSet:
    case TmfFunction::kClearTaskSet:
    case TmfFunction::kLogicalUnitReset:
      if (!lun || target_ == nullptr || !target_->luns.contains(*lun)) {
        r.response = TmfResponse::kLunDoesNotExist;
        break;
      }
      abort_where([&](const Task& t) { return t.lun == *lun; });
      if (pdu.function == TmfFunction::kLogicalUnitReset) target_->luns.at(*lun)->reset();
      r.response = TmfResponse::kComplete;
      break;
    case TmfFunction::kTargetWarmReset:
    case TmfFunction::kTargetColdReset:
      abort_where([](const Task&) { return true; });
      if (target_ != nullptr) {
        for (const auto& [id, port] : target_->luns) port->reset();
      }
      r.response = TmfResponse::kComplete;
      break;
    case TmfFunction::kTaskReassign:
      r.response = TmfResponse::kReassignmentNotSupported;
      break;
    default:
      r.response = TmfResponse::kNotSupported;
      break;
  }
  r.sn = next_status();
  send(encode(TargetPdu{r}));
  log_event("task management", std::string(tmf_name(pdu.function)) +
                                   (pdu.function == TmfFunction::kAbortTask
                                        ? " of task " + std::to_string(pdu.referenced_task_tag)
                                        : "") +
                                   (lun ? " LUN " + std::to_string(*lun) : " (no LUN)") + ": " +
                                   tmf_response_name(r.response));
  if (pdu.function == TmfFunction::kTargetColdReset) sink_.close();  // RFC 7143 §11.5.1
}

void Session::on_logout(const LogoutRequestPdu& pdu) {
  accept_cmd_sn(pdu.immediate, pdu.cmd_sn);
  LogoutResponsePdu r;
  r.itt = pdu.itt;
  r.response = pdu.reason == LogoutReason::kRemoveConnectionForRecovery
                   ? LogoutResponse::kRecoveryNotSupported
                   : LogoutResponse::kClosed;
  r.time2wait = static_cast<std::uint16_t>(params_.default_time2wait);
  r.time2retain = static_cast<std::uint16_t>(params_.default_time2retain);
  r.sn = next_status();
  send(encode(TargetPdu{r}));
  logged_out_ = true;
  log_event("logout", pdu.reason == LogoutReason::kCloseSession      ? "session closed"
                      : pdu.reason == LogoutReason::kCloseConnection ? "connection closed"
                                                                     : "recovery refused");
  sink_.close();
}

}  // namespace memstore::iscsi
