// SPDX-License-Identifier: Apache-2.0
// [[target.lun.fault]] tables (docs/faults.md): what a full rule parses to,
// and errors that name the key and say what it takes.
#include <gmock/gmock.h>
#include <gtest/gtest.h>

#include "target/daemon/config.h"

namespace memstore::daemon {
namespace {

using ::testing::HasSubstr;

Expected<Config> lun_with(const std::string& lun_keys, const std::string& fault) {
  return parse_config("[[target]]\n[[target.lun]]\nbacking = \"memory\"\n" + lun_keys +
                          "[[target.lun.fault]]\n" + fault,
                      "f.toml");
}

std::string error_of(const Expected<Config>& r) {
  return r.ok() ? "" : r.error().message;
}

TEST(ConfigFaults, AFullRuleParses) {
  const auto r =
      lun_with("fault_seed = 7\n",
               "op = \"read\"\nlba = [1000, 1007]\naction = \"medium-error\"\n"
               "every = 2\nprobability = 0.5\nonce = true\n"
               "initiator = \"iqn.2026-11.org.example:host\"\nafter_ms = 1.5\n"
               "[[target.lun.fault]]\nop = 0x35\naction = \"sense\"\nsense = [4, 0x44, 0]\n"
               "[[target.lun.fault]]\naction = \"failed-tip\"\ntip = 12\nspare = true\n"
               "[[target.lun.fault]]\naction = \"media-region\"\nx = [0, 9]\ny = [5, 6]\n"
               "[[target.lun.fault]]\naction = \"delay\"\ndelay_ms = 2.5\n"
               "[[target.lun.fault]]\naction = \"unit-attention\"\nua = \"mode-changed\"\n");
  ASSERT_TRUE(r.ok()) << error_of(r);
  const auto& lun = r.value().targets[0].luns[0];
  EXPECT_EQ(lun.config.fault_seed, 7U);
  ASSERT_EQ(lun.config.faults.size(), 6U);
  const scsi::FaultRule& m = lun.config.faults[0];
  EXPECT_EQ(m.op, scsi::FaultOp::kRead);
  EXPECT_EQ(m.lba, (std::pair<std::uint64_t, std::uint64_t>{1000, 1007}));
  EXPECT_EQ(m.every, 2U);
  EXPECT_DOUBLE_EQ(m.probability, 0.5);
  EXPECT_TRUE(m.once);
  EXPECT_EQ(m.initiator, "iqn.2026-11.org.example:host");
  EXPECT_EQ(m.after_ns, 1'500'000U);
  EXPECT_EQ(lun.config.faults[1].op, scsi::FaultOp::kOpcode);
  EXPECT_EQ(lun.config.faults[1].opcode, 0x35);
  EXPECT_EQ(lun.config.faults[1].sense.asc, 0x44);
  EXPECT_EQ(lun.config.faults[2].tip, 12);
  EXPECT_TRUE(lun.config.faults[2].spare);
  EXPECT_EQ(lun.config.faults[3].y, (std::pair<std::int32_t, std::int32_t>{5, 6}));
  EXPECT_EQ(lun.config.faults[4].delay_ns, 2'500'000U);
  EXPECT_EQ(lun.config.faults[5].attention, scsi::FaultAttention::kModeChanged);
}

TEST(ConfigFaults, ErrorsNameTheKeyAndTheFix) {
  EXPECT_THAT(error_of(lun_with("", "action = \"explode\"\n")),
              HasSubstr("lun[0].fault[0].action: must be one of medium-error, sense,"));
  EXPECT_THAT(error_of(lun_with("", "op = \"read\"\n")),
              HasSubstr("fault[0].action: is missing; use one of"));
  EXPECT_THAT(error_of(lun_with("", "action = \"sense\"\n")),
              HasSubstr("fault[0].sense: is missing; action \"sense\" needs it"));
  EXPECT_THAT(error_of(lun_with("", "action = \"sense\"\nsense = [16, 0, 0]\n")),
              HasSubstr("sense: must be [key, asc, ascq]"));
  EXPECT_THAT(error_of(lun_with("", "action = \"busy\"\ntip = 3\n")),
              HasSubstr("fault[0].tip: is not a key of action \"busy\""));
  EXPECT_THAT(
      error_of(lun_with("", "action = \"failed-tip\"\ntip = 100\n")),
      HasSubstr(
          "f.toml:6: target[0].lun[0].fault[0].tip: must be an integer from 0 to 99; it is 100"));
  EXPECT_THAT(error_of(lun_with("", "action = \"medium-error\"\nlba = [9, 3]\n")),
              HasSubstr("lba: must be [first, last], integers with 0 <= first <= last <="));
  EXPECT_THAT(error_of(lun_with("", "action = \"busy\"\nop = \"trim\"\n")),
              HasSubstr("op: must be \"read\", \"write\", \"any\" or an operation code"));
  EXPECT_THAT(error_of(lun_with("", "action = \"busy\"\nprobability = 1.5\n")),
              HasSubstr("probability: must be a number from 0 to 1"));
  EXPECT_THAT(error_of(lun_with("", "action = \"busy\"\nevery = 0\n")),
              HasSubstr("every: must be an integer from 1 to"));
  EXPECT_THAT(error_of(lun_with("timing = \"off\"\n", "action = \"delay\"\ndelay_ms = 1\n")),
              HasSubstr("timing = \"off\"; use timing = \"realtime\" or \"scaled\""));
  EXPECT_THAT(error_of(lun_with("", "action = \"media-region\"\nx = [0, 1]\n")),
              HasSubstr("fault[0].y: is missing"));
  EXPECT_THAT(error_of(lun_with("", "action = \"failed-tip\"\ntip = 1\nspare = 1\n")),
              HasSubstr("fault[0].spare: must be true or false"));
}

TEST(ConfigFaults, PowerCutTakesAPolicyASeedAndAnOffTime) {
  const auto r = lun_with("",
                          "op = \"write\"\nevery = 500\naction = \"power-cut\"\n"
                          "policy = \"torn\"\nseed = 7\noff_ms = 2.5\n"
                          "[[target.lun.fault]]\naction = \"power-cut\"\n");
  ASSERT_TRUE(r.ok()) << error_of(r);
  const scsi::FaultRule& f = r.value().targets[0].luns[0].config.faults[0];
  EXPECT_EQ(f.action, scsi::FaultAction::kPowerCut);
  EXPECT_EQ(f.cut_policy, scsi::CutPolicy::kTorn);
  EXPECT_EQ(f.cut_seed, 7U);
  EXPECT_EQ(f.off_ns, 2'500'000U);
  const scsi::FaultRule& d = r.value().targets[0].luns[0].config.faults[1];
  EXPECT_EQ(d.cut_policy, scsi::CutPolicy::kDropAll);
  EXPECT_EQ(d.cut_seed, 1U);
  EXPECT_EQ(d.off_ns, 0U);
  EXPECT_THAT(error_of(lun_with("", "action = \"power-cut\"\npolicy = \"some\"\n")),
              HasSubstr("fault[0].policy: must be \"drop-all\", \"keep-random\" or \"torn\""));
  EXPECT_THAT(error_of(lun_with("", "action = \"power-cut\"\noff_ms = -1\n")),
              HasSubstr("fault[0].off_ms: must be a number from 0 to 3600000"));
  EXPECT_THAT(error_of(lun_with("", "action = \"busy\"\noff_ms = 1\n")),
              HasSubstr("fault[0].off_ms: is not a key of action \"busy\""));
}

TEST(ConfigFaults, SlowSeekTakesARegionOfTheSledAndAFactor) {
  const auto r = lun_with("", "action = \"slow-seek\"\nx = [10, 20]\ny = [0, 5]\nfactor = 2.5\n");
  ASSERT_TRUE(r.ok()) << error_of(r);
  const scsi::FaultRule& f = r.value().targets[0].luns[0].config.faults[0];
  EXPECT_EQ(f.action, scsi::FaultAction::kSlowSeek);
  EXPECT_EQ(f.x, (std::pair<std::int32_t, std::int32_t>{10, 20}));
  EXPECT_EQ(f.y, (std::pair<std::int32_t, std::int32_t>{0, 5}));
  EXPECT_DOUBLE_EQ(f.factor, 2.5);
  // Sled coordinates: G2 has Sx = 2500 cylinders and Sy = 27 rows.
  EXPECT_THAT(error_of(lun_with("",
                                "action = \"slow-seek\"\nx = [0, 2500]\ny = [0, 1]\n"
                                "factor = 2\n")),
              HasSubstr("fault[0].x: must be [first, last], integers with 0 <= first <= last "
                        "<= 2499"));
  EXPECT_THAT(error_of(lun_with("",
                                "action = \"slow-seek\"\nx = [0, 1]\ny = [0, 27]\n"
                                "factor = 2\n")),
              HasSubstr("fault[0].y: must be [first, last]"));
  EXPECT_THAT(error_of(lun_with("",
                                "action = \"slow-seek\"\nx = [0, 1]\ny = [0, 1]\n"
                                "factor = 0.5\n")),
              HasSubstr("fault[0].factor: must be a number from 1 to 100"));
  EXPECT_THAT(error_of(lun_with("", "action = \"slow-seek\"\nx = [0, 1]\ny = [0, 1]\n")),
              HasSubstr("fault[0].factor: is missing"));
  // A condition of the device: what a command matches does not apply.
  EXPECT_THAT(error_of(lun_with("",
                                "action = \"slow-seek\"\nx = [0, 1]\ny = [0, 1]\n"
                                "factor = 2\nop = \"read\"\n")),
              HasSubstr("fault[0].op: is not a key of action \"slow-seek\", a condition of "
                        "the device rather than of commands; it takes action, x, y, factor, sled"));
  EXPECT_THAT(error_of(lun_with("device = \"atlas10k\"\n",
                                "action = \"slow-seek\"\nx = [0, 1]\ny = [0, 1]\nfactor = 2\n")),
              HasSubstr("needs a MEMStore's probe tips, media and sled; this LUN is a disk (use "
                        "\"delay\" with lba instead)"));
}

TEST(ConfigFaults, AtMostTwentyFourFailedTips) {
  std::string rules = "action = \"failed-tip\"\ntip = 0\n";
  // The same tip twice counts once; 24 distinct tips are the most page 20h lists.
  for (int tip = 0; tip < 24; ++tip) {
    rules += "[[target.lun.fault]]\naction = \"failed-tip\"\ntip = " + std::to_string(tip) + "\n";
  }
  EXPECT_TRUE(lun_with("", rules).ok()) << error_of(lun_with("", rules));
  rules += "[[target.lun.fault]]\naction = \"failed-tip\"\ntip = 24\n";
  EXPECT_THAT(error_of(lun_with("", rules)),
              HasSubstr("fault[25].tip: at most 24 failed tips per LUN (page 20h lists them)"));
}

}  // namespace
}  // namespace memstore::daemon
