// SPDX-License-Identifier: Apache-2.0
// Which loop a connection's login sends it to (target/iscsi/placement.h).
#include "target/iscsi/placement.h"

#include <gtest/gtest.h>

#include <string>
#include <vector>

#include "target/iscsi/pdu.h"
#include "target/iscsi/text_keys.h"

namespace memstore::iscsi {
namespace {

// A LUN that only says which loop it lives on.
class LoopPort final : public driver::CommandPort {
 public:
  explicit LoopPort(const void* loop) : loop_(loop) {}
  void submit(scsi::ScsiCommand, Done) override {}
  void forget(std::uint64_t) override {}
  std::uint32_t block_size() const override { return 512; }
  const void* loop() const override { return loop_; }

 private:
  const void* loop_;
};

constexpr char kTarget[] = "iqn.2026-11.org.memstore.test:placed";

struct Login {
  Bhs bhs{};
  std::vector<std::uint8_t> rest;
};

Login login(const std::vector<TextPair>& keys, std::uint8_t ahs_words = 0) {
  LoginRequestPdu req;
  req.transit = true;
  req.csg = LoginStage::kOperationalNegotiation;
  req.nsg = LoginStage::kFullFeaturePhase;
  req.isid = {0x80, 0, 0, 1, 0, 0};
  const auto text = serialize_text(keys);
  req.data_segment_length = static_cast<std::uint32_t>(text.size());
  Login l;
  l.bhs = encode(InitiatorPdu{req});
  l.bhs[4] = ahs_words;
  l.rest.assign(std::size_t{ahs_words} * 4, 0);
  l.rest.insert(l.rest.end(), text.begin(), text.end());
  return l;
}

class PlacementTest : public ::testing::Test {
 protected:
  const void* place(const Login& l) {
    return target_loop(l.bhs, l.rest, [this](std::string_view name) -> const TargetContext* {
      return name == target_.name ? &target_ : nullptr;
    });
  }
  void add_lun(std::uint16_t id, const void* loop) {
    ports_.push_back(std::make_unique<LoopPort>(loop));
    target_.luns[id] = ports_.back().get();
  }
  const std::vector<TextPair> normal_{{"InitiatorName", "iqn.2026-11.org.memstore.test:i"},
                                      {"TargetName", kTarget}};
  int loop_a_ = 0, loop_b_ = 0;  // two loops, by address
  TargetContext target_{kTarget, {}, {}};
  std::vector<std::unique_ptr<LoopPort>> ports_;
};

TEST_F(PlacementTest, ALoginGoesToTheLoopOfAllItsTargetsLuns) {
  add_lun(0, &loop_b_);
  add_lun(1, &loop_b_);
  EXPECT_EQ(place(login(normal_)), &loop_b_);
  // After an AHS too (RFC 7143 §11.2.1.3: the data segment follows it).
  EXPECT_EQ(place(login(normal_, 2)), &loop_b_);
}

TEST_F(PlacementTest, LunsOnTwoLoopsLeaveTheConnectionWhereItIs) {
  add_lun(0, &loop_a_);
  add_lun(1, &loop_b_);
  EXPECT_EQ(place(login(normal_)), nullptr);
}

TEST_F(PlacementTest, AGoneLunDoesNotCount) {
  add_lun(0, nullptr);  // retired: its link answers for it wherever the session is
  add_lun(1, &loop_a_);
  EXPECT_EQ(place(login(normal_)), &loop_a_);
}

TEST_F(PlacementTest, NoPlaceForWhatIsNotANormalLoginToAKnownTarget) {
  add_lun(0, &loop_b_);
  // A discovery session, an unknown target, no target, a target without LUNs.
  EXPECT_EQ(place(login({{"InitiatorName", "i"}, {"SessionType", "Discovery"}})), nullptr);
  EXPECT_EQ(place(login({{"InitiatorName", "i"}, {"TargetName", "iqn.2026-11.x:none"}})), nullptr);
  EXPECT_EQ(place(login({{"InitiatorName", "i"}})), nullptr);
  target_.luns.clear();
  EXPECT_EQ(place(login(normal_)), nullptr);
}

TEST_F(PlacementTest, NoPlaceForOtherPdusOrBrokenSegments) {
  add_lun(0, &loop_b_);
  Login l = login(normal_);
  // Another opcode: a Text Request (0x04) with the same keys.
  Login text = l;
  text.bhs[0] = (text.bhs[0] & 0xC0) | 0x04;
  EXPECT_EQ(place(text), nullptr);
  // The segment shorter than its declared length.
  Login cut = l;
  cut.rest.resize(cut.rest.size() - 5);
  EXPECT_EQ(place(cut), nullptr);
  // A key without its '='.
  Login broken = l;
  broken.rest = {'T', 'a', 'r', 'g', 'e', 't', 'N', 'a', 'm', 'e', 0};
  broken.bhs[5] = 0;
  broken.bhs[6] = 0;
  broken.bhs[7] = static_cast<std::uint8_t>(broken.rest.size());
  EXPECT_EQ(place(broken), nullptr);
}

}  // namespace
}  // namespace memstore::iscsi
