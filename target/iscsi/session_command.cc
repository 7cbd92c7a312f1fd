// SPDX-License-Identifier: Apache-2.0
// Session: SCSI commands (RFC 7143 §11.3-11.4), from the Command PDU to the
// Data-In and SCSI Response, with residuals.
#include <algorithm>

#include "target/iscsi/session.h"
#include "target/iscsi/session_task.h"
#include "target/scsi/data_out_length.h"
#include "target/scsi/report_luns.h"

namespace memstore::iscsi {

void Session::on_command(const ScsiCommandPdu& cmd, std::span<const std::uint8_t> ahs,
                         std::span<const std::uint8_t> data, scsi::Bytes* landed) {
  if (!accept_cmd_sn(cmd.immediate, cmd.cmd_sn)) return;
  // Immediate commands bypass the window; this bounds them too (SAM-5
  // §5.3.3: TASK SET FULL, the initiator retries later).
  if (tasks_.size() >= limits_.max_tasks && !tasks_.contains(cmd.itt)) {
    return refuse(cmd, scsi::Status::kTaskSetFull);
  }
  // An ITT names one outstanding task (RFC 7143 §11.2.1.8).
  auto [slot, inserted] = task_pool_.insert(tasks_, cmd.itt);
  if (!inserted) return reject(encode(InitiatorPdu{cmd}), RejectReason::kTaskInProgress);
  std::unique_ptr<Task>& owned = slot->second;
  if (owned) {
    owned->reset();  // a recycled task: keep its buffers' capacity
  } else {
    owned = std::make_unique<Task>();
  }
  Task* task = owned.get();
  // Until the command checks out, it is not a task.
  auto drop = [&] { task_pool_.erase(tasks_, tasks_.find(cmd.itt)); };
  task->cmd = cmd;
  task->tag = (std::uint64_t{generation_} << 32) | cmd.itt;
  if (!ahs.empty()) {
    const auto extra = decode_ahs(ahs);
    if (!extra.ok()) {
      drop();
      return reject(encode(InitiatorPdu{cmd}), extra.error().reason);
    }
    task->cdb = full_cdb(cmd, *extra);
  } else {
    task->cdb.assign(cmd.cdb.begin(), cmd.cdb.end());
  }
  const auto lun = decode_lun(cmd.lun);
  task->lun = lun.value_or(0xFFFF);
  if (lun && target_ != nullptr) {
    auto it = target_->luns.find(*lun);
    if (it != target_->luns.end()) task->port = it->second;
  }
  if (cmd.write) {
    const std::uint32_t edtl = cmd.expected_data_transfer_length;
    const std::uint64_t cdb_bytes =
        task->port != nullptr ? scsi::data_out_length(task->cdb, task->port->block_size()) : 0;
    task->wanted = static_cast<std::uint32_t>(std::min<std::uint64_t>(edtl, cdb_bytes));
    // Immediate data (RFC 7143 §3.2.4.2), at most FirstBurstLength.
    if (!data.empty()) {
      if (!params_.immediate_data || data.size() > edtl ||
          data.size() > params_.first_burst_length) {
        drop();
        return reject(encode(InitiatorPdu{cmd}), RejectReason::kProtocolError);
      }
      const std::size_t keep = std::min<std::size_t>(data.size(), task->wanted);
      if (landed != nullptr) {
        // Received in place: the task takes that buffer and gives up its
        // own, which waits for the next command's data (spare_writes_).
        std::swap(task->data, *landed);
      } else {
        std::copy_n(data.begin(), keep, task->room(keep).begin());
      }
      task->kept = static_cast<std::uint32_t>(keep);
      task->received = static_cast<std::uint32_t>(data.size());
    }
    // Unsolicited Data-Out PDUs follow unless F is set; they are allowed only
    // with InitialR2T=No (RFC 7143 §13.10). With InitialR2T=Yes, F=0 announces
    // data the initiator may not send: waiting for it would hang the task.
    if (!cmd.final && (params_.initial_r2t || task->received >= edtl)) {
      drop();
      return reject(encode(InitiatorPdu{cmd}), RejectReason::kProtocolError);
    }
    task->unsolicited_done = cmd.final;
  }
  start_task(*task);
}

void Session::start_task(Task& t) {
  if (!t.cmd.write || t.received >= t.wanted) return submit(t);
  if (t.unsolicited_done) {
    t.next_r2t_offset = t.received;
    send_r2ts(t);
  }
}

void Session::submit(Task& t) {
  t.submitted = true;
  const std::uint64_t tag = t.tag;
  if (t.cdb.empty()) return;
  if (t.port == nullptr) {
    // No logical unit at that LUN: REPORT LUNS still lists the target's
    // (SPC-4 §6.33 lets it be addressed anywhere), the rest is refused. An
    // existing LUN answers REPORT LUNS itself, with its own D_SENSE.
    std::vector<std::uint16_t> ids;
    if (target_ != nullptr) {
      for (const auto& [id, port] : target_->luns) ids.push_back(id);
    }
    scsi::AbsentLunAnswer a = scsi::absent_lun(ids, t.cdb);
    scsi::ScsiResult r;
    r.status = a.status;
    r.sense = std::move(a.sense);
    r.data_in = std::move(a.data_in);
    return complete(tag, std::move(r));
  }
  scsi::ScsiCommand command;
  command.nexus = nexus_;
  command.tag = tag;
  command.cdb = t.cdb;
  command.data_out = std::span(t.data).first(t.kept);
  // The initiator's Data-Out Buffer may be larger than what was kept.
  command.data_out_buffer = t.cmd.write ? t.cmd.expected_data_transfer_length : 0;
  command.data_out_owner = &t.data;  // the port may take it (LoopBridge) or swap it (Lun)
  t.port->submit(command, [this, tag](scsi::ScsiResult r) { complete(tag, std::move(r)); });
}

void Session::complete(std::uint64_t tag, scsi::ScsiResult result) {
  const auto itt = static_cast<std::uint32_t>(tag);
  auto it = tasks_.find(itt);
  // An aborted task's result: dropped (its ITT may name a new task by now).
  if (it == tasks_.end() || it->second->tag != tag) return;
  if (result.withheld) {
    // An injected timeout whose abort is refused (docs/faults.md): no
    // response, and the task stays open until a reset ends it.
    it->second->refuse_abort = true;
    if (it->second->port != nullptr) it->second->port->recycle(std::move(result.data_in));
    return;
  }
  const ScsiCommandPdu cmd = it->second->cmd;
  driver::CommandPort* const port = it->second->port;
  task_pool_.erase(tasks_, it);
  // The data-in buffer goes back to the LUN once its PDUs are built.
  struct Recycle {
    driver::CommandPort* port;
    scsi::Bytes& buffer;
    ~Recycle() {
      if (port != nullptr) port->recycle(std::move(buffer));
    }
  } recycle{port, result.data_in};
  if (logged_out_) return;
  // An injected transport fault (docs/faults.md, "drop-connection"): the
  // connection ends with no response, as a path failure would end it.
  if (result.drop_connection) return sink_.close();
  // "corrupt-digest": the first PDU of the response carries a wrong digest;
  // the initiator must discard it (RFC 7143 §7.8) and recover.
  if (result.corrupt_digest && sink_.corrupt_next_digest) sink_.corrupt_next_digest();
  const std::uint32_t edtl = cmd.expected_data_transfer_length;
  const bool good = result.status == scsi::Status::kGood;

  // Residuals (RFC 7143 §11.4.5): what the command moved against what the
  // initiator expected.
  std::vector<std::uint8_t>& in = result.data_in;
  bool overflow = false, underflow = false;
  std::uint32_t residual = 0;
  if (cmd.read && good) {
    if (in.size() > edtl) {
      overflow = true;
      residual = static_cast<std::uint32_t>(in.size() - edtl);
      in.resize(edtl);
    } else if (in.size() < edtl) {
      underflow = true;
      residual = static_cast<std::uint32_t>(edtl - in.size());
    }
  } else if (cmd.write && good) {
    // The CDB's transfer length against what the initiator expected to send:
    // more expected than needed is an underflow, less an overflow.
    const std::uint64_t need = result.transfer_bytes;
    if (need < edtl) {
      underflow = true;
      residual = static_cast<std::uint32_t>(edtl - need);
    } else if (need > edtl) {
      overflow = true;
      residual = static_cast<std::uint32_t>(std::min<std::uint64_t>(need - edtl, 0xFFFFFFFFu));
    }
    in.clear();
  } else if (!cmd.read && edtl > 0 && good) {
    underflow = true;
    residual = edtl;
  } else if (!cmd.read) {
    in.clear();
  }

  // Data-In, cut to the initiator's MaxRecvDataSegmentLength; sequences end
  // at MaxBurstLength boundaries. Status rides in the last one when there is
  // no sense data (RFC 7143 §11.7.4).
  const std::uint32_t seg =
      std::max<std::uint32_t>(512, params_.initiator_max_recv_data_segment_length);
  const bool status_in_data = good && !in.empty();
  std::uint32_t data_sn = 0;
  // In place when every segment needs no padding; then all of them, since
  // the earlier PDUs rely on the last one holding the buffer.
  const bool in_place = sink_.send_data && seg % 4 == 0 && in.size() % 4 == 0;
  for (std::size_t off = 0; off < in.size();) {
    const std::size_t n = std::min<std::size_t>(seg, in.size() - off);
    const bool last = off + n == in.size();
    DataInPdu d;
    d.itt = itt;
    d.lun = cmd.lun;
    d.data_sn = data_sn++;
    d.buffer_offset = static_cast<std::uint32_t>(off);
    d.data_segment_length = static_cast<std::uint32_t>(n);
    d.final = last || ((off + n) % std::max<std::uint32_t>(seg, params_.max_burst_length) == 0);
    if (last && status_in_data) {
      d.final = true;
      d.has_status = true;
      d.status = static_cast<std::uint8_t>(result.status);
      d.overflow = overflow;
      d.underflow = underflow;
      d.residual_count = residual;
      d.sn = next_status();
    } else {
      d.sn = peek_status();
    }
    const auto segment = std::span<const std::uint8_t>(in).subspan(off, n);
    if (in_place) {
      // The segment goes out from the data-in buffer itself: a copy of
      // every byte read would be a tenth of a large read's CPU time
      // (docs/benchmarks/log/2026-11-21.md, "Large reads: where the time
      // went").
      DataPdu out;
      out.head = spare_pdu();
      const Bhs bhs = encode(TargetPdu{d});
      out.head.assign(bhs.begin(), bhs.end());
      out.data = segment;
      if (last) {
        out.owner = std::move(in);  // the view stays valid: the heap block does not move
        out.owner_port = std::exchange(recycle.port, nullptr);
      }
      sink_.send_data(std::move(out));
    } else {
      send(encode(TargetPdu{d}), segment);
    }
    off += n;
  }
  if (status_in_data) return;
  ScsiResponsePdu r;
  r.itt = itt;
  r.status = static_cast<std::uint8_t>(result.status);
  r.overflow = overflow;
  r.underflow = underflow;
  r.residual_count = residual;
  r.exp_data_sn = data_sn;
  r.sn = next_status();
  std::vector<std::uint8_t> sense;
  if (!result.sense.empty()) {
    // Sense data: a 2-byte SenseLength, then the sense (RFC 7143 §11.4.7.2).
    sense.push_back(static_cast<std::uint8_t>(result.sense.size() >> 8));
    sense.push_back(static_cast<std::uint8_t>(result.sense.size()));
    sense.insert(sense.end(), result.sense.begin(), result.sense.end());
  }
  r.data_segment_length = static_cast<std::uint32_t>(sense.size());
  send(encode(TargetPdu{r}), sense);
}

// A command answered with a status alone, without becoming a task: no
// data moved, so for a read or write all of it is residual (§11.4.5).
void Session::refuse(const ScsiCommandPdu& cmd, scsi::Status status) {
  ScsiResponsePdu r;
  r.itt = cmd.itt;
  r.status = static_cast<std::uint8_t>(status);
  r.underflow = cmd.expected_data_transfer_length > 0;
  r.residual_count = cmd.expected_data_transfer_length;
  r.sn = next_status();
  send(encode(TargetPdu{r}));
}

}  // namespace memstore::iscsi
