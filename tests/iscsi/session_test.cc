// SPDX-License-Identifier: Apache-2.0
// The session against a well-behaved and a hostile initiator: every
// violation gets the RFC 7143 answer (a Reject, a Login failure status, a
// silent drop, or the end of the connection), never a hang.
#include <gtest/gtest.h>

#include "tests/iscsi/session_harness.h"

namespace memstore::iscsi::testing {
namespace {

constexpr std::uint8_t kRead10 = 0x28;
constexpr std::uint8_t kWrite10 = 0x2A;

TEST_F(SessionTest, LoginEntersFullFeaturePhase) {
  const LoginResponsePdu r = login();
  EXPECT_EQ(r.status_class, 0);
  EXPECT_TRUE(r.transit);
  EXPECT_EQ(r.nsg, 3);
  EXPECT_EQ(r.tsih, 1);
  EXPECT_FALSE(closed);
}

TEST_F(SessionTest, UnknownTargetFailsLoginWithTargetNotFound) {
  LoginRequestPdu req;
  req.transit = true;
  req.csg = LoginStage::kOperationalNegotiation;
  req.nsg = LoginStage::kFullFeaturePhase;
  const auto text = serialize_text(std::vector<TextPair>{
      {"InitiatorName", kInitiatorName}, {"TargetName", "iqn.2026-11.org.memstore.test:nobody"}});
  req.data_segment_length = static_cast<std::uint32_t>(text.size());
  send(req, text);
  const auto& r = take().as<LoginResponsePdu>();
  EXPECT_EQ(r.status_class, 0x02);
  EXPECT_EQ(r.status_detail, 0x03);  // RFC 7143 §11.13.5: Not found
  EXPECT_TRUE(closed);
  // The refusal reaches the security log (set_audit).
  ASSERT_EQ(refusals.size(), 1u);
  EXPECT_EQ(refusals[0].kind, SecurityKind::kLogin);
  EXPECT_EQ(refusals[0].status, kTargetNotFound);
  EXPECT_EQ(refusals[0].target, "iqn.2026-11.org.memstore.test:nobody");
  EXPECT_EQ(refusals[0].reason, "no such target");
}

TEST_F(SessionTest, UnsupportedVersionFailsLogin) {
  LoginRequestPdu req;
  req.version_min = 1;
  req.version_max = 1;
  send(req);
  const auto& r = take().as<LoginResponsePdu>();
  EXPECT_EQ(r.status_class, 0x02);
  EXPECT_EQ(r.status_detail, 0x05);  // Unsupported version
  EXPECT_TRUE(closed);
}

TEST_F(SessionTest, CommandBeforeLoginEndsTheConnection) {
  send(command(rw10(kRead10, 0, 1), 512, true, false));
  EXPECT_TRUE(sent.empty());
  EXPECT_TRUE(closed);
  EXPECT_EQ(port.submitted, 0);
}

TEST_F(SessionTest, ImmediateDataWriteThenReadReturnsTheData) {
  login({{"ImmediateData", "Yes"}});
  const auto data = pattern(512, 3);
  ScsiCommandPdu w = command(rw10(kWrite10, 40, 1), 512, false, true);
  w.data_segment_length = 512;
  send(w, data);
  const auto& wr = take().as<ScsiResponsePdu>();
  EXPECT_EQ(wr.status, 0);
  EXPECT_EQ(wr.itt, w.itt);

  send(command(rw10(kRead10, 40, 1), 512, true, false));
  const Sent in = take();
  const auto& d = in.as<DataInPdu>();
  EXPECT_TRUE(d.has_status);  // status rides in the last Data-In (§11.7.4)
  EXPECT_EQ(d.status, 0);
  EXPECT_EQ(in.data, data);
  EXPECT_EQ(d.sn.stat_sn, wr.sn.stat_sn + 1);
}

TEST_F(SessionTest, UnsolicitedDataOutCompletesAWrite) {
  login({{"InitialR2T", "No"}, {"ImmediateData", "No"}});
  ScsiCommandPdu w = command(rw10(kWrite10, 8, 2), 1024, false, true);
  w.final = false;  // unsolicited Data-Out follows
  send(w);
  EXPECT_TRUE(sent.empty());
  send(data_out(w.itt, kReservedTag, 0, 0, 512, false), pattern(512, 1));
  send(data_out(w.itt, kReservedTag, 1, 512, 512, true), pattern(512, 2));
  EXPECT_EQ(take().as<ScsiResponsePdu>().status, 0);
  EXPECT_FALSE(closed);
}

TEST_F(SessionTest, R2tSolicitsWhatImmediateDataLeftOut) {
  login({{"InitialR2T", "Yes"}, {"ImmediateData", "Yes"}});
  ScsiCommandPdu w = command(rw10(kWrite10, 16, 4), 2048, false, true);
  w.data_segment_length = 512;
  send(w, pattern(512, 0));
  const auto& r2t = take().as<R2tPdu>();
  EXPECT_EQ(r2t.itt, w.itt);
  EXPECT_EQ(r2t.buffer_offset, 512U);
  EXPECT_EQ(r2t.desired_data_transfer_length, 1536U);
  EXPECT_EQ(r2t.r2t_sn, 0U);
  send(data_out(w.itt, r2t.ttt, 0, 512, 1536, true), pattern(1536, 9));
  EXPECT_EQ(take().as<ScsiResponsePdu>().status, 0);
}

TEST_F(SessionTest, DataOutWithoutR2tIsRejectedAndEndsTheConnection) {
  login({{"InitialR2T", "Yes"}, {"ImmediateData", "No"}});
  ScsiCommandPdu w = command(rw10(kWrite10, 0, 1), 512, false, true);
  send(w);
  (void)take().as<R2tPdu>();
  // Unsolicited data while InitialR2T=Yes (RFC 7143 §13.10).
  send(data_out(w.itt, kReservedTag, 0, 0, 512, true), pattern(512, 0));
  EXPECT_EQ(take().as<RejectPdu>().reason, RejectReason::kProtocolError);
  EXPECT_TRUE(closed);
  EXPECT_EQ(port.submitted, 0);
}

TEST_F(SessionTest, UnsolicitedDataAnnouncedDespiteInitialR2tIsRejected) {
  login({{"InitialR2T", "Yes"}});
  ScsiCommandPdu w = command(rw10(kWrite10, 0, 1), 512, false, true);
  w.final = false;
  send(w);
  const Sent s = take();
  EXPECT_EQ(s.as<RejectPdu>().reason, RejectReason::kProtocolError);
  // The Reject carries the offending header (§11.17).
  EXPECT_EQ(s.data.size(), kBhsSize);
  // The session goes on: the next command is served.
  send(command(rw10(kRead10, 0, 1), 512, true, false));
  EXPECT_EQ(take().as<DataInPdu>().status, 0);
}

TEST_F(SessionTest, DataOutWithAnUnknownTransferTagIsRejected) {
  login({{"InitialR2T", "Yes"}, {"ImmediateData", "No"}});
  ScsiCommandPdu w = command(rw10(kWrite10, 0, 1), 512, false, true);
  send(w);
  const auto& r2t = take().as<R2tPdu>();
  send(data_out(w.itt, r2t.ttt + 100, 0, 0, 512, true), pattern(512, 0));
  EXPECT_EQ(take().as<RejectPdu>().reason, RejectReason::kProtocolError);
  EXPECT_TRUE(closed);
}

TEST_F(SessionTest, DataSnGapIsRejected) {
  login({{"InitialR2T", "No"}, {"ImmediateData", "No"}});
  ScsiCommandPdu w = command(rw10(kWrite10, 0, 2), 1024, false, true);
  w.final = false;
  send(w);
  send(data_out(w.itt, kReservedTag, 0, 0, 512, false), pattern(512, 0));
  send(data_out(w.itt, kReservedTag, 2, 512, 512, true), pattern(512, 0));  // DataSN 1 missing
  EXPECT_EQ(take().as<RejectPdu>().reason, RejectReason::kProtocolError);
  EXPECT_TRUE(closed);
  EXPECT_EQ(port.submitted, 0);
}

// Linux's and libiscsi's initiators offer FirstBurstLength=262144: a write of
// up to one PDU (our MaxRecvDataSegmentLength) then goes with its command,
// and the session writes it without an R2T round trip.
TEST_F(SessionTest, AWriteOfOneFullPduGoesWithItsCommandWithoutAnR2t) {
  login({{"ImmediateData", "Yes"}, {"FirstBurstLength", "262144"}});
  const auto data = pattern(262144, 5);
  ScsiCommandPdu w = command(rw10(kWrite10, 0, 512), 262144, false, true);
  w.data_segment_length = 262144;
  send(w, data);
  const auto& wr = take().as<ScsiResponsePdu>();  // not an R2T
  EXPECT_EQ(wr.status, 0);
  EXPECT_TRUE(sent.empty());
  EXPECT_EQ(port.submitted, 1);
  send(command(rw10(kRead10, 0, 512), 262144, true, false));
  std::vector<std::uint8_t> back;
  while (!sent.empty()) {
    const Sent in = take();
    back.insert(back.end(), in.data.begin(), in.data.end());
  }
  EXPECT_EQ(back, data);
}

TEST_F(SessionTest, UnsolicitedDataBeyondFirstBurstLengthIsRejected) {
  login({{"InitialR2T", "No"}, {"ImmediateData", "No"}, {"FirstBurstLength", "512"}});
  ScsiCommandPdu w = command(rw10(kWrite10, 0, 4), 2048, false, true);
  w.final = false;
  send(w);
  send(data_out(w.itt, kReservedTag, 0, 0, 1024, true), pattern(1024, 0));
  EXPECT_EQ(take().as<RejectPdu>().reason, RejectReason::kProtocolError);
  EXPECT_TRUE(closed);
}

TEST_F(SessionTest, ImmediateDataBeyondFirstBurstLengthIsRejected) {
  login({{"ImmediateData", "Yes"}, {"FirstBurstLength", "512"}});
  ScsiCommandPdu w = command(rw10(kWrite10, 0, 2), 1024, false, true);
  w.data_segment_length = 1024;
  send(w, pattern(1024, 0));
  EXPECT_EQ(take().as<RejectPdu>().reason, RejectReason::kProtocolError);
  EXPECT_EQ(port.submitted, 0);
}

TEST_F(SessionTest, DataOutBeyondTheTransferLengthIsRejected) {
  login({{"InitialR2T", "No"}, {"ImmediateData", "No"}});
  ScsiCommandPdu w = command(rw10(kWrite10, 0, 1), 512, false, true);
  w.final = false;
  send(w);
  send(data_out(w.itt, kReservedTag, 0, 256, 512, true), pattern(512, 0));
  EXPECT_EQ(take().as<RejectPdu>().reason, RejectReason::kProtocolError);
  EXPECT_TRUE(closed);
}

TEST_F(SessionTest, CmdSnOutsideTheWindowIsDroppedSilently) {
  login();
  ScsiCommandPdu far = command(rw10(kRead10, 0, 1), 512, true, false);
  far.cmd_sn += 1000;  // beyond MaxCmdSN (RFC 7143 §3.2.2.1)
  send(far);
  ScsiCommandPdu old = command(rw10(kRead10, 0, 1), 512, true, false);
  old.cmd_sn -= 5;  // already used
  send(old);
  EXPECT_TRUE(sent.empty());
  EXPECT_FALSE(closed);
  EXPECT_EQ(port.submitted, 0);
  // ExpCmdSN did not move: the in-window command that follows is served.
  cmd_sn -= 2;
  send(command(rw10(kRead10, 0, 1), 512, true, false));
  const auto& d = take().as<DataInPdu>();
  EXPECT_EQ(d.status, 0);
  EXPECT_EQ(d.sn.exp_cmd_sn, cmd_sn);
  EXPECT_EQ(d.sn.max_cmd_sn - d.sn.exp_cmd_sn, 63U);
}

TEST_F(SessionTest, UndefinedOpcodeGetsCommandNotSupported) {
  login();
  Bhs bhs{};
  bhs[0] = 0x1B;  // not an initiator opcode (RFC 7143 §11.2.1.2)
  send_raw(bhs);
  const Sent s = take();
  EXPECT_EQ(s.as<RejectPdu>().reason, RejectReason::kCommandNotSupported);
  EXPECT_EQ(s.data[0], 0x1B);
  EXPECT_FALSE(closed);
}

TEST_F(SessionTest, MissingLunGetsLogicalUnitNotSupported) {
  login();
  ScsiCommandPdu c = command(rw10(kRead10, 0, 1), 512, true, false);
  c.lun = encode_lun(5);
  send(c);
  const Sent s = take();
  const auto& r = s.as<ScsiResponsePdu>();
  EXPECT_EQ(r.status, 0x02);  // CHECK CONDITION
  ASSERT_GE(s.data.size(), 2U + 14U);
  EXPECT_EQ(s.data[2 + 2] & 0x0F, 0x05);  // ILLEGAL REQUEST
  EXPECT_EQ(s.data[2 + 12], 0x25);        // LOGICAL UNIT NOT SUPPORTED
}

TEST_F(SessionTest, NopOutPingIsEchoed) {
  login();
  NopOutPdu ping;
  ping.itt = 0x55;
  ping.immediate = true;
  ping.cmd_sn = cmd_sn;
  ping.data_segment_length = 4;
  send(ping, {'p', 'i', 'n', 'g'});
  const Sent s = take();
  const auto& r = s.as<NopInPdu>();
  EXPECT_EQ(r.itt, 0x55U);
  EXPECT_EQ(r.ttt, kReservedTag);
  EXPECT_EQ(s.data, (std::vector<std::uint8_t>{'p', 'i', 'n', 'g'}));
}

TEST_F(SessionTest, AbortedTaskSendsNoResponse) {
  login();
  port.hold = true;
  const ScsiCommandPdu c = command(rw10(kRead10, 0, 1), 512, true, false);
  send(c);
  const TaskMgmtRequestPdu tmf = abort_task(c.itt);
  send(tmf);
  EXPECT_EQ(take().as<TaskMgmtResponsePdu>().response, TmfResponse::kComplete);
  port.release();  // the model finishes the command; the initiator hears nothing
  EXPECT_TRUE(sent.empty());
  // Aborting it again: it no longer exists.
  send(tmf);
  EXPECT_EQ(take().as<TaskMgmtResponsePdu>().response, TmfResponse::kTaskDoesNotExist);
}

TEST_F(SessionTest, SendTargetsInANormalSessionNamesItsTarget) {
  login();
  // An empty value asks for the session's own target; "All" is for discovery
  // sessions only (RFC 7143 Appendix C).
  send_text(0x77, {{"SendTargets", ""}});
  const Sent s = take();
  EXPECT_TRUE(s.as<TextResponsePdu>().final);
  const auto pairs = parse_text(s.data);
  ASSERT_TRUE(pairs.ok()) << pairs.error().what;
  const auto& kv = *pairs;
  ASSERT_EQ(kv.size(), 2U);
  EXPECT_EQ(kv[0].value, kTargetName);
  EXPECT_EQ(kv[1].value, "127.0.0.1:3260,1");
}

TEST_F(SessionTest, MaxRecvDataSegmentLengthDeclaredInFullFeaturePhaseCutsDataIn) {
  login({{"MaxRecvDataSegmentLength", "8192"}});
  send_text(0x78, {{"MaxRecvDataSegmentLength", "1024"}});
  EXPECT_TRUE(take().as<TextResponsePdu>().final);
  // 2048 bytes come back as two Data-In PDUs of 1024, not one of 2048.
  send(command(rw10(kRead10, 0, 4), 2048, true, false));
  std::size_t pdus = 0;
  while (!sent.empty()) {
    const Sent in = take();
    EXPECT_EQ(in.data.size(), 1024U);
    ++pdus;
  }
  EXPECT_EQ(pdus, 2U);
}

TEST_F(SessionTest, LogoutAnswersAndEndsTheSession) {
  login();
  LogoutRequestPdu l;
  l.itt = 0x31;
  l.cmd_sn = cmd_sn++;
  send(l);
  const auto& r = take().as<LogoutResponsePdu>();
  EXPECT_EQ(r.response, LogoutResponse::kClosed);
  EXPECT_TRUE(closed);
  send(command(rw10(kRead10, 0, 1), 512, true, false));
  EXPECT_TRUE(sent.empty());
}

}  // namespace
}  // namespace memstore::iscsi::testing

