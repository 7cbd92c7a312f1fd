// SPDX-License-Identifier: Apache-2.0
// The session's own limits against a hostile initiator (docs/memstored.md,
// "Limits"): outstanding commands, data buffered per command, text, and
// what the server decides at login; and task tags that survive an abort.
#include <gtest/gtest.h>

#include "tests/iscsi/session_harness.h"

namespace memstore::iscsi::testing {
namespace {

constexpr std::uint8_t kRead10 = 0x28;
constexpr std::uint8_t kWrite10 = 0x2A;

TEST_F(SessionTest, AnItTReusedAfterAnAbortGetsItsOwnResponse) {
  login();
  port.hold = true;
  const ScsiCommandPdu first = command(rw10(kRead10, 0, 1), 512, true, false);
  send(first);
  send(abort_task(first.itt));
  EXPECT_EQ(take().as<TaskMgmtResponsePdu>().response, TmfResponse::kComplete);
  // The initiator may use the ITT again at once (RFC 7143 §11.2.1.8).
  ScsiCommandPdu again = command(rw10(kRead10, 8, 1), 512, true, false);
  again.itt = first.itt;
  send(again);
  port.release();  // the aborted command's result first, then the new one's
  ASSERT_EQ(sent.size(), 1U);
  const auto d = take().as<DataInPdu>();
  EXPECT_EQ(d.itt, first.itt);
  EXPECT_TRUE(d.has_status);
  EXPECT_EQ(d.status, 0);
}

TEST_F(SessionTest, OutstandingCommandsAreBoundedWithImmediateOnesCounted) {
  restart(SessionLimits{.max_tasks = 4, .cmd_window = 4});
  login();
  port.hold = true;
  auto immediate = [&] {
    ScsiCommandPdu c = command(rw10(kRead10, 0, 1), 512, true, false);
    c.immediate = true;  // outside the CmdSN window: it takes no CmdSN
    c.cmd_sn = --cmd_sn;
    return c;
  };
  for (int i = 0; i < 4; ++i) send(immediate());
  EXPECT_TRUE(sent.empty());
  const ScsiCommandPdu fifth = immediate();
  send(fifth);
  const auto full = take().as<ScsiResponsePdu>();
  EXPECT_EQ(full.itt, fifth.itt);
  EXPECT_EQ(full.status, 0x28);  // TASK SET FULL (SAM-5 §5.3.3)
  EXPECT_EQ(port.submitted, 4);
  port.release();
  ASSERT_EQ(sent.size(), 4U);
  for (int i = 0; i < 4; ++i) EXPECT_EQ(take().as<DataInPdu>().status, 0);
  // Room again: served.
  send(command(rw10(kRead10, 0, 1), 512, true, false));
  port.release();
  EXPECT_EQ(take().as<DataInPdu>().status, 0);
}

TEST_F(SessionTest, TheCmdSnWindowClosesWhileTheSessionIsFull) {
  restart(SessionLimits{.max_tasks = 4, .cmd_window = 4});
  login();
  port.hold = true;
  for (int i = 0; i < 4; ++i) send(command(rw10(kRead10, 0, 1), 512, true, false));
  NopOutPdu ping;
  ping.itt = 0x55;
  ping.immediate = true;
  ping.cmd_sn = cmd_sn;
  send(ping);
  const auto n = take().as<NopInPdu>();
  EXPECT_EQ(n.sn.exp_cmd_sn, cmd_sn);
  EXPECT_EQ(n.sn.max_cmd_sn, n.sn.exp_cmd_sn - 1);  // closed (RFC 7143 §4.2.2.1)
  // A command beyond MaxCmdSN is dropped without an answer.
  send(command(rw10(kRead10, 0, 1), 512, true, false));
  EXPECT_TRUE(sent.empty());
  EXPECT_EQ(port.submitted, 4);
  port.release();
  ASSERT_EQ(sent.size(), 4U);
  const auto d = sent.back().as<DataInPdu>();
  EXPECT_EQ(d.sn.max_cmd_sn, d.sn.exp_cmd_sn + 3);  // open again
}

TEST_F(SessionTest, AWriteAsksForNoMoreThanItsCdbWhateverTheExpectedLength) {
  login({{"InitialR2T", "Yes"}, {"ImmediateData", "No"}});
  // One block, with an Expected Data Transfer Length of 1 GiB.
  const ScsiCommandPdu w = command(rw10(kWrite10, 0, 1), 1U << 30, false, true);
  send(w);
  const auto r2t = take().as<R2tPdu>();
  EXPECT_EQ(r2t.buffer_offset, 0U);
  EXPECT_EQ(r2t.desired_data_transfer_length, 512U);
  EXPECT_TRUE(sent.empty());  // no second R2T
  DataOutPdu d;
  d.lun = encode_lun(0);
  d.itt = w.itt;
  d.ttt = r2t.ttt;
  d.data_segment_length = 512;
  d.final = true;
  send(d, std::vector<std::uint8_t>(512, 0xAB));
  const auto rsp = take().as<ScsiResponsePdu>();
  EXPECT_EQ(rsp.status, 0);
  EXPECT_TRUE(rsp.underflow);  // RFC 7143 §11.4.5.2
  EXPECT_EQ(rsp.residual_count, (1U << 30) - 512);
}

TEST_F(SessionTest, LoginTextBeyondTheLimitFailsTheLogin) {
  restart(SessionLimits{.max_text_bytes = 1024});
  LoginRequestPdu req;
  req.cont = true;
  req.csg = LoginStage::kOperationalNegotiation;
  req.isid = {0x80, 0, 0, 1, 0, 0};
  req.itt = 0x100;
  const std::vector<std::uint8_t> chunk(800, 'a');
  req.data_segment_length = static_cast<std::uint32_t>(chunk.size());
  send(req, chunk);
  EXPECT_EQ(take().as<LoginResponsePdu>().status_class, 0);  // more text may follow
  send(req, chunk);
  const auto r = take().as<LoginResponsePdu>();
  EXPECT_EQ(r.status_class, 0x03);  // target error: out of resources (§11.13.5)
  EXPECT_EQ(r.status_detail, 0x02);
  EXPECT_TRUE(closed);
}

TEST_F(SessionTest, TextBeyondTheLimitIsRejectedAndEndsTheConnection) {
  restart(SessionLimits{.max_text_bytes = 1024});
  login();
  TextRequestPdu t;
  t.cont = true;
  t.final = false;
  t.itt = 0x300;
  t.cmd_sn = cmd_sn;
  t.immediate = true;
  const std::vector<std::uint8_t> chunk(800, 'a');
  t.data_segment_length = static_cast<std::uint32_t>(chunk.size());
  send(t, chunk);
  EXPECT_TRUE(take().as<TextResponsePdu>().ttt != kReservedTag);
  send(t, chunk);
  EXPECT_EQ(take().as<RejectPdu>().reason, RejectReason::kProtocolError);
  EXPECT_TRUE(closed);
}

TEST_F(SessionTest, TheServerSeesWhoLogsInAndMayRefuse) {
  std::vector<SessionIdentity> seen;
  restart({}, [&](const SessionIdentity& id) {
    seen.push_back(id);
    return false;
  });
  const LoginResponsePdu r = login();
  ASSERT_EQ(seen.size(), 1U);
  EXPECT_EQ(seen[0].initiator, kInitiatorName);
  EXPECT_EQ(seen[0].target, kTargetName);
  EXPECT_EQ(seen[0].isid, (std::array<std::uint8_t, 6>{0x80, 0, 0, 1, 0, 0}));
  EXPECT_EQ(seen[0].nexus, 7U);
  EXPECT_EQ(r.status_class, 0x03);
  EXPECT_EQ(r.status_detail, 0x02);
  EXPECT_TRUE(closed);
}

}  // namespace
}  // namespace memstore::iscsi::testing

namespace memstore::iscsi::testing {
namespace {

// The window opens from whatever CmdSN the initiator starts at, far from 0
// included (serial arithmetic, RFC 7143 §4.2.2.1).
TEST_F(SessionTest, TheWindowOpensFromAnyFirstCmdSn) {
  cmd_sn = 0x90000000U;
  const LoginResponsePdu r = login();
  EXPECT_EQ(r.sn.exp_cmd_sn, 0x90000000U);
  EXPECT_EQ(r.sn.max_cmd_sn, 0x90000000U + 63);
  send(command(rw10(0x28, 0, 1), 512, true, false));
  EXPECT_EQ(take().as<DataInPdu>().status, 0);
}

}  // namespace
}  // namespace memstore::iscsi::testing
