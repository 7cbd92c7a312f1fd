#include "target/iscsi/session.h"

#include <algorithm>

#include "target/iscsi/serial.h"
#include "target/iscsi/text_keys.h"
#include "target/scsi/data_out_length.h"
#include "target/scsi/report_luns.h"

namespace memstore::iscsi {
namespace {

constexpr std::uint8_t kReportLuns = 0xA0;

}  // namespace

struct Session::Task {
  ScsiCommandPdu cmd;
  std::uint64_t tag = 0;  // the LUN's name for it: ITT and generation
  // Data-out bytes kept: the CDB's own transfer length, or the initiator's
  // expected length when that is less. More data is counted and dropped
  // (RFC 7143 §11.4.5.2: the residual reports it).
  std::uint32_t wanted = 0;
  std::vector<std::uint8_t> cdb;
  std::uint16_t lun = 0;
  LunPort* port = nullptr;
  // Write data as it arrives, in order (we negotiate DataPDUInOrder and
  // DataSequenceInOrder = Yes), up to `wanted` bytes. It grows with what
  // the initiator really sent: a header announcing 4 GiB costs nothing
  // until the bytes come.
  std::vector<std::uint8_t> data;
  std::uint32_t received = 0;  // data bytes received so far, kept or not
  std::uint32_t next_r2t_offset = 0;
  std::uint32_t r2t_sn = 0;
  std::uint32_t outstanding_r2ts = 0;
  bool unsolicited_done = true;  // the unsolicited Data-Out sequence has ended
  // The next DataSN of each output sequence: the unsolicited one, and one per
  // R2T by its Target Transfer Tag (RFC 7143 §11.7.5).
  std::uint32_t unsolicited_data_sn = 0;
  // (TTT, next DataSN) of the outstanding R2Ts: a handful at most
  // (MaxOutstandingR2T), so a flat list that keeps its capacity.
  std::vector<std::pair<std::uint32_t, std::uint32_t>> r2t_data_sn;
  std::uint32_t* r2t_sequence(std::uint32_t ttt) {
    for (auto& [r2t_tag, sn] : r2t_data_sn) {
      if (r2t_tag == ttt) return &sn;
    }
    return nullptr;
  }
  bool submitted = false;