namespace memstore::iscsi::testing {
namespace {

TEST_F(SessionTest, PingIsANopInThatTheInitiatorMustEcho) {
  EXPECT_TRUE(ping_session());  // before login: nothing to ping
  EXPECT_TRUE(sent.empty());
  login();
  ASSERT_TRUE(ping_session());
  const auto p = take().as<NopInPdu>();
  EXPECT_EQ(p.itt, kReservedTag);  // RFC 7143 §11.19.2: a ping, not an answer
  EXPECT_NE(p.ttt, kReservedTag);  // §11.19.3: the initiator must answer
  EXPECT_EQ(p.sn.stat_sn, 1U);     // StatSN is not advanced by a ping
  // Unanswered: the next ping reports the connection dead and sends nothing.
  EXPECT_FALSE(ping_session());
  EXPECT_TRUE(sent.empty());
  // The initiator's answer: ITT reserved, the ping's TTT, immediate.
  NopOutPdu answer;
  answer.immediate = true;
  answer.itt = kReservedTag;
  answer.ttt = p.ttt;
  answer.cmd_sn = cmd_sn;
  send(answer);
  EXPECT_TRUE(sent.empty());  // nothing goes back
  EXPECT_TRUE(ping_session());
  EXPECT_NE(take().as<NopInPdu>().ttt, p.ttt);
}

}  // namespace
}  // namespace memstore::iscsi::testing

