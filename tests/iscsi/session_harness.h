// SPDX-License-Identifier: Apache-2.0
// A Session driven PDU by PDU, as a test initiator would: a real G2 Lun on
// an in-memory store behind a driver::CommandPort that answers at once (or
// holds the results until released), and a sink that decodes what the
// target sends.
#pragma once

#include <gtest/gtest.h>

#include <cstdint>
#include <memory>
#include <numeric>
#include <optional>
#include <string>
#include <utility>
#include <vector>

#include "target/iscsi/pdu.h"
#include "target/iscsi/session.h"
#include "target/iscsi/text_keys.h"
#include "target/scsi/lun.h"
#include "tests/scsi/cdb_builders.h"
#include "tests/scsi/lun_fixture.h"

namespace memstore::iscsi::testing {

inline constexpr char kTargetName[] = "iqn.2026-11.org.memstore.test:session";
inline constexpr char kInitiatorName[] = "iqn.2026-11.org.memstore.test:initiator";

// Runs every command on a real Lun when it is submitted; with `hold`, keeps
// the results until release() (a command still "in the model").
class ImmediatePort final : public driver::CommandPort {
 public:
  ImmediatePort() : lun_(scsi::testing::make_lun()) {}

  void submit(scsi::ScsiCommand c, Done done) override {
    now_ += 1'000'000;
    c.arrival_ns = now_;
    ++submitted;
    scsi::ScsiResult r = lun_->execute(c);
    if (hold) {
      held_.emplace_back(std::move(r), std::move(done));
    } else {
      done(std::move(r));
    }
  }
  void forget(std::uint64_t) override { held_.clear(); }
  std::uint32_t block_size() const override { return lun_->block_size(); }
  bool may_withhold_r2t() const override { return lun_->may_withhold_r2t(); }
  void screen_r2t(std::uint64_t nexus, std::span<const std::uint8_t> cdb,
                  R2tAnswer answer) override {
    ++screened;
    answer(lun_->screen_r2t(nexus, cdb, now_).has_value());
  }

  void release() {
    auto held = std::move(held_);
    held_.clear();
    for (auto& [r, done] : held) done(std::move(r));
  }

  scsi::Lun& lun() { return *lun_; }
  bool hold = false;
  int submitted = 0;
  int screened = 0;  // screen_r2t calls

 private:
  std::unique_ptr<scsi::Lun> lun_;
  model::Ns now_ = 0;
  std::vector<std::pair<scsi::ScsiResult, Done>> held_;
};

// `n` bytes counting up from `seed`.
inline std::vector<std::uint8_t> pattern(std::size_t n, std::uint8_t seed) {
  std::vector<std::uint8_t> v(n);
  std::iota(v.begin(), v.end(), seed);
  return v;
}

// A Data-Out for LUN 0.
inline DataOutPdu data_out(std::uint32_t itt, std::uint32_t ttt, std::uint32_t data_sn,
                           std::uint32_t offset, std::uint32_t length, bool final) {
  DataOutPdu d;
  d.lun = encode_lun(0);
  d.itt = itt;
  d.ttt = ttt;
  d.data_sn = data_sn;
  d.buffer_offset = offset;
  d.data_segment_length = length;
  d.final = final;
  return d;
}

// One PDU the target sent: its decoded header and its data segment.
struct Sent {
  TargetPdu pdu;
  std::vector<std::uint8_t> data;
  // A copy, so that `take().as<T>()` outlives the Sent it came from.
  template <typename T>
  T as() const {
    EXPECT_TRUE(std::holds_alternative<T>(pdu)) << "PDU type index " << pdu.index();
    const T* p = std::get_if<T>(&pdu);
    return p != nullptr ? *p : T{};
  }
};

class SessionTest : public ::testing::Test {
 protected:
  SessionTest() {
    context_.name = kTargetName;
    context_.login.limits.target_name = kTargetName;
    context_.login.send_targets = {{kTargetName, {"127.0.0.1:3260,1"}, {}, false}};
    context_.luns[0] = &port;
    restart();
  }

  // A new session in place of the current one, with these limits.
  void restart(SessionLimits limits = {}, AdmitSession admit = {}) {
    session_.reset();
    sent.clear();
    closed = false;
    session_ = std::make_unique<Session>(
        [this](std::string_view n) { return n == kTargetName ? &context_ : nullptr; },
        LoginConfig{}, /*nexus=*/7, /*tsih=*/1,
        Session::Sink{[this](std::vector<std::uint8_t> pdu) { receive(std::move(pdu)); },
                      [this] { closed = true; }},
        limits, std::move(admit));
    session_->set_audit("192.0.2.7:51000", [this](const SecurityEvent& e) {
      refusals.push_back({e.kind, e.status, std::string(e.initiator), std::string(e.peer),
                          std::string(e.target), std::string(e.reason)});
    });
    session_->set_event_log([this](const std::string& line) { events.push_back(line); });
  }
  // The session goes, as when its connection closes.
  void end_session() { session_.reset(); }

  // A refused login as the session reported it (set_audit).
  struct Refusal {
    SecurityKind kind;
    LoginStatus status;
    std::string initiator, peer, target, reason;
  };
  // The target's login configuration, before the first Login Request.
  LoginConfig& target_login() { return context_.login; }

