// SPDX-License-Identifier: Apache-2.0
// Write data received in place (Session::landing): the session lends the
// buffer a segment belongs in only for PDUs it will take whole, the bytes
// that land there are the ones the LUN writes, and a segment that fails its
// digest leaves the task as it was.
#include <gtest/gtest.h>

#include "tests/iscsi/session_harness.h"

namespace memstore::iscsi::testing {
namespace {

constexpr std::uint8_t kRead10 = 0x28;
constexpr std::uint8_t kWrite10 = 0x2A;

class LandingTest : public SessionTest {
 protected:
  // What READ(10) returns for `blocks` at `lba`.
  std::vector<std::uint8_t> read_back(std::uint32_t lba, std::uint16_t blocks) {
    send(command(rw10(kRead10, lba, blocks), blocks * 512U, true, false));
    std::vector<std::uint8_t> got;
    for (bool status = false; !status && !sent.empty();) {
      const Sent s = take();
      got.insert(got.end(), s.data.begin(), s.data.end());
      status = s.as<DataInPdu>().has_status;
    }
    return got;
  }
};

TEST_F(LandingTest, ImmediateDataAndSolicitedDataLandWhereTheWriteTakesThem) {
  login({{"InitialR2T", "Yes"}, {"ImmediateData", "Yes"}});
  const auto first = pattern(1024, 1), rest = pattern(3072, 77);
  ScsiCommandPdu w = command(rw10(kWrite10, 100, 8), 4096, false, true);
  w.data_segment_length = 1024;
  EXPECT_TRUE(send_landed(w, first));
  const auto r2t = take().as<R2tPdu>();
  ASSERT_EQ(r2t.buffer_offset, 1024U);
  EXPECT_TRUE(send_landed(data_out(w.itt, r2t.ttt, 0, 1024, 1536, false),
                          std::vector(rest.begin(), rest.begin() + 1536)));
  EXPECT_TRUE(send_landed(data_out(w.itt, r2t.ttt, 1, 2560, 1536, true),
                          std::vector(rest.begin() + 1536, rest.end())));
  EXPECT_EQ(take().as<ScsiResponsePdu>().status, 0);
  auto want = first;
  want.insert(want.end(), rest.begin(), rest.end());
  EXPECT_EQ(read_back(100, 8), want);
  EXPECT_FALSE(closed);
}

TEST_F(LandingTest, CommandsOneAfterAnotherEachWriteTheirOwnData) {
  // Buffers for immediate data circulate between tasks: none may carry an
  // earlier command's bytes into a later one.
  login({{"ImmediateData", "Yes"}});
  for (std::uint8_t i = 0; i < 6; ++i) {
    const std::uint16_t blocks = 1 + i % 3;
    ScsiCommandPdu w = command(rw10(kWrite10, 10U * i, blocks), blocks * 512U, false, true);
    w.data_segment_length = blocks * 512U;
    EXPECT_TRUE(send_landed(w, pattern(blocks * 512U, i)));
    EXPECT_EQ(take().as<ScsiResponsePdu>().status, 0);
    EXPECT_EQ(read_back(10U * i, blocks), pattern(blocks * 512U, i)) << "command " << int{i};
  }
}

TEST_F(LandingTest, OutOfOrderDataIsNotLentButRejected) {
  login({{"InitialR2T", "Yes"}, {"ImmediateData", "No"}});
  ScsiCommandPdu w = command(rw10(kWrite10, 0, 2), 1024, false, true);
  send(w);
  const auto r2t = take().as<R2tPdu>();
  // Offset 512 while nothing came yet (RFC 7143 §13.19, DataPDUInOrder).
  EXPECT_FALSE(send_landed(data_out(w.itt, r2t.ttt, 0, 512, 512, false), pattern(512, 0)));
  EXPECT_EQ(take().as<RejectPdu>().reason, RejectReason::kProtocolError);
  EXPECT_TRUE(closed);
  EXPECT_EQ(port.submitted, 0);
}

TEST_F(LandingTest, DataForAnUnknownTaskIsNotLentAndIsIgnored) {
  login({{"InitialR2T", "Yes"}, {"ImmediateData", "No"}});
  EXPECT_FALSE(send_landed(data_out(0x77, 5, 0, 0, 512, true), pattern(512, 0)));
  EXPECT_TRUE(sent.empty());
  EXPECT_FALSE(closed);
}

TEST_F(LandingTest, DataPastTheCdbsLengthIsCountedNotKept) {
  // EDTL 1024 for a one-block WRITE: the second 512 bytes are received and
  // dropped (an underflow residual reports them, §11.4.5.2), so they are
  // not lent.
  login({{"InitialR2T", "No"}, {"ImmediateData", "Yes"}});
  ScsiCommandPdu w = command(rw10(kWrite10, 3, 1), 1024, false, true);
  w.data_segment_length = 512;
  w.final = false;
  EXPECT_TRUE(send_landed(w, pattern(512, 9)));
  EXPECT_FALSE(send_landed(data_out(w.itt, kReservedTag, 0, 512, 512, true), pattern(512, 200)));
  const auto resp = take().as<ScsiResponsePdu>();
  EXPECT_EQ(resp.status, 0);
  EXPECT_TRUE(resp.underflow);
  EXPECT_EQ(resp.residual_count, 512U);
  EXPECT_EQ(read_back(3, 1), pattern(512, 9));
}

TEST_F(LandingTest, ASegmentThatFailedItsDigestLeavesTheTaskAsItWas) {
  login({{"InitialR2T", "Yes"}, {"ImmediateData", "No"}});
  ScsiCommandPdu w = command(rw10(kWrite10, 50, 2), 1024, false, true);
  send(w);
  const auto r2t = take().as<R2tPdu>();
  EXPECT_TRUE(send_landed(data_out(w.itt, r2t.ttt, 0, 0, 512, false), pattern(512, 1)));
  // The next segment's digest fails: it was written into the buffer, and
  // given back as not arrived. The same PDU sent again is taken.
  EXPECT_TRUE(send_landed(data_out(w.itt, r2t.ttt, 1, 512, 512, true), pattern(512, 99), false));
  EXPECT_TRUE(sent.empty());
  EXPECT_EQ(port.submitted, 0);
  EXPECT_TRUE(send_landed(data_out(w.itt, r2t.ttt, 1, 512, 512, true), pattern(512, 2)));
  EXPECT_EQ(take().as<ScsiResponsePdu>().status, 0);
  auto want = pattern(512, 1);
  const auto second = pattern(512, 2);
  want.insert(want.end(), second.begin(), second.end());
  EXPECT_EQ(read_back(50, 2), want);
}

TEST_F(LandingTest, NothingIsLentBeforeTheFullFeaturePhaseOrForReads) {
  ScsiCommandPdu w = command(rw10(kWrite10, 0, 1), 512, false, true);
  w.data_segment_length = 512;
  EXPECT_FALSE(send_landed(w, pattern(512, 0)));  // before login: the login ends
  EXPECT_TRUE(closed);
  restart();
  login({{"ImmediateData", "Yes"}});
  NopOutPdu ping;
  ping.itt = 3;
  ping.immediate = true;
  ping.cmd_sn = cmd_sn;
  ping.data_segment_length = 4;
  EXPECT_FALSE(send_landed(ping, {1, 2, 3, 4}));
  EXPECT_EQ(take().as<NopInPdu>().itt, 3U);
}

}  // namespace
}  // namespace memstore::iscsi::testing
