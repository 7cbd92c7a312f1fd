// SPDX-License-Identifier: Apache-2.0
// iSCSI PDU codec (RFC 7143 §11): exact bytes for hand-written BHS, a round
// trip for every PDU type, one test per decode error, reserved fields
// ignored, the LUN encoding and the AHS of a SCSI Command.
#include "target/iscsi/pdu.h"

#include <gtest/gtest.h>

#include <string>
#include <utility>
#include <vector>

namespace memstore::iscsi {
namespace {

template <typename T>
T must(const Expected<T, PduError>& r) {
  if (!r.ok()) {
    ADD_FAILURE() << "decode failed: " << r.error().what;
    return T{};
  }
  return *r;
}

template <typename T>
void expect_error(const Expected<T, PduError>& r, RejectReason reason, int byte) {
  ASSERT_FALSE(r.ok()) << "decoded without error";
  const PduError& e = r.error();
  EXPECT_EQ(e.reason, reason) << e.what;
  EXPECT_EQ(e.byte, byte) << e.what;
  EXPECT_FALSE(e.what.empty());
}

// A default PDU with one field changed.
template <typename T, typename F>
T with(F set) {
  T p;
  set(p);
  return p;
}

LunBytes lun_bytes(std::uint8_t b0, std::uint8_t b1) {
  return {b0, b1, 0, 0, 0, 0, 0, 0};
}

// RFC 3720 Appendix B.4 "iSCSI Read PDU": a SCSI Command, F and R set,
// untagged, ITT 0x14000000, EDTL 1024, CmdSN 0x14, ExpStatSN 0x18, READ(10)
// of two blocks at LBA 0.
constexpr Bhs kReadPdu = {
    0x01, 0xc0, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00,
    0x14, 0x00, 0x00, 0x00, 0x00, 0x00, 0x04, 0x00, 0x00, 0x00, 0x00, 0x14, 0x00, 0x00, 0x00, 0x18,
    0x28, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x02, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00,
};

// ---- Common fields (§11.2.1) ----

TEST(Bhs, OpcodeOfKnowsExactlyTheRfcOpcodes) {
  int defined = 0;
  for (int code = 0; code < 64; ++code) {
    Bhs b{};
    b[0] = static_cast<std::uint8_t>(code | 0xC0);  // bit 7 and I must not matter
    if (const auto op = opcode_of(b)) {
      EXPECT_EQ(static_cast<int>(*op), code);
      ++defined;
    }
  }
  EXPECT_EQ(defined, 18);
}

TEST(Bhs, CommonFieldAccessors) {
  Bhs b{};
  b[0] = 0x41;
  b[1] = 0x80;
  b[4] = 3;
  b[5] = 0x12;
  b[6] = 0x34;
  b[7] = 0x56;
  b[16] = 0xDE;
  b[17] = 0xAD;
  b[18] = 0xBE;
  b[19] = 0xEF;
  EXPECT_TRUE(immediate_bit(b));
  EXPECT_TRUE(final_bit(b));
  EXPECT_EQ(total_ahs_length(b), 3);
  EXPECT_EQ(data_segment_length(b), 0x123456u);
  EXPECT_EQ(initiator_task_tag(b), 0xDEADBEEFu);
  EXPECT_FALSE(immediate_bit(Bhs{}));
  EXPECT_FALSE(final_bit(Bhs{}));
}

TEST(Bhs, PaddedLength) {
  const std::size_t expected[] = {0, 4, 4, 4, 4, 8, 8, 8, 8};
  for (std::size_t n = 0; n < 9; ++n) EXPECT_EQ(padded_length(n), expected[n]) << n;
  EXPECT_EQ(padded_length(0xFFFFFF), 0x1000000u);
}

TEST(Bhs, DataSegmentLengthIsMaskedTo24Bits) {
  const Bhs b = encode(with<NopInPdu>([](auto& p) { p.data_segment_length = 0x01ABCDEF; }));
  EXPECT_EQ(data_segment_length(b), 0xABCDEFu);
  EXPECT_EQ(b[4], 0);
}

// ---- LUN (§11.2.1.3) ----

TEST(Lun, EncodesPeripheralBelow256AndFlatAbove) {
  EXPECT_EQ(encode_lun(0), lun_bytes(0x00, 0x00));
  EXPECT_EQ(encode_lun(5), lun_bytes(0x00, 0x05));
  EXPECT_EQ(encode_lun(255), lun_bytes(0x00, 0xFF));
  EXPECT_EQ(encode_lun(256), lun_bytes(0x41, 0x00));
  EXPECT_EQ(encode_lun(0x1234), lun_bytes(0x52, 0x34));
  EXPECT_EQ(encode_lun(kMaxLun), lun_bytes(0x7F, 0xFF));
}

TEST(Lun, RoundTripsEveryLun) {
  for (std::uint32_t lun = 0; lun <= kMaxLun; ++lun) {
    ASSERT_EQ(decode_lun(encode_lun(static_cast<std::uint16_t>(lun))), lun);
  }
}

TEST(Lun, DecodesFlatSpaceForSmallLuns) {
  EXPECT_EQ(decode_lun(lun_bytes(0x40, 0x05)), 5);
}

TEST(Lun, RefusesOtherAddresses) {
  EXPECT_EQ(decode_lun(lun_bytes(0x01, 0x05)), std::nullopt);  // peripheral, bus 1
  EXPECT_EQ(decode_lun(lun_bytes(0x80, 0x05)), std::nullopt);  // logical unit addressing
  EXPECT_EQ(decode_lun(lun_bytes(0xC1, 0x01)), std::nullopt);  // extended (well-known LUN)
  LunBytes two_level = lun_bytes(0x00, 0x01);
  two_level[2] = 0x00;
  two_level[3] = 0x02;
  EXPECT_EQ(decode_lun(two_level), std::nullopt);
  LunBytes trailing = lun_bytes(0x40, 0x01);
  trailing[7] = 1;
  EXPECT_EQ(decode_lun(trailing), std::nullopt);
}

// ---- Exact bytes ----

TEST(ExactBytes, Rfc3720ReadPduDecodes) {
  const auto cmd = must(decode_scsi_command(kReadPdu));
  EXPECT_FALSE(cmd.immediate);
  EXPECT_TRUE(cmd.final);
  EXPECT_TRUE(cmd.read);
  EXPECT_FALSE(cmd.write);
  EXPECT_EQ(cmd.attr, TaskAttribute::kUntagged);
  EXPECT_EQ(decode_lun(cmd.lun), 0);
  EXPECT_EQ(cmd.itt, 0x14000000u);
  EXPECT_EQ(cmd.expected_data_transfer_length, 1024u);
  EXPECT_EQ(cmd.cmd_sn, 0x14u);
  EXPECT_EQ(cmd.exp_stat_sn, 0x18u);
  EXPECT_EQ(cmd.cdb[0], 0x28);
  EXPECT_EQ(cmd.cdb[8], 0x02);
  EXPECT_EQ(encode(cmd), kReadPdu);
}

TEST(ExactBytes, LoginResponse) {
  LoginResponsePdu p;
  p.transit = true;
  p.csg = 1;
  p.nsg = 3;
  p.version_max = 0;
  p.version_active = 0;
  p.data_segment_length = 0x1A;
  p.isid = {0x80, 0x12, 0x34, 0x56, 0x78, 0x9A};
  p.tsih = 0x0102;
  p.itt = 0x0A0B0C0D;
  p.sn = {0x11111111, 0x22222222, 0x33333333};
  p.status_class = 0x02;
  p.status_detail = 0x01;
  const Bhs expected = {
      0x23, 0x87, 0x00, 0x00, 0x00, 0x00, 0x00, 0x1A, 0x80, 0x12, 0x34, 0x56,
      0x78, 0x9A, 0x01, 0x02, 0x0A, 0x0B, 0x0C, 0x0D, 0x00, 0x00, 0x00, 0x00,
      0x11, 0x11, 0x11, 0x11, 0x22, 0x22, 0x22, 0x22, 0x33, 0x33, 0x33, 0x33,
      0x02, 0x01, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00,
  };
  EXPECT_EQ(encode(p), expected);
  EXPECT_EQ(must(decode_login_response(expected)), p);
}

TEST(ExactBytes, DataInWithStatus) {
  DataInPdu p;
  p.final = true;
  p.underflow = true;
  p.has_status = true;
  p.status = 0x00;
  p.data_segment_length = 0x200;
  p.itt = 7;
  p.sn = {0x100, 0x200, 0x240};
  p.data_sn = 3;
  p.buffer_offset = 0x600;
  p.residual_count = 0x200;
  const Bhs expected = {
      0x25, 0x83, 0x00, 0x00, 0x00, 0x00, 0x02, 0x00, 0x00, 0x00, 0x00, 0x00,
      0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x07, 0xFF, 0xFF, 0xFF, 0xFF,
      0x00, 0x00, 0x01, 0x00, 0x00, 0x00, 0x02, 0x00, 0x00, 0x00, 0x02, 0x40,
      0x00, 0x00, 0x00, 0x03, 0x00, 0x00, 0x06, 0x00, 0x00, 0x00, 0x02, 0x00,
  };
  EXPECT_EQ(encode(p), expected);
  EXPECT_EQ(must(decode_data_in(expected)), p);
}

TEST(ExactBytes, R2t) {
  R2tPdu p{encode_lun(1), 0x01020304, 0x0000ABCD, {5, 6, 7}, 2, 0x10000, 0x2000};
  const Bhs expected = {
      0x31, 0x80, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x01, 0x00, 0x00,
      0x00, 0x00, 0x00, 0x00, 0x01, 0x02, 0x03, 0x04, 0x00, 0x00, 0xAB, 0xCD,
      0x00, 0x00, 0x00, 0x05, 0x00, 0x00, 0x00, 0x06, 0x00, 0x00, 0x00, 0x07,
      0x00, 0x00, 0x00, 0x02, 0x00, 0x01, 0x00, 0x00, 0x00, 0x00, 0x20, 0x00,
  };
  EXPECT_EQ(encode(p), expected);
  EXPECT_EQ(must(decode_r2t(expected)), p);
}

TEST(ExactBytes, RejectCarriesReasonAndReservedTag) {
  RejectPdu p{RejectReason::kInvalidPduField, kBhsSize, {9, 10, 11}, 0};
  const Bhs b = encode(p);
  EXPECT_EQ(b[0], 0x3F);
  EXPECT_EQ(b[1], 0x80);
  EXPECT_EQ(b[2], 0x09);
  EXPECT_EQ(data_segment_length(b), 48u);
  EXPECT_EQ(initiator_task_tag(b), kReservedTag);
  EXPECT_EQ(must(decode_reject(b)), p);
}

TEST(ExactBytes, TextRequestWithContinue) {
  TextRequestPdu p{true, false, true, 300, {}, 0x55, kReservedTag, 0x01000000, 0x02};
  const Bhs expected = {
      0x44, 0x40, 0x00, 0x00, 0x00, 0x00, 0x01, 0x2C, 0x00, 0x00, 0x00, 0x00,
      0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x55, 0xFF, 0xFF, 0xFF, 0xFF,
      0x01, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x02, 0x00, 0x00, 0x00, 0x00,
      0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00,
  };
  EXPECT_EQ(encode(p), expected);
  EXPECT_EQ(must(decode_text_request(expected)), p);
}

TEST(ExactBytes, LoginRequestFieldOffsets) {
  LoginRequestPdu p;
  p.transit = true;
  p.csg = LoginStage::kSecurityNegotiation;
  p.nsg = LoginStage::kOperationalNegotiation;
  p.version_max = 0;
  p.version_min = 0;
  p.data_segment_length = 0x40;
  p.isid = {0x40, 0x00, 0x01, 0x37, 0x00, 0x00};
  p.tsih = 0;
  p.itt = 0;
  p.cid = 0x0001;
  p.cmd_sn = 0x10;
  p.exp_stat_sn = 0x20;
  const Bhs b = encode(p);
  EXPECT_EQ(b[0], 0x43);  // I is always set on a Login Request
  EXPECT_EQ(b[1], 0x81);
  EXPECT_EQ(b[7], 0x40);
  EXPECT_EQ(b[8], 0x40);
  EXPECT_EQ(b[11], 0x37);
  EXPECT_EQ(b[21], 0x01);
  EXPECT_EQ(b[27], 0x10);
  EXPECT_EQ(b[31], 0x20);
  EXPECT_EQ(must(decode_login_request(b)), p);
}

// ---- Round trips through the dispatching decoders ----

std::vector<InitiatorPdu> initiator_samples() {
  ScsiCommandPdu cmd{true,
                     false,
                     true,
                     true,
                     TaskAttribute::kHeadOfQueue,
                     2,
                     512,
                     encode_lun(300),
                     0x11,
                     4096,
                     0x7FFFFFFF,
                     0x80000001,
                     {}};
  cmd.cdb = {0x8A, 1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13, 14, 15};
  return {
      NopOutPdu{true, 8, encode_lun(2), kReservedTag, 0x1234, 5, 6},
      cmd,
      TaskMgmtRequestPdu{true, TmfFunction::kLogicalUnitReset, encode_lun(3), 9, 10, 11, 12, 13,
                         14},
      TaskMgmtRequestPdu{false, static_cast<TmfFunction>(0x7F), {}, 1, 2, 3, 4, 5, 6},
      LoginRequestPdu{false,
                      true,
                      LoginStage::kOperationalNegotiation,
                      LoginStage::kSecurityNegotiation,
                      1,
                      0,
                      77,
                      {1, 2, 3, 4, 5, 6},
                      0x99,
                      3,
                      4,
                      5,
                      6},
      LoginRequestPdu{true,
                      false,
                      LoginStage::kOperationalNegotiation,
                      LoginStage::kFullFeaturePhase,
                      0,
                      0,
                      0,
                      {},
                      0,
                      1,
                      2,
                      3,
                      4},
      TextRequestPdu{false, true, false, 20, {}, 1, 2, 3, 4},
      DataOutPdu{true, 8192, encode_lun(1), 3, 4, 5, 6, 0x3000},
      LogoutRequestPdu{true, LogoutReason::kRemoveConnectionForRecovery, 1, 0xBEEF, 2, 3},
      SnackPdu{SnackType::kRData, encode_lun(4), 5, 6, 7, 8, 9},
  };
}

std::vector<TargetPdu> target_samples() {
  return {
      NopInPdu{4, encode_lun(1), kReservedTag, 0x77, {1, 2, 3}},
      ScsiResponsePdu{true, false, false, true, 0x00, 0x02, 18, 5, 6, {7, 8, 9}, 10, 11, 12},
      ScsiResponsePdu{false, true, true, false, 0x01, 0x00, 0, 1, 0, {2, 3, 4}, 0, 0, 0},
      TaskMgmtResponsePdu{TmfResponse::kRejected, 3, {4, 5, 6}},
      LoginResponsePdu{
          false, true, 0, 1, 0, 0, 100, {6, 5, 4, 3, 2, 1}, 0x8000, 1, {2, 3, 4}, 0, 0},
      TextResponsePdu{false, true, 8192, encode_lun(9), 1, 2, {3, 4, 5}},
      DataInPdu{false, true, false, false, false, 0, 512, encode_lun(1), 1, 2, {0, 3, 4}, 5, 6, 0},
      LogoutResponsePdu{LogoutResponse::kCidNotFound, 1, {2, 3, 4}, 2, 20},
      R2tPdu{encode_lun(2), 1, 2, {3, 4, 5}, 6, 7, 8},
      AsyncMessagePdu{18, encode_lun(0), {1, 2, 3}, AsyncEvent::kRequestLogout, 0, 1, 2, 3},
      RejectPdu{RejectReason::kCommandNotSupported, kBhsSize, {1, 2, 3}, 4},
  };
}

TEST(RoundTrip, EveryInitiatorPdu) {
  for (const InitiatorPdu& pdu : initiator_samples()) {
    const Bhs b = encode(pdu);
    EXPECT_EQ(must(decode_initiator_pdu(b)), pdu) << "opcode " << int{b[0]};
  }
}

TEST(RoundTrip, EveryTargetPdu) {
  for (const TargetPdu& pdu : target_samples()) {
    const Bhs b = encode(pdu);
    EXPECT_EQ(must(decode_target_pdu(b)), pdu) << "opcode " << int{b[0]};
  }
}

TEST(RoundTrip, ReservedBytesAreIgnored) {
  // RFC 7143 §11.2: receivers ignore reserved fields. Fill every byte that
  // no field of the decoded PDU covers with ones and decode again.
  struct Case {
    Bhs bhs;
    std::uint8_t byte1_reserved;                // reserved bits of byte 1
    std::vector<std::pair<int, int>> reserved;  // inclusive byte ranges
  };
  const std::vector<Case> cases = {
      {encode(NopOutPdu{false, 0, {}, 1, 2, 3, 4}), 0x7F, {{2, 3}, {32, 47}}},
      {encode(TaskMgmtRequestPdu{}), 0x00, {{2, 3}, {40, 47}}},
      {encode(LoginRequestPdu{}), 0x30, {{22, 23}, {32, 47}}},
      {encode(TextRequestPdu{false, true, false, 0, {}, 1, 2, 3, 4}), 0x3F, {{2, 3}, {32, 47}}},
      {encode(DataOutPdu{}), 0x7F, {{2, 3}, {24, 27}, {32, 35}, {44, 47}}},
      {encode(LogoutRequestPdu{false, LogoutReason::kCloseSession, 1, 0, 0, 0}),
       0x00,
       {{2, 3}, {8, 15}, {22, 23}, {32, 47}}},
      {encode(SnackPdu{}), 0x70, {{2, 3}, {24, 27}, {32, 39}}},
  };
  for (const Case& c : cases) {
    Bhs noisy = c.bhs;
    noisy[0] |= 0x80;  // byte 0 bit 7 is reserved everywhere
    noisy[1] |= c.byte1_reserved;
    for (const auto& [first, last] : c.reserved) {
      for (int i = first; i <= last; ++i) noisy[i] = 0xFF;
    }
    const auto a = decode_initiator_pdu(c.bhs);
    const auto b = decode_initiator_pdu(noisy);
    ASSERT_TRUE(b.ok()) << b.error().what;
    EXPECT_EQ(*a, *b) << int{c.bhs[0]};
  }
}

TEST(RoundTrip, LoginNsgIsIgnoredWithoutTransit) {
  Bhs b = encode(LoginRequestPdu{});
  b[1] = 0x02;  // T = 0, NSG = 2 (reserved, but NSG is meaningless without T)
  EXPECT_EQ(must(decode_login_request(b)).nsg, LoginStage::kSecurityNegotiation);
}

TEST(RoundTrip, UnknownTmfFunctionDecodesForFunctionRejected) {
  Bhs b = encode(TaskMgmtRequestPdu{});
  b[1] = 0x80 | 0x0E;
  EXPECT_EQ(static_cast<int>(must(decode_task_mgmt_request(b)).function), 0x0E);
}

// ---- Decode errors ----

TEST(DecodeError, UndefinedOpcodeIsCommandNotSupported) {
  Bhs b{};
  b[0] = 0x07;
  expect_error(decode_initiator_pdu(b), RejectReason::kCommandNotSupported, 0);
  b[0] = 0x1C;
  expect_error(decode_initiator_pdu(b), RejectReason::kCommandNotSupported, 0);
  b[0] = 0x3C;
  expect_error(decode_target_pdu(b), RejectReason::kCommandNotSupported, 0);
}

TEST(DecodeError, OpcodeOfTheOtherDirection) {
  expect_error(decode_initiator_pdu(encode(NopInPdu{})), RejectReason::kProtocolError, 0);
  expect_error(decode_target_pdu(encode(with<NopOutPdu>([](auto& p) { p.immediate = true; }))),
               RejectReason::kProtocolError, 0);
}

TEST(DecodeError, TypedDecoderChecksTheOpcode) {
  expect_error(decode_nop_out(kReadPdu), RejectReason::kProtocolError, 0);
  expect_error(decode_data_in(kReadPdu), RejectReason::kProtocolError, 0);
  expect_error(decode_scsi_command(encode(DataOutPdu{})), RejectReason::kProtocolError, 0);
}

TEST(DecodeError, AhsOnlyOnScsiCommand) {
  Bhs b = encode(TextRequestPdu{false, true, false, 0, {}, 1, 2, 3, 4});
  b[4] = 1;
  expect_error(decode_text_request(b), RejectReason::kInvalidPduField, 4);
  Bhs r = encode(NopInPdu{});
  r[4] = 1;
  expect_error(decode_nop_in(r), RejectReason::kInvalidPduField, 4);
}

TEST(DecodeError, DataSegmentWherePduHasNone) {
  auto with_data = [](Bhs b) {
    b[7] = 4;
    return b;
  };
  const auto reason = RejectReason::kInvalidPduField;
  expect_error(decode_task_mgmt_request(with_data(encode(TaskMgmtRequestPdu{}))), reason, 5);
  expect_error(decode_logout_request(with_data(encode(LogoutRequestPdu{}))), reason, 5);
  expect_error(decode_snack(with_data(encode(SnackPdu{}))), reason, 5);
  expect_error(decode_task_mgmt_response(with_data(encode(TaskMgmtResponsePdu{}))), reason, 5);
  expect_error(decode_logout_response(with_data(encode(LogoutResponsePdu{}))), reason, 5);
  expect_error(decode_r2t(with_data(encode(R2tPdu{}))), reason, 5);
}

TEST(DecodeError, NopOutAnsweringNopInMustBeImmediate) {
  expect_error(decode_nop_out(encode(NopOutPdu{})), RejectReason::kProtocolError, 0);
  EXPECT_TRUE(
      must(decode_nop_out(encode(with<NopOutPdu>([](auto& p) { p.immediate = true; })))).immediate);
  EXPECT_EQ(must(decode_nop_out(encode(with<NopOutPdu>([](auto& p) { p.itt = 3; })))).itt, 3u);
}

TEST(DecodeError, ScsiCommandReservedTaskAttribute) {
  for (std::uint8_t attr = 5; attr < 8; ++attr) {
    Bhs b = kReadPdu;
    b[1] = static_cast<std::uint8_t>(0xC0 | attr);
    expect_error(decode_scsi_command(b), RejectReason::kProtocolError, 1);
  }
}

TEST(DecodeError, ScsiCommandReservedItt) {
  Bhs b = kReadPdu;
  b[16] = b[17] = b[18] = b[19] = 0xFF;
  expect_error(decode_scsi_command(b), RejectReason::kInvalidPduField, 16);
}

TEST(DecodeError, ScsiCommandTransferLengthWithoutDirection) {
  Bhs b = kReadPdu;
  b[1] = 0x80;  // neither R nor W, EDTL 1024
  expect_error(decode_scsi_command(b), RejectReason::kInvalidPduField, 20);
  b[20] = b[21] = b[22] = b[23] = 0;  // and with EDTL 0 it is fine
  EXPECT_FALSE(must(decode_scsi_command(b)).read);
}

TEST(DecodeError, LoginTransitAndContinue) {
  Bhs b = encode(LoginRequestPdu{});
  b[1] = 0xC1;
  expect_error(decode_login_request(b), RejectReason::kProtocolError, 1);
}

TEST(DecodeError, LoginReservedStage) {
  Bhs b = encode(LoginRequestPdu{});
  b[1] = 0x08;  // CSG = 2
  expect_error(decode_login_request(b), RejectReason::kProtocolError, 1);
  b[1] = 0x82;  // T, CSG = 0, NSG = 2
  expect_error(decode_login_request(b), RejectReason::kProtocolError, 1);
}

TEST(DecodeError, TextFinalAndContinue) {
  expect_error(decode_text_request(encode(TextRequestPdu{false, true, true, 0, {}, 1, 2, 3, 4})),
               RejectReason::kProtocolError, 1);
}

TEST(DecodeError, TextReservedItt) {
  expect_error(
      decode_text_request(encode(with<TextRequestPdu>([](auto& p) { p.itt = kReservedTag; }))),
      RejectReason::kInvalidPduField, 16);
}

TEST(DecodeError, LogoutReservedReason) {
  for (const int reason : {3, 4, 0x7F}) {
    Bhs b = encode(LogoutRequestPdu{});
    b[1] = static_cast<std::uint8_t>(0x80 | reason);
    expect_error(decode_logout_request(b), RejectReason::kProtocolError, 1);
  }
}

TEST(DecodeError, LogoutReservedItt) {
  expect_error(
      decode_logout_request(encode(with<LogoutRequestPdu>([](auto& p) { p.itt = kReservedTag; }))),
      RejectReason::kInvalidPduField, 16);
}

TEST(DecodeError, SnackReservedType) {
  for (std::uint8_t type = 4; type < 16; ++type) {
    Bhs b = encode(SnackPdu{});
    b[1] = static_cast<std::uint8_t>(0x80 | type);
    expect_error(decode_snack(b), RejectReason::kProtocolError, 1);
  }
}

TEST(DecodeError, DataInStatusWithoutFinal) {
  expect_error(decode_data_in(encode(with<DataInPdu>([](auto& p) { p.has_status = true; }))),
               RejectReason::kProtocolError, 1);
}

// ---- AHS (§11.2.2, §11.3.4, §11.3.5) ----

TEST(Ahs, ExtendedCdbAndBidiRoundTrip) {
  ScsiCommandAhs ahs;
  ahs.extended_cdb = {0x10, 0x11, 0x12, 0x13, 0x14};
  ahs.bidi_read_length = 0x00012345;
  const std::vector<std::uint8_t> bytes = encode_ahs(ahs);
  const std::vector<std::uint8_t> expected = {
      0x00, 0x06, 0x01, 0x00, 0x10, 0x11, 0x12, 0x13, 0x14, 0x00, 0x00, 0x00,  // CDB 16..20
      0x00, 0x05, 0x02, 0x00, 0x00, 0x01, 0x23, 0x45,                          // bidi read
  };
  EXPECT_EQ(bytes, expected);
  EXPECT_EQ(must(decode_ahs(bytes)), ahs);

  ScsiCommandPdu cmd;
  cmd.cdb[0] = 0x7F;
  const auto cdb = full_cdb(cmd, ahs);
  ASSERT_EQ(cdb.size(), 21u);
  EXPECT_EQ(cdb[0], 0x7F);
  EXPECT_EQ(cdb[16], 0x10);
  EXPECT_EQ(cdb[20], 0x14);
}

TEST(Ahs, EmptyIsNothing) {
  EXPECT_EQ(must(decode_ahs({})), ScsiCommandAhs{});
  EXPECT_TRUE(encode_ahs({}).empty());
}

TEST(Ahs, ReservedTypeBitsAndExtensionsAreSkipped) {
  const std::vector<std::uint8_t> bytes = {
      0x00, 0x02, 0xFC, 0x00, 0xAA, 0x00, 0x00, 0x00,  // code 60: non-iSCSI extension
      0x00, 0x05, 0xC2, 0x00, 0x00, 0x00, 0x00, 0x10,  // bidi with bits 7-6 set
  };
  const auto ahs = must(decode_ahs(bytes));
  EXPECT_TRUE(ahs.extended_cdb.empty());
  EXPECT_EQ(ahs.bidi_read_length, 0x10u);
}

TEST(Ahs, Errors) {
  using B = std::vector<std::uint8_t>;
  const auto p = RejectReason::kProtocolError;
  const auto f = RejectReason::kInvalidPduField;
  expect_error(decode_ahs(B{0x00, 0x01, 0x01}), p, 0);                    // truncated header
  expect_error(decode_ahs(B{0x00, 0x09, 0x01, 0x00, 1, 2, 3, 4}), p, 0);  // overruns
  expect_error(decode_ahs(B{0x00, 0x00, 0x01, 0x00}), p, 0);              // zero length
  expect_error(decode_ahs(B{0x00, 0x01, 0x01, 0x00}), f, 0);              // empty extended CDB
  expect_error(decode_ahs(B{0x00, 0x01, 0x03, 0x00}), p, 2);              // reserved code 3
  expect_error(decode_ahs(B{0x00, 0x02, 0x02, 0x00, 0, 0, 0, 0}), f, 0);  // bidi length 2
  expect_error(
      decode_ahs(B{0x00, 0x02, 0x01, 0x00, 9, 0, 0, 0, 0x00, 0x02, 0x01, 0x00, 9, 0, 0, 0}), p,
      8);  // second extended CDB
  expect_error(
      decode_ahs(B{0x00, 0x05, 0x02, 0x00, 0, 0, 0, 1, 0x00, 0x05, 0x02, 0x00, 0, 0, 0, 1}), p,
      8);  // second bidi length
}

}  // namespace
}  // namespace memstore::iscsi
