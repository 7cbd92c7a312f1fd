// SPDX-License-Identifier: Apache-2.0
// One iSCSI session on one connection (MaxConnections = 1, ErrorRecoveryLevel
// 0): login (RFC 7143 §6, §11.12-13), then the full feature phase: SCSI
// commands with immediate, unsolicited and solicited (R2T) data, Data-In and
// SCSI Response, NOP, Text (SendTargets), task management and logout.
//
// Transport-free: the connection feeds it whole PDUs (header digest and data
// digest already checked) and it answers through a Sink with encoded PDUs.
// Single-threaded.
#pragma once

#include <atomic>
#include <chrono>
#include <cstdint>
#include <functional>
#include <map>
#include <memory>
#include <optional>
#include <span>
#include <string>
#include <utility>
#include <vector>

#include "target/driver/command_port.h"
#include "target/iscsi/negotiation.h"
#include "target/iscsi/pdu.h"
#include "target/iscsi/security_event.h"
#include "target/iscsi/session_limits.h"
#include "target/scsi/node_pool.h"

namespace memstore::iscsi {

// What a session can reach: its target's LUNs and the login configuration.
struct TargetContext {
  std::string name;
  LoginConfig login;                                   // limits, security, SendTargets answers
  std::map<std::uint16_t, driver::CommandPort*> luns;  // by LUN number
  // Until when (steady clock, ns since its epoch) a LUN of the target is
  // without power after a cut: logins are refused until then
  // (Server::power_cut). Shared by the target's contexts on every loop.
  std::shared_ptr<std::atomic<std::int64_t>> off_until =
      std::make_shared<std::atomic<std::int64_t>>(0);
  bool powered_off() const {
    const auto now = std::chrono::duration_cast<std::chrono::nanoseconds>(
        std::chrono::steady_clock::now().time_since_epoch());
    return now.count() < off_until->load(std::memory_order_relaxed);
  }
};

// Where targets are looked up by name during login (the server's registry).
using TargetLookup = std::function<const TargetContext*(std::string_view target_name)>;

// A session as `memsctl admin sessions` shows it, like tgtadm's and
// targetcli's session listings: the parameters negotiated at login (RFC 7143
// §13), the TSIH, the command window and the commands not yet answered.
struct SessionStatus {
  SessionParams params;
  std::uint16_t tsih = 0;
  std::uint32_t exp_cmd_sn = 0;
  std::uint32_t max_cmd_sn = 0;
  std::uint32_t stat_sn = 0;
  std::size_t commands_in_flight = 0;
};

class Session {
 public:
  // A Data-In PDU whose data segment is not copied: its encoded BHS, and a
  // view of the READ's data-in buffer. The last PDU of a command carries
  // the buffer itself (`owner`), which the transport hands back to
  // `owner_port` once written; the earlier ones only point into it, and
  // the transport writes PDUs in order, so the buffer outlives them.
  struct DataPdu {
    std::vector<std::uint8_t> head;
    std::span<const std::uint8_t> data;  // a multiple of 4 bytes: no padding
    scsi::Bytes owner;
    driver::CommandPort* owner_port = nullptr;
  };
  struct Sink {
    std::function<void(std::vector<std::uint8_t>)> send;  // one encoded PDU (no digests)
    std::function<void()> close;                          // after the queued PDUs
    // Optional. Without it, Data-In segments are copied into `send` PDUs.
    std::function<void(DataPdu)> send_data = {};
    // Optional. The next PDU goes out with a wrong digest (an injected
    // fault, docs/faults.md "corrupt-digest").
    std::function<void()> corrupt_next_digest = {};
  };

  // `discovery` answers SendTargets for discovery sessions; `nexus` is unique
  // per session; `tsih` is given to the session when it is created.
  // `admit` (optional) is asked before the session enters the full feature
  // phase.
  Session(TargetLookup lookup, LoginConfig discovery, std::uint64_t nexus, std::uint16_t tsih,
          Sink sink, SessionLimits limits = {}, AdmitSession admit = {});
  ~Session();

  // One PDU: its BHS, its AHS and its data segment (unpadded).
  void on_pdu(const Bhs& bhs, std::span<const std::uint8_t> ahs,
              std::span<const std::uint8_t> data);