  // Sends one PDU with its data segment.
  void send(const InitiatorPdu& pdu, std::vector<std::uint8_t> data = {}) {
    session_->on_pdu(encode(pdu), {}, std::move(data));
  }
  // Sends one PDU as the connection sends write data: its segment copied,
  // as the socket would write it, into the buffer the session lends
  // (Session::landing), and given back with `arrived` (false: its digest
  // failed). False when the session lent none and on_pdu took the PDU.
  bool send_landed(const InitiatorPdu& pdu, const std::vector<std::uint8_t>& data,
                   bool arrived = true) {
    const Bhs bhs = encode(pdu);
    auto landing = session_->landing(bhs);
    if (!landing) {
      session_->on_pdu(bhs, {}, data);
      return false;
    }
    if (landing->buffer.size() < landing->offset + data.size()) {
      ADD_FAILURE() << "lent " << landing->buffer.size() << " bytes for a segment of "
                    << data.size() << " at " << landing->offset;
      return false;
    }
    std::copy(data.begin(), data.end(), landing->buffer.begin() + landing->offset);
    session_->land(bhs, std::move(*landing), arrived);
    return true;
  }
  void send_raw(const Bhs& bhs) { session_->on_pdu(bhs, {}, {}); }
  bool ping_session() { return session_->ping(); }

  // Logs in from the operational stage straight to the full feature phase
  // with these keys besides the initiator's and target's names.
  LoginResponsePdu login(std::vector<TextPair> keys = {}) {
    keys.insert(keys.begin(), {{"InitiatorName", kInitiatorName},
                               {"TargetName", kTargetName},
                               {"SessionType", "Normal"}});
    return login_with_only(keys);
  }
  // The same with exactly these keys (another session type, another name).
  LoginResponsePdu login_with_only(const std::vector<TextPair>& keys) {
    LoginRequestPdu req;
    req.transit = true;
    req.csg = LoginStage::kOperationalNegotiation;
    req.nsg = LoginStage::kFullFeaturePhase;
    req.isid = {0x80, 0, 0, 1, 0, 0};
    req.itt = 0x100;
    req.cmd_sn = cmd_sn;
    const std::vector<std::uint8_t> text = serialize_text(keys);
    req.data_segment_length = static_cast<std::uint32_t>(text.size());
    send(req, text);
    if (sent.empty()) return {};
    return take().as<LoginResponsePdu>();
  }

  // ABORT TASK for `referenced`, immediate.
  TaskMgmtRequestPdu abort_task(std::uint32_t referenced) const {
    TaskMgmtRequestPdu tmf;
    tmf.immediate = true;
    tmf.function = TmfFunction::kAbortTask;
    tmf.itt = 0x900;
    tmf.referenced_task_tag = referenced;
    tmf.cmd_sn = cmd_sn;
    return tmf;
  }

  // A SCSI Command on LUN 0 with the next CmdSN.
  ScsiCommandPdu command(std::vector<std::uint8_t> cdb, std::uint32_t edtl, bool read, bool write) {
    ScsiCommandPdu c;
    c.read = read;
    c.write = write;
    c.lun = encode_lun(0);
    c.itt = ++itt;
    c.cmd_sn = cmd_sn++;
    c.expected_data_transfer_length = edtl;
    std::copy(cdb.begin(), cdb.end(), c.cdb.begin());
    return c;
  }
  static std::vector<std::uint8_t> rw10(std::uint8_t opcode, std::uint32_t lba,
                                        std::uint16_t blocks) {
    return scsi::testing::rw10(opcode, lba, blocks);
  }

  // A final Text Request with these keys, at the next CmdSN.
  void send_text(std::uint32_t task_tag, const std::vector<TextPair>& keys) {
    TextRequestPdu t;
    t.itt = task_tag;
    t.cmd_sn = cmd_sn++;
    const auto text = serialize_text(keys);
    t.data_segment_length = static_cast<std::uint32_t>(text.size());
    send(t, text);
  }

  Sent take() {
    EXPECT_FALSE(sent.empty()) << "the target sent nothing";
    if (sent.empty()) return {RejectPdu{}, {}};
    Sent s = std::move(sent.front());
    sent.erase(sent.begin());
    return s;
  }

  ImmediatePort port;
  std::vector<Sent> sent;
  std::vector<Refusal> refusals;
  std::vector<std::string> events;  // the event log's lines (set_event_log)
  bool closed = false;
  std::uint32_t cmd_sn = 1;
  std::uint32_t itt = 0;

 private:
  void receive(std::vector<std::uint8_t> pdu) {
    ASSERT_GE(pdu.size(), kBhsSize);
    Bhs bhs;
    std::copy_n(pdu.begin(), kBhsSize, bhs.begin());
    auto decoded = decode_target_pdu(bhs);
    ASSERT_TRUE(decoded.ok());
    const std::uint32_t len = (std::uint32_t{bhs[5]} << 16) | (bhs[6] << 8) | bhs[7];
    ASSERT_GE(pdu.size(), kBhsSize + len);
    sent.push_back({*decoded, std::vector<std::uint8_t>(pdu.begin() + kBhsSize,
                                                        pdu.begin() + kBhsSize + len)});
  }

  TargetContext context_;
  std::unique_ptr<Session> session_;
};

}  // namespace memstore::iscsi::testing
