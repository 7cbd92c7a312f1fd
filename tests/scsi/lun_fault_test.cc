// SPDX-License-Identifier: Apache-2.0
// Fault actions through a LUN: the status, sense and INFORMATION each one
// gives, that a failed command changes no data, and when its result is due.
#include <gtest/gtest.h>

#include "tests/scsi/cdb_builders.h"
#include "tests/scsi/lun_fixture.h"

namespace memstore::scsi::testing {
namespace {

class LunFaultTest : public LunTest {
 protected:
  void with_rules(std::vector<FaultRule> rules) {
    LunConfig c;
    c.faults = std::move(rules);
    lun = make_lun(std::move(c));
  }
  // The INFORMATION field of a fixed-format sense, when VALID is set.
  static std::optional<std::uint32_t> information(const ScsiResult& r) {
    if (r.sense.size() < 7 || (r.sense[0] & 0x80) == 0) return std::nullopt;
    return (std::uint32_t{r.sense[3]} << 24) | (r.sense[4] << 16) | (r.sense[5] << 8) | r.sense[6];
  }
};

FaultRule rule(FaultAction a, FaultOp op = FaultOp::kAny) {
  FaultRule r;
  r.action = a;
  r.op = op;
  return r;
}

TEST_F(LunFaultTest, MediumErrorOnReadNamesTheFirstBadLbaAfterTheAccess) {
  FaultRule r = rule(FaultAction::kMediumError, FaultOp::kRead);
  r.lba = {{1000, 1007}};
  with_rules({r});
  const ScsiResult bad = run(rw10(0x28, 996, 8));
  EXPECT_EQ(bad.status, Status::kCheckCondition);
  EXPECT_EQ(kcq(bad), (std::vector<int>{0x3, 0x11, 0x00}));
  EXPECT_EQ(information(bad), 1000U);
  EXPECT_TRUE(bad.data_in.empty());
  EXPECT_GT(bad.complete_ns, now);  // the model read up to the bad block first
  EXPECT_EQ(run(rw10(0x28, 990, 8)).status, Status::kGood);  // ends before the range
}

TEST_F(LunFaultTest, MediumErrorOnWriteWritesNothing) {
  FaultRule r = rule(FaultAction::kMediumError, FaultOp::kWrite);
  r.lba = {{20, 20}};
  with_rules({r});
  const ScsiResult bad = run(rw10(0x2A, 16, 8), std::vector<std::uint8_t>(8 * 512, 0xAB));
  EXPECT_EQ(kcq(bad), (std::vector<int>{0x3, 0x0C, 0x00}));
  EXPECT_EQ(information(bad), 20U);
  const ScsiResult back = run(rw10(0x28, 16, 8));
  ASSERT_EQ(back.status, Status::kGood);
  EXPECT_EQ(back.data_in, std::vector<std::uint8_t>(8 * 512, 0));
}

TEST_F(LunFaultTest, SenseActionGivesTheRulesKeyAscAscq) {
  FaultRule r = rule(FaultAction::kSense);
  r.sense = {SenseKey::kHardwareError, 0x44, 0x00};
  with_rules({r});
  const ScsiResult res = run(rw10(0x28, 0, 1));
  EXPECT_EQ(res.status, Status::kCheckCondition);
  EXPECT_EQ(kcq(res), (std::vector<int>{0x4, 0x44, 0x00}));
}

TEST_F(LunFaultTest, StatusActions) {
  const std::pair<FaultAction, Status> cases[] = {
      {FaultAction::kBusy, Status::kBusy},
      {FaultAction::kTaskSetFull, Status::kTaskSetFull},
      {FaultAction::kReservationConflict, Status::kReservationConflict},
  };
  for (const auto& [action, status] : cases) {
    with_rules({rule(action, FaultOp::kWrite)});
    const ScsiResult res = run(rw10(0x2A, 0, 1), std::vector<std::uint8_t>(512, 1));
    EXPECT_EQ(res.status, status) << fault_action_name(action);
    EXPECT_TRUE(res.sense.empty());
    EXPECT_EQ(run(rw10(0x28, 0, 1)).data_in, std::vector<std::uint8_t>(512, 0));
  }
}

TEST_F(LunFaultTest, SpaceExhaustedIsDataProtect) {
  with_rules({rule(FaultAction::kSpaceExhausted, FaultOp::kWrite)});
  const ScsiResult res = run(rw10(0x2A, 7, 1), std::vector<std::uint8_t>(512, 1));
  EXPECT_EQ(kcq(res), (std::vector<int>{0x7, 0x27, 0x07}));
  EXPECT_EQ(information(res), 7U);
}

TEST_F(LunFaultTest, UnitAttentionIsPendingForTheOtherInitiators) {
  with_rules({});
  EXPECT_EQ(run({0x00}, {}, 2).status, Status::kGood);  // nexus 2 is known
  FaultRule r = rule(FaultAction::kUnitAttention, FaultOp::kOpcode);
  r.opcode = 0x00;
  r.once = true;
  r.attention = FaultAttention::kCapacityChanged;
  lun->add_fault(r);
  EXPECT_EQ(kcq(run({0x00}, {}, 1)), (std::vector<int>{0x6, 0x2A, 0x09}));
  EXPECT_EQ(kcq(run({0x00}, {}, 2)), (std::vector<int>{0x6, 0x2A, 0x09}));
  EXPECT_EQ(run({0x00}, {}, 2).status, Status::kGood);
  EXPECT_EQ(run({0x00}, {}, 1).status, Status::kGood);
}

TEST_F(LunFaultTest, DelayAddsToTheModeledCompletion) {
  FaultRule r = rule(FaultAction::kDelay, FaultOp::kRead);
  r.delay_ns = 7'000'000;
  const ScsiResult plain = run(rw10(0x28, 5000, 8));
  with_rules({r});
  tag = 0;
  now = 0;
  const ScsiResult delayed = run(rw10(0x28, 5000, 8));
  EXPECT_EQ(delayed.status, Status::kGood);
  EXPECT_EQ(delayed.complete_ns - plain.complete_ns, 7'000'000);
}

TEST_F(LunFaultTest, TimeoutWithholdsTheResult) {
  with_rules({rule(FaultAction::kTimeout, FaultOp::kRead)});
  EXPECT_TRUE(run(rw10(0x28, 0, 1)).withheld);
  EXPECT_FALSE(run(rw10(0x2A, 0, 1), std::vector<std::uint8_t>(512, 1)).withheld);
}

TEST_F(LunFaultTest, FailedTipFailsTheBlocksOfItsSquareOnly) {
  FaultRule r = rule(FaultAction::kFailedTip);
  r.tip = 3;
  with_rules({r});
  // The first row of p blocks spans squares 0..p-1 (model/geometry.h).
  const ScsiResult bad = run(read16(0, 8));
  EXPECT_EQ(kcq(bad), (std::vector<int>{0x3, 0x11, 0x00}));
  EXPECT_EQ(information(bad), 3U);
  EXPECT_EQ(run(read16(4, 4)).status, Status::kGood);
  EXPECT_EQ(run({0x12, 0, 0, 0, 36, 0}).status, Status::kGood);  // INQUIRY has no blocks
}

}  // namespace
}  // namespace memstore::scsi::testing