  // A data segment received in place, with no copy: the write buffer it
  // belongs in, lent to the connection while the bytes come from the socket.
  struct Landing {
    scsi::Bytes buffer;      // at least as long as where the segment ends
    std::size_t offset = 0;  // where the segment starts in it
    std::uint64_t tag = 0;   // the task that lent it (Data-Out); 0 for immediate data
  };
  // Asked with a PDU's BHS, before its data segment is read: for a SCSI
  // Command with immediate data, or a Data-Out this session will take whole
  // (the checks on_pdu makes, on the header alone), the buffer that segment
  // would be copied into. Nothing else changes until land() gives it back.
  std::optional<Landing> landing(const Bhs& bhs);
  // The lent buffer back: with the segment in it when `arrived` (digests
  // checked), and the PDU is then taken as on_pdu takes it; or without (a
  // data digest error), and all is as before landing().
  void land(const Bhs& bhs, Landing landing, bool arrived);

  // Hands back a PDU buffer the connection has written, for reuse: the
  // READ/WRITE path allocates nothing per command once warm.
  void recycle(std::vector<std::uint8_t> pdu);

  bool full_feature() const { return full_feature_; }
  // Negotiated values; digests apply to every PDU after the final login response.
  const SessionParams& params() const { return params_; }
  // What an operator sees of the session (memsctl admin sessions).
  SessionStatus status() const {
    return {params_, tsih_, exp_cmd_sn_, max_cmd_sn_, stat_sn_, tasks_.size()};
  }
  // What the initiator may send in one data segment (checked by the connection).
  std::uint32_t max_recv_data_segment_length() const;
  // A target-initiated ping (RFC 7143 §11.19): a NOP-In the initiator must
  // echo with a NOP-Out carrying its Target Transfer Tag. Returns false, and
  // sends nothing, when the previous ping is still unanswered: the caller
  // then presumes the connection dead. Only in the full feature phase.
  bool ping();
  // Whether a ping is still unanswered.
  bool awaiting_ping() const { return ping_ttt_ != kReservedTag; }

  // Rejects a PDU the connection could not accept (a data digest error, an
  // oversized data segment), with the session's StatSN (RFC 7143 §11.17).
  void reject(const Bhs& bhs, RejectReason reason);

  // Where refused logins are reported, and the connection's peer address
  // ("address:port") they name (security_event.h). Set before the first PDU.
  void set_audit(std::string peer, SecurityLog log);
  // The address the initiator connected to (LoginConfig::local_host), for
  // SendTargets behind a wildcard portal. Call before the login.
  void set_local_host(std::string host) { local_host_ = std::move(host); }
  // Where the session's events go for the operator's log, one line each: a
  // login into the full feature phase, a logout, a connection that ended
  // without one, a task management function. Each line names the initiator,
  // its ISID, its address (set_audit) and the target. Called on the
  // session's thread; set before the first PDU. Discovery sessions log none.
  using EventLog = std::function<void(const std::string& line)>;
  void set_event_log(EventLog log) { event_log_ = std::move(log); }
  // Where the login's details go for a daemon logging at debug level, one
  // line each, discovery sessions included: every Login Request's stages and
  // keys and the response's keys (CHAP_R's value shown as "***"), and the
  // parameters the session runs with once in the full feature phase. A
  // line is built only while `wanted` says so (the daemon's level may change
  // at a reload); unset (the default), never.
  void set_debug_log(EventLog log, std::function<bool()> wanted) {
    debug_log_ = std::move(log);
    debug_wanted_ = std::move(wanted);
  }

