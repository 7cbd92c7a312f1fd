// SPDX-License-Identifier: Apache-2.0
// Task management while commands wait for their modeled completion
// (RFC 7143 §11.5, SAM-5 "Task management functions"): on a LUN whose
// timing is scaled up so that each READ is due up to a second after the last,
// ABORT TASK, LOGICAL UNIT RESET and TARGET WARM RESET are answered at
// once, and the commands they aborted never answer.
#include <gtest/gtest.h>

#include <chrono>
#include <optional>
#include <thread>

#include "tests/iscsi/loopback_target.h"

namespace memstore::iscsi {
namespace {

using Clock = std::chrono::steady_clock;
using std::chrono::milliseconds;

class TaskManagementTest : public ::testing::Test {
 protected:
  void SetUp() override {
    // A random 4 KiB READ is modeled at under 1 ms: 1000 times slower, each
    // one queued is due up to a second after the one before it.
    ASSERT_EQ(target_.start(testing::memory_lun({scsi::TimingMode::kScaled, 1000.0})), "");
    client_.emplace(target_.port());
    ASSERT_TRUE(client_->login(false));
  }

  Bhs tmf(TmfFunction function, std::uint32_t itt, std::uint32_t referenced = kReservedTag) {
    return testing::RawInitiator::tmf(function, itt, cmd_sn_, referenced);
  }
  void read(std::uint32_t itt, std::uint64_t lba) {
    client_->send(client_->read16(itt, cmd_sn_++, lba, 4096));
  }
  // The TMF's answer, which must come long before any READ is due.
  TmfResponse answer(std::uint32_t itt, Clock::time_point sent) {
    auto r = client_->receive();
    EXPECT_LT(Clock::now() - sent, milliseconds(500));
    if (!r) return TmfResponse::kNotSupported;
    const auto* t = std::get_if<TaskMgmtResponsePdu>(&r->first);
    EXPECT_NE(t, nullptr) << "a PDU other than the TMF's answer came first";
    if (t == nullptr) return TmfResponse::kNotSupported;
    EXPECT_EQ(t->itt, itt);
    return t->response;
  }
  // Past every READ's due time, a ping is answered and nothing came before
  // it: the aborted commands sent no Data-In and no status.
  void expect_nothing_but_the_ping() {
    std::this_thread::sleep_for(milliseconds(3500));
    NopOutPdu ping;
    ping.itt = 0x99;
    ping.immediate = true;
    ping.cmd_sn = cmd_sn_;
    client_->send(encode(InitiatorPdu{ping}));
    auto r = client_->receive();
    ASSERT_TRUE(r.has_value());
    const auto* nop = std::get_if<NopInPdu>(&r->first);
    ASSERT_NE(nop, nullptr) << "an aborted command answered";
    EXPECT_EQ(nop->itt, 0x99u);
  }

  testing::LoopbackTarget target_;
  std::optional<testing::RawInitiator> client_;
  std::uint32_t cmd_sn_ = 1;  // the login was immediate
};

TEST_F(TaskManagementTest, AbortTaskAnswersAtOnceAndTheTaskNeverDoes) {
  read(1, 1000);
  read(2, 900'000);
  const auto sent = Clock::now();
  client_->send(tmf(TmfFunction::kAbortTask, 0x10, 1));
  EXPECT_EQ(answer(0x10, sent), TmfResponse::kComplete);
  // The other READ is still served, at its modeled time.
  auto r = client_->receive();
  ASSERT_TRUE(r.has_value());
  const auto* data = std::get_if<DataInPdu>(&r->first);
  ASSERT_NE(data, nullptr);
  EXPECT_EQ(data->itt, 2u);
  EXPECT_GT(Clock::now() - sent, milliseconds(500));  // it waited for its due time
  expect_nothing_but_the_ping();
}

TEST_F(TaskManagementTest, LogicalUnitResetAbortsEveryWaitingTask) {
  read(1, 1000);
  read(2, 900'000);
  read(3, 2'000'000);
  const auto sent = Clock::now();
  client_->send(tmf(TmfFunction::kLogicalUnitReset, 0x11));
  EXPECT_EQ(answer(0x11, sent), TmfResponse::kComplete);
  expect_nothing_but_the_ping();
}

TEST_F(TaskManagementTest, TargetWarmResetAbortsEveryWaitingTask) {
  read(1, 1000);
  read(2, 900'000);
  const auto sent = Clock::now();
  client_->send(tmf(TmfFunction::kTargetWarmReset, 0x12));
  EXPECT_EQ(answer(0x12, sent), TmfResponse::kComplete);
  expect_nothing_but_the_ping();
}

// A timeout rule with `abort = "reject"` (docs/faults.md): the withheld
// READ's ABORT TASK is refused, as from a device that cannot abort it; the
// LOGICAL UNIT RESET the initiator escalates to ends it, and the LUN serves
// the next READ.
TEST(TaskManagementFaultTest, RefusedAbortLeavesTheTaskToALunReset) {
  testing::LoopbackTarget target;
  ASSERT_EQ(target.start(testing::memory_lun_with_read_fault(scsi::FaultAction::kTimeout,
                                                             /*reject_abort=*/true)),
            "");
  testing::RawInitiator c(target.port());
  ASSERT_TRUE(c.login(false));
  std::uint32_t sn = 1;
  c.send(c.read16(1, sn++, 0, 4096));
  std::this_thread::sleep_for(milliseconds(200));  // the LUN has decided by now
  auto tmf_answer = [&](std::uint32_t itt) {
    const auto r = c.receive();
    const auto* t = r ? std::get_if<TaskMgmtResponsePdu>(&r->first) : nullptr;
    EXPECT_NE(t, nullptr);
    EXPECT_EQ(t ? t->itt : 0, itt);
    return t ? t->response : TmfResponse::kNotSupported;
  };
  c.send(testing::RawInitiator::tmf(TmfFunction::kAbortTask, 0x10, sn, 1));
  EXPECT_EQ(tmf_answer(0x10), TmfResponse::kRejected);
  c.send(testing::RawInitiator::tmf(TmfFunction::kLogicalUnitReset, 0x11, sn));
  EXPECT_EQ(tmf_answer(0x11), TmfResponse::kComplete);
  // The first command after the reset may report its unit attention
  // (SAM-5); a READ after that is served.
  for (std::uint32_t itt = 2; itt <= 3; ++itt) {
    c.send(c.read16(itt, sn++, 0, 4096));
    const auto r = c.receive();
    ASSERT_TRUE(r.has_value());
    if (const auto* data = std::get_if<DataInPdu>(&r->first)) {
      EXPECT_EQ(data->itt, itt);
      target.stop();
      return;
    }
    const auto* resp = std::get_if<ScsiResponsePdu>(&r->first);
    ASSERT_NE(resp, nullptr);
    EXPECT_EQ(resp->itt, itt);
  }
  ADD_FAILURE() << "no READ after the reset was served";
  target.stop();
}

}  // namespace
}  // namespace memstore::iscsi
