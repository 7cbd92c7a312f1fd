// SPDX-License-Identifier: Apache-2.0
// Session: write data (RFC 7143 §11.7-11.8): R2Ts, and Data-Out PDUs checked
// against their sequence, offset and the task's transfer length.
#include <algorithm>

#include "target/iscsi/session.h"
#include "target/iscsi/session_task.h"

namespace memstore::iscsi {

void Session::send_r2ts(Task& t) {
  if (!t.r2t_screened) {
    // A withhold-r2t fault rule (docs/faults.md) is decided before the
    // first R2T, since the LUN sees the command only once its data is in.
    t.r2t_screened = true;
    if (t.port != nullptr && t.port->may_withhold_r2t()) {
      const std::uint32_t itt = t.cmd.itt;
      const std::uint64_t tag = t.tag;
      return t.port->screen_r2t(
          nexus_, t.cdb, [this, itt, tag](bool withhold) { r2t_screened(itt, tag, withhold); });
    }
  }
  if (t.r2t_withheld) return;
  const std::uint32_t edtl = t.wanted;  // no R2T for data the command will not use
  while (t.outstanding_r2ts < std::max<std::uint32_t>(1, params_.max_outstanding_r2t) &&
         t.next_r2t_offset < edtl) {
    R2tPdu r;
    r.lun = t.cmd.lun;
    r.itt = t.cmd.itt;
    r.ttt = next_ttt_++;
    if (next_ttt_ == kReservedTag) next_ttt_ = 1;
    t.r2t_data_sn.emplace_back(r.ttt, 0);
    r.sn = peek_status();  // R2T does not advance StatSN
    r.r2t_sn = t.r2t_sn++;
    r.buffer_offset = t.next_r2t_offset;
    r.desired_data_transfer_length = std::min(params_.max_burst_length, edtl - t.next_r2t_offset);
    t.next_r2t_offset += r.desired_data_transfer_length;
    ++t.outstanding_r2ts;
    send(encode(TargetPdu{r}));
  }
}

void Session::r2t_screened(std::uint32_t itt, std::uint64_t tag, bool withhold) {
  const auto it = tasks_.find(itt);
  if (it == tasks_.end() || it->second->tag != tag) return;  // aborted meanwhile
  Task& t = *it->second;
  if (!withhold) return send_r2ts(t);
  // The initiator waits for an R2T that never comes, times out and aborts
  // the task (ABORT TASK finds it, unsubmitted, and ends it).
  t.r2t_withheld = true;
  log_event("fault",
            "R2T withheld for task " + std::to_string(itt) + " LUN " + std::to_string(t.lun));
}

std::pair<Session::Task*, std::uint32_t*> Session::data_out_place(const DataOutPdu& pdu,
                                                                  std::size_t length) {
  auto it = tasks_.find(pdu.itt);
  if (it == tasks_.end() || !it->second->cmd.write || it->second->submitted) return {};
  Task& t = *it->second;
  // Data nobody asked for (an unknown Target Transfer Tag, unsolicited data
  // that is not allowed) and DataSN gaps (DataSN counts 0, 1, 2... within
  // each sequence) cannot be recovered at ErrorRecoveryLevel 0.
  const std::uint64_t end = std::uint64_t{pdu.buffer_offset} + length;
  std::uint32_t* expected = nullptr;
  if (pdu.ttt == kReservedTag) {
    // Unsolicited data: only in the sequence the command announced (F=0),
    // and immediate plus unsolicited data within FirstBurstLength (§13.14).
    if (!t.unsolicited_done && end <= params_.first_burst_length) expected = &t.unsolicited_data_sn;
  } else {
    expected = t.r2t_sequence(pdu.ttt);
  }
  if (expected == nullptr || pdu.data_sn != *expected) return {&t, nullptr};
  // In order and within the transfer length (RFC 7143 §13.19, §11.7.6).
  if (pdu.buffer_offset != t.received || end > t.cmd.expected_data_transfer_length) {
    return {&t, nullptr};
  }
  return {&t, expected};
}

void Session::on_data_out(const DataOutPdu& pdu, std::span<const std::uint8_t> data,
                          bool in_place) {
  auto [task, expected] = data_out_place(pdu, data.size());
  // Data for an unknown or finished task: ignored (it may have been aborted).
  if (task == nullptr) return;
  // Out of sequence or order: the PDU is rejected and the connection ends
  // (RFC 7143 §7.1.4, §7.2).
  if (expected == nullptr) {
    reject(encode(InitiatorPdu{pdu}), RejectReason::kProtocolError);
    return sink_.close();
  }
  Task& t = *task;
  ++*expected;
  if (t.received < t.wanted) {
    const std::size_t keep = std::min<std::size_t>(data.size(), t.wanted - t.received);
    if (!in_place) std::copy_n(data.begin(), keep, t.room(keep).begin());
    t.kept += static_cast<std::uint32_t>(keep);
  }
  t.received += static_cast<std::uint32_t>(data.size());
  if (pdu.final) {
    if (pdu.ttt == kReservedTag) {
      t.unsolicited_done = true;
      t.next_r2t_offset = std::max(t.next_r2t_offset, t.received);
    } else if (t.outstanding_r2ts > 0) {
      --t.outstanding_r2ts;
      std::erase_if(t.r2t_data_sn, [&](const auto& e) { return e.first == pdu.ttt; });
    }
  }
  if (t.received >= t.wanted) return submit(t);
  if (t.unsolicited_done) send_r2ts(t);
}

}  // namespace memstore::iscsi
