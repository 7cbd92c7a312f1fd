// SPDX-License-Identifier: Apache-2.0
// A withhold-r2t fault rule (docs/faults.md): the session asks the LUN
// before a write's first R2T, and when the rule fires sends none, so the
// initiator's only way out is to abort the task; writes that need no R2T,
// and LUNs without such a rule, are never asked about.
#include <gtest/gtest.h>

#include <numeric>

#include "tests/iscsi/session_harness.h"

namespace memstore::iscsi::testing {
namespace {

constexpr std::uint8_t kWrite10 = 0x2A;

scsi::FaultRule withhold_r2t(std::uint64_t first, std::uint64_t last) {
  scsi::FaultRule r;
  r.op = scsi::FaultOp::kWrite;
  r.lba = std::pair{first, last};
  r.action = scsi::FaultAction::kWithholdR2t;
  return r;
}

// The whole of an R2T's data, in one Data-Out.
DataOutPdu data_out(std::uint32_t itt, std::uint32_t ttt, std::uint32_t length) {
  return testing::data_out(itt, ttt, 0, 0, length, true);
}

class R2tFaultTest : public SessionTest {
 protected:
  void SetUp() override {
    login({{"InitialR2T", "Yes"},
           {"ImmediateData", "No"},
           {"MaxBurstLength", "1024"},
           {"FirstBurstLength", "1024"}});
  }
  // A WRITE(10) of `blocks` at `lba`, all of its data to be solicited.
  ScsiCommandPdu write(std::uint32_t lba, std::uint16_t blocks) {
    return command(rw10(kWrite10, lba, blocks), blocks * 512U, false, true);
  }
};

TEST_F(R2tFaultTest, AFiredRuleSendsNoR2tAndAbortTaskEndsTheTask) {
  const std::uint32_t id = port.lun().add_fault(withhold_r2t(100, 199));
  const ScsiCommandPdu w = write(150, 4);
  send(w);
  EXPECT_TRUE(sent.empty()) << "an R2T went out";
  EXPECT_EQ(port.submitted, 0);
  EXPECT_EQ(port.lun().faults().rules()[0].fired, 1U);
  ASSERT_FALSE(events.empty());
  EXPECT_NE(events.back().find("R2T withheld for task"), std::string::npos) << events.back();

  send(abort_task(w.itt));
  EXPECT_EQ(take().as<TaskMgmtResponsePdu>().response, TmfResponse::kComplete);
  EXPECT_EQ(port.submitted, 0);  // the write never reached the LUN

  // Outside the rule's range the next write is solicited and lands.
  const ScsiCommandPdu ok = write(300, 2);
  send(ok);
  const auto r2t = take().as<R2tPdu>();
  EXPECT_EQ(r2t.itt, ok.itt);
  std::vector<std::uint8_t> data(1024);
  std::iota(data.begin(), data.end(), std::uint8_t{3});
  send(data_out(ok.itt, r2t.ttt, 1024), data);
  EXPECT_EQ(take().as<ScsiResponsePdu>().status, 0);
  EXPECT_EQ(port.lun().faults().rules()[0].matched, 1U);  // only the write in range

  // Removed, the rule withholds nothing.
  ASSERT_TRUE(port.lun().remove_fault(id));
  send(write(150, 1));
  EXPECT_EQ(take().as<R2tPdu>().buffer_offset, 0U);
}

TEST_F(R2tFaultTest, WithoutSuchARuleTheLunIsNeverAsked) {
  port.lun().add_fault([] {
    scsi::FaultRule r;
    r.op = scsi::FaultOp::kWrite;
    r.action = scsi::FaultAction::kBusy;
    return r;
  }());
  send(write(10, 1));
  (void)take().as<R2tPdu>();
  EXPECT_EQ(port.screened, 0);
}

TEST_F(R2tFaultTest, TheLunIsAskedOncePerWrite) {
  // MaxBurstLength 1024: 4 blocks are solicited by two R2Ts, one at a time.
  port.lun().add_fault(withhold_r2t(5000, 5000));
  const ScsiCommandPdu w = write(0, 4);
  send(w);
  const auto first = take().as<R2tPdu>();
  send(data_out(w.itt, first.ttt, 1024), std::vector<std::uint8_t>(1024, 1));
  const auto second = take().as<R2tPdu>();
  EXPECT_EQ(second.buffer_offset, 1024U);
  auto d = data_out(w.itt, second.ttt, 1024);
  d.buffer_offset = 1024;
  send(d, std::vector<std::uint8_t>(1024, 2));
  EXPECT_EQ(take().as<ScsiResponsePdu>().status, 0);
  EXPECT_EQ(port.screened, 1);
  EXPECT_EQ(port.lun().faults().rules()[0].matched, 0U);  // LBA 0-3: not in range
}

}  // namespace
}  // namespace memstore::iscsi::testing