  // For a recycled task: everything back to its initial state, buffers kept.
  void reset() {
    cmd = {};
    tag = 0;
    wanted = 0;
    cdb.clear();
    lun = 0;
    port = nullptr;
    data.clear();
    received = 0;
    next_r2t_offset = 0;
    r2t_sn = 0;
    outstanding_r2ts = 0;
    unsolicited_done = true;
    unsolicited_data_sn = 0;
    r2t_data_sn.clear();
    submitted = false;
  }
};

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
  if (serial_gt(max, max_cmd_sn_) || serial_lt(max_cmd_sn_, exp_cmd_sn_ - 1)) max_cmd_sn_ = max;
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
  if (const auto* e = std::get_if<PduError>(&decoded)) {
    // Before the full feature phase only Login Requests are valid: anything
    // else ends the login (RFC 7143 §6.3).
    if (!full_feature_) return sink_.close();
    return reject(bhs, e->reason);
  }
  const InitiatorPdu& pdu = std::get<InitiatorPdu>(decoded);
  if (!full_feature_) {
    // Only Login Requests until the full feature phase (RFC 7143 §6.3).
    if (const auto* login = std::get_if<LoginRequestPdu>(&pdu))
      return on_login(*login, data);
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

void Session::on_command(const ScsiCommandPdu& cmd, std::span<const std::uint8_t> ahs,
                         std::span<const std::uint8_t> data) {
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
    if (const auto* e = std::get_if<PduError>(&extra)) {
      drop();
      return reject(encode(InitiatorPdu{cmd}), e->reason);
    }
    task->cdb = full_cdb(cmd, std::get<ScsiCommandAhs>(extra));
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
      task->data.assign(data.begin(), data.begin() + std::min<std::size_t>(data.size(), task->wanted));
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

void Session::send_r2ts(Task& t) {
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

void Session::on_data_out(const DataOutPdu& pdu, std::span<const std::uint8_t> data) {
  auto it = tasks_.find(pdu.itt);
  if (it == tasks_.end() || !it->second->cmd.write || it->second->submitted) {
    // Data for an unknown or finished task: ignore it (it may have been aborted).
    return;
  }
  Task& t = *it->second;
  // Data nobody asked for (an unknown Target Transfer Tag, unsolicited data
  // that is not allowed) and DataSN gaps (DataSN counts 0, 1, 2... within
  // each sequence) cannot be recovered at ErrorRecoveryLevel 0: reject the
  // PDU and end the connection (RFC 7143 §7.1.4, §7.2).
  std::uint32_t* expected = nullptr;
  if (pdu.ttt == kReservedTag) {
    // Unsolicited data: only in the sequence the command announced (F=0),
    // and immediate plus unsolicited data within FirstBurstLength (§13.14).
    const std::uint64_t end = std::uint64_t{pdu.buffer_offset} + data.size();
    if (!t.unsolicited_done && end <= params_.first_burst_length) expected = &t.unsolicited_data_sn;
  } else {
    expected = t.r2t_sequence(pdu.ttt);
  }
  if (expected == nullptr || pdu.data_sn != *expected) {
    reject(encode(InitiatorPdu{pdu}), RejectReason::kProtocolError);
    return sink_.close();
  }
  ++*expected;
  // In order and within the transfer length (RFC 7143 §13.19, §11.7.6).
  const std::uint64_t end = std::uint64_t{pdu.buffer_offset} + data.size();
  if (pdu.buffer_offset != t.received || end > t.cmd.expected_data_transfer_length) {
    reject(encode(InitiatorPdu{pdu}), RejectReason::kProtocolError);
    return sink_.close();
  }
  if (t.received < t.wanted) {
    const std::size_t keep = std::min<std::size_t>(data.size(), t.wanted - t.received);
    t.data.insert(t.data.end(), data.begin(), data.begin() + static_cast<std::ptrdiff_t>(keep));
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

void Session::submit(Task& t) {
  t.submitted = true;
  const std::uint64_t tag = t.tag;
  if (t.cdb.empty()) return;
  if (t.port == nullptr) {
    // No logical unit at that LUN: REPORT LUNS still lists the target's
    // (SPC-4 §6.33 lets it be addressed anywhere), the rest is refused. An
    // existing LUN answers REPORT LUNS itself, with its own D_SENSE.
    scsi::ScsiResult r;
    std::uint64_t alloc = 0;
    if (t.cdb[0] == kReportLuns && t.cdb.size() >= 10) {
      std::vector<std::uint16_t> ids;
      if (target_ != nullptr) {
        for (const auto& [id, port] : target_->luns) ids.push_back(id);
      }
      auto list = scsi::report_luns(ids, t.cdb);
      if (auto* data = std::get_if<scsi::Bytes>(&list)) {
        r.data_in = std::move(*data);
      } else {
        r.status = scsi::Status::kCheckCondition;
        r.sense = scsi::build_sense(std::get<scsi::Sense>(list), false);
      }
      alloc = (std::uint64_t{t.cdb[6]} << 24) | (t.cdb[7] << 16) | (t.cdb[8] << 8) | t.cdb[9];
    } else {
      scsi::AbsentLunAnswer a = scsi::absent_lun(t.cdb);
      r.status = a.status;
      r.sense = std::move(a.sense);
      r.data_in = std::move(a.data_in);
      alloc = t.cdb.size() >= 5 ? (std::uint64_t{t.cdb[3]} << 8 | t.cdb[4]) : 0;  // INQUIRY
    }
    if (r.data_in.size() > alloc) r.data_in.resize(static_cast<std::size_t>(alloc));
    return complete(tag, std::move(r));
  }
  // The initiator's Data-Out Buffer may be larger than what was kept.
  const std::uint64_t buffer = t.cmd.write ? t.cmd.expected_data_transfer_length : 0;
  t.port->submit(nexus_, tag, t.cdb, t.data, buffer,
                 [this, tag](scsi::ScsiResult r) { complete(tag, std::move(r)); });
}

void Session::complete(std::uint64_t tag, scsi::ScsiResult result) {
  const auto itt = static_cast<std::uint32_t>(tag);
  auto it = tasks_.find(itt);
  // An aborted task's result: dropped (its ITT may name a new task by now).
  if (it == tasks_.end() || it->second->tag != tag) return;
  const ScsiCommandPdu cmd = it->second->cmd;
  LunPort* const port = it->second->port;
  task_pool_.erase(tasks_, it);
  // The data-in buffer goes back to the LUN once its PDUs are built.
  struct Recycle {
    LunPort* port;
    scsi::Bytes& buffer;
    ~Recycle() {
      if (port != nullptr) port->recycle(std::move(buffer));
    }
  } recycle{port, result.data_in};
  if (logged_out_) return;
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
      // every byte read was a tenth of a large read's CPU time
      // (docs/benchmarks.md, "Throughput").
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

// ---- NOP, Text, task management, logout ----

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
  if (const auto* pairs = std::get_if<std::vector<TextPair>>(&parsed)) {
    const Negotiation::Result answer = negotiation_->respond(to_keys(*pairs), Phase::kFullFeature);
    keys = answer.keys;
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
      const bool found = tasks_.contains(pdu.referenced_task_tag);
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
  sink_.close();
}

}  // namespace memstore::iscsi