namespace memstore::iscsi::testing {
namespace {

TEST_F(SessionTest, IttStillInUseIsRejected) {
  login();
  port.hold = true;  // the first command stays in the model
  const ScsiCommandPdu first = command(rw10(kRead10, 0, 1), 512, true, false);
  send(first);
  ScsiCommandPdu again = command(rw10(kRead10, 8, 1), 512, true, false);
  again.itt = first.itt;  // RFC 7143 §11.2.1.8: an ITT names one outstanding task
  send(again);
  EXPECT_EQ(take().as<RejectPdu>().reason, RejectReason::kTaskInProgress);
  EXPECT_EQ(port.submitted, 1);
  port.release();
  EXPECT_EQ(take().as<DataInPdu>().itt, first.itt);  // the first one completes as usual
}

// An injected transport fault (docs/faults.md, "drop-connection"): the
// command's connection is closed with no response, the command having taken
// effect as a lost response would leave it.
TEST_F(SessionTest, DropConnectionFaultClosesWithoutAResponse) {
  login({{"ImmediateData", "Yes"}});
  scsi::FaultRule r;
  r.op = scsi::FaultOp::kRead;
  r.action = scsi::FaultAction::kDropConnection;
  port.lun().add_fault(r);
  send(command(rw10(kRead10, 40, 1), 512, true, false));
  EXPECT_TRUE(closed);
  EXPECT_TRUE(sent.empty());
}

}  // namespace
}  // namespace memstore::iscsi::testing