 private:
  struct Task;
  void on_login(const LoginRequestPdu& pdu, std::span<const std::uint8_t> data);
  void login_reply(const LoginRequestPdu& req, LoginStatus status, const KeyList& keys,
                   bool transit, std::uint8_t nsg);
  // Answers with a failure status, reports it (set_audit) and ends the connection.
  void refuse_login(const LoginRequestPdu& req, LoginStatus status, std::string_view reason);
  // One line to the event log (set_event_log): WHAT, who, and DETAIL.
  void log_event(std::string_view what, std::string_view detail = {}) const;
  // Whether a debug line is wanted now (set_debug_log).
  bool debugging() const { return debug_log_ && debug_wanted_ && debug_wanted_(); }
  // One line to the debug log (set_debug_log), naming the initiator (the
  // session's, unless `initiator` is given) and its address. Changes nothing.
  void log_debug(std::string_view what, std::string_view detail,
                 std::string_view initiator = {}) const;
  // With `landed`, `data` is in that buffer, and the task takes it whole.
  void on_command(const ScsiCommandPdu& pdu, std::span<const std::uint8_t> ahs,
                  std::span<const std::uint8_t> data, scsi::Bytes* landed = nullptr);
  void start_task(Task& task);
  // With `in_place`, `data` is already where it belongs in the task's buffer.
  void on_data_out(const DataOutPdu& pdu, std::span<const std::uint8_t> data,
                   bool in_place = false);
  // The task a Data-Out PDU with `length` data bytes continues, and the
  // DataSN counter of its sequence. No task: the PDU is for one that is gone
  // and is ignored. No counter: it is out of sequence or order.
  std::pair<Task*, std::uint32_t*> data_out_place(const DataOutPdu& pdu, std::size_t length);
  void send_r2ts(Task& task);
  // The LUN's answer to the question before a task's first R2T
  // (driver::CommandPort::screen_r2t), for the task still under that ITT and tag.
  void r2t_screened(std::uint32_t itt, std::uint64_t tag, bool withhold);
  void submit(Task& task);
  void complete(std::uint64_t tag, scsi::ScsiResult result);
  void refuse(const ScsiCommandPdu& cmd, scsi::Status status);  // no task made
  void on_nop_out(const NopOutPdu& pdu, std::span<const std::uint8_t> data);
  void on_text(const TextRequestPdu& pdu, std::span<const std::uint8_t> data);
  void on_task_mgmt(const TaskMgmtRequestPdu& pdu);
  void on_logout(const LogoutRequestPdu& pdu);
  bool accept_cmd_sn(bool immediate, std::uint32_t cmd_sn);
  StatusSns next_status();  // uses and advances StatSN
  StatusSns peek_status();  // MaxCmdSN is recomputed: it never moves back
  bool text_too_long(std::size_t buffered, std::size_t more) const {
    return buffered + more > limits_.max_text_bytes;
  }
  void send(const Bhs& bhs, std::span<const std::uint8_t> data = {});
  std::vector<std::uint8_t> spare_pdu();  // a written PDU's buffer, or a new one

  TargetLookup lookup_;
  LoginConfig discovery_;
  const TargetContext* target_ = nullptr;
  std::unique_ptr<Negotiation> negotiation_;
  std::uint64_t nexus_;
  std::uint16_t tsih_;
  Sink sink_;
  SessionParams params_;
  bool full_feature_ = false;
  bool discovery_session_ = false;
  bool logged_out_ = false;
  std::vector<std::uint8_t> login_text_;  // continued (C bit) login text
  // For the security log (session_login.cc): who logs in, from where, to what.
  std::string peer_, login_initiator_, login_target_;
  std::string local_host_;
  SecurityLog security_log_;
  EventLog event_log_;
  EventLog debug_log_;
  std::function<bool()> debug_wanted_;
  std::string isid_;                // hex, for the event log
  std::vector<std::uint8_t> text_;  // continued text request

  SessionLimits limits_;
  AdmitSession admit_;
  std::uint32_t stat_sn_ = 0;
  std::uint32_t exp_cmd_sn_ = 0;
  std::uint32_t max_cmd_sn_ = 0;
  std::uint32_t next_ttt_ = 1;
  std::uint32_t ping_ttt_ = kReservedTag;  // the unanswered ping, if any

  using TaskMap = std::map<std::uint32_t, std::unique_ptr<Task>>;
  TaskMap tasks_;                                      // by ITT, until completed
  scsi::NodePool<TaskMap> task_pool_;                  // erased tasks, kept with their buffers
  std::vector<std::vector<std::uint8_t>> spare_pdus_;  // written PDU buffers
  // Buffers for immediate data (landing()): a command's task takes the one
  // its data landed in and gives up its own, so they circulate, keeping
  // their capacity.
  std::vector<scsi::Bytes> spare_writes_;
  // Raised when a task in a LUN is aborted: a task's LUN tag is its ITT and
  // this generation, so that a result for an aborted task is told apart
  // from one for a new task reusing its ITT.
  std::uint32_t generation_ = 0;
};

}  // namespace memstore::iscsi
