// SPDX-License-Identifier: Apache-2.0
// Commands that change or report the LUN's state: REQUEST SENSE, the vendor
// control page (scheduler, timing) through MODE SELECT, identity, power log.
#include <gmock/gmock.h>

#include <functional>

#include "modepages/log_pages.h"
#include "modepages/mode_vendor.h"
#include "tests/scsi/lun_fixture.h"

namespace memstore::scsi {
namespace {

using ::testing::ElementsAre;
using testing::LunTest;

TEST_F(LunTest, RequestSenseReportsNoSenseInEitherFormat) {
  const ScsiResult fixed = run({0x03, 0, 0, 0, 18});
  ASSERT_EQ(fixed.status, Status::kGood);
  ASSERT_EQ(fixed.data_in.size(), 18u);
  EXPECT_EQ(fixed.data_in[0], 0x70);
  EXPECT_EQ(fixed.data_in[2], 0x00);
  const ScsiResult desc = run({0x03, 0x01, 0, 0, 18});
  ASSERT_EQ(desc.data_in.size(), 8u);
  EXPECT_EQ(desc.data_in[0], 0x72);
}

TEST_F(LunTest, NonMediaCommandsSucceed) {
  EXPECT_EQ(run({0x00}).status, Status::kGood);                          // TEST UNIT READY
  EXPECT_EQ(run({0x35, 0, 0, 0, 0, 0, 0, 0, 0}).status, Status::kGood);  // SYNCHRONIZE CACHE(10)
  EXPECT_EQ(run({0x1B, 0, 0, 0, 0x01}).status, Status::kGood);           // START STOP UNIT
  EXPECT_EQ(run({0x1E, 0, 0, 0, 0x00}).status, Status::kGood);           // PREVENT ALLOW
}

TEST_F(LunTest, InquiryNamesTheDeviceAndIdentityIsStable) {
  const ScsiResult std_inq = run({0x12, 0, 0, 0, 96});
  EXPECT_EQ(std::string(std_inq.data_in.begin() + 16, std_inq.data_in.begin() + 32),
            "MEMStore G2     ");
  const ScsiResult serial = run({0x12, 1, 0x80, 0, 0xFF});
  ASSERT_EQ(serial.status, Status::kGood);
  EXPECT_GT(serial.data_in[3], 0);
  // A second LUN for the same device reports the same serial and NAA id.
  auto again = testing::make_lun();
  ScsiCommand c;
  std::vector<std::uint8_t> cdb = {0x12, 1, 0x80, 0, 0xFF, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0};
  c.cdb = cdb;
  EXPECT_EQ(again->execute(c).data_in, serial.data_in);
  cdb[2] = 0x83;
  EXPECT_EQ(again->execute(c).data_in, run({0x12, 1, 0x83, 0, 0xFF}).data_in);
}

constexpr char kAdmin[] = "iqn.2026-11.org.example:admin";

LunConfig admin_may_control() {
  LunConfig c;
  c.control_access.initiators = {kAdmin};
  return c;
}

class LunControl : public LunTest {
 protected:
  // Nexus 1 is the admin's (named in control_access), nexus 2 another
  // initiator's; nexus 3 is never named.
  LunControl() {
    lun = testing::make_lun(admin_may_control());
    lun->describe_nexus(1, std::string(kAdmin) + ",i,0x023d00000001");
    lun->describe_nexus(2, "iqn.2026-11.org.example:guest,i,0x023d00000001");
  }

  // Reads page 22h as the LUN reports it, applies `edit`, and sends it back
  // with MODE SELECT(6) from `nexus`.
  ScsiResult select_control(const std::function<void(std::vector<std::uint8_t>&)>& edit,
                            std::uint64_t nexus = 1) {
    std::vector<std::uint8_t> list = run({0x1A, 0x08, 0x22, 0, 0xFF}, {}, nexus).data_in;
    list[0] = 0;      // MODE DATA LENGTH: reserved in MODE SELECT
    list[2] = 0;      // device-specific parameter: reserved in MODE SELECT
    list[4] &= 0x7F;  // PS: reserved in MODE SELECT
    std::vector<std::uint8_t> page(list.begin() + 4, list.end());
    edit(page);
    std::copy(page.begin(), page.end(), list.begin() + 4);
    return run({0x15, 0x10, 0, 0, static_cast<std::uint8_t>(list.size())}, list, nexus);
  }
  static void scaled_x4(std::vector<std::uint8_t>& page) {
    page[5] = 1;               // timing: scaled
    page[8] = 0, page[9] = 0;  // scale x 1000 = 4000
    page[10] = 0x0F, page[11] = 0xA0;
  }
};

TEST_F(LunControl, ControlPageChangesSchedulerAndTiming) {
  EXPECT_EQ(lun->timing().mode, TimingMode::kRealtime);
  modepages::ControlPage wanted;
  wanted.scheduler = *modepages::scheduler_index("sptf");
  wanted.timing = TimingMode::kScaled;
  wanted.scale_milli = 2500;
  const ScsiResult r = select_control([&](std::vector<std::uint8_t>& page) {
    const auto bytes = modepages::encode(wanted);
    std::copy(bytes.begin(), bytes.end(), page.begin());
    page[0] &= 0x7F;
  });
  ASSERT_EQ(r.status, Status::kGood) << ::testing::PrintToString(r.sense);
  EXPECT_EQ(lun->config().scheduler, "sptf");
  EXPECT_EQ(lun->timing().mode, TimingMode::kScaled);
  EXPECT_DOUBLE_EQ(lun->timing().scale, 2.5);
  EXPECT_EQ(lun->timing().delay_ns(1000), 2500);
  // Media commands still work under the new scheduler.
  EXPECT_EQ(run({0x28, 0, 0, 0, 0x10, 0, 0, 0, 8}).status, Status::kGood);
}

TEST_F(LunControl, ControlPageRefusesAnUnknownScheduler) {
  const ScsiResult r = select_control([](std::vector<std::uint8_t>& page) { page[4] = 0xEE; });
  ASSERT_EQ(r.status, Status::kCheckCondition);
  EXPECT_THAT(kcq(r), ElementsAre(5, 0x26, 0));
  EXPECT_EQ(lun->config().scheduler, "fcfs");
}

// MODE SELECT(6) header: 4 bytes, so the page code is parameter list byte 4.
TEST_F(LunControl, ControlPageRefusedToAnInitiatorNotNamed) {
  std::vector<std::string> lines;
  lun->set_log([&](LogLevel, std::string_view l) { lines.emplace_back(l); }, "LUN 0");
  for (const std::uint64_t nexus : {2, 3}) {
    const ScsiResult r = select_control(scaled_x4, nexus);
    ASSERT_EQ(r.status, Status::kCheckCondition);
    // ILLEGAL REQUEST, ACCESS DENIED - NO ACCESS RIGHTS; field pointer:
    // parameter list (C/D = 0), byte 4 (the page code), bit 5.
    EXPECT_THAT(kcq(r), ElementsAre(5, 0x20, 0x02));
    EXPECT_THAT(field(r), ElementsAre(0, 5, 4));
    EXPECT_EQ(lun->timing().mode, TimingMode::kRealtime);
  }
  ASSERT_EQ(lines.size(), 2u);
  EXPECT_THAT(lines[0], ::testing::HasSubstr("iqn.2026-11.org.example:guest,i,0x023d00000001"));
  EXPECT_THAT(lines[1], ::testing::HasSubstr("unnamed nexus 3"));
  // The page sent back unchanged is no change: accepted from anyone.
  EXPECT_EQ(select_control([](std::vector<std::uint8_t>&) {}, 2).status, Status::kGood);
  // In descriptor format too (D_SENSE in the Control mode page 0Ah).
  std::vector<std::uint8_t> list = run({0x1A, 0x08, 0x0A, 0, 0xFF}, {}, 2).data_in;
  list[0] = 0, list[2] = 0, list[4] &= 0x7F;
  list[4 + 2] |= 0x04;  // D_SENSE
  ASSERT_EQ(run({0x15, 0x10, 0, 0, static_cast<std::uint8_t>(list.size())}, list, 2).status,
            Status::kGood);
  const ScsiResult r = select_control(scaled_x4, 2);
  ASSERT_GE(r.sense.size(), 16u);
  EXPECT_EQ(r.sense[0], 0x72);
  EXPECT_EQ(r.sense[1], 0x05);
  EXPECT_EQ(r.sense[2], 0x20);
  EXPECT_EQ(r.sense[3], 0x02);
  EXPECT_EQ(r.sense[8], 0x02);   // the sense-key specific descriptor
  EXPECT_EQ(r.sense[12], 0x8D);  // SKSV, C/D = 0, BPV, bit 5
  EXPECT_EQ(r.sense[14], 4);     // byte 4
}

// Power Condition 1Ah: its standby timer decides when the sled spins down,
// and with it which commands pay the startup time, for every initiator.
TEST_F(LunControl, PowerConditionPageIsAControlPageToo) {
  std::vector<std::string> lines;
  lun->set_log([&](LogLevel, std::string_view l) { lines.emplace_back(l); }, "LUN 0");
  const auto select_power = [&](std::uint64_t nexus) {
    std::vector<std::uint8_t> list = run({0x1A, 0x08, 0x1A, 0, 0xFF}, {}, nexus).data_in;
    list[0] = 0, list[2] = 0, list[4] &= 0x7F;
    list[4 + 3] |= 0x01;                                                   // STANDBY_Z
    list[4 + 8] = 0, list[4 + 9] = 0, list[4 + 10] = 0, list[4 + 11] = 5;  // 500 ms
    return run({0x15, 0x10, 0, 0, static_cast<std::uint8_t>(list.size())}, list, nexus);
  };
  const ScsiResult r = select_power(2);
  ASSERT_EQ(r.status, Status::kCheckCondition);
  EXPECT_THAT(kcq(r), ElementsAre(5, 0x20, 0x02));
  EXPECT_THAT(field(r), ElementsAre(0, 5, 4));
  EXPECT_EQ(lun->config().device.power.idle_timeout_ns, 100'000'000);
  EXPECT_EQ(select_power(1).status, Status::kGood);
  EXPECT_EQ(lun->config().device.power.idle_timeout_ns, 500'000'000);
  ASSERT_EQ(lines.size(), 2u);
  EXPECT_THAT(lines[0], ::testing::HasSubstr("LUN 0: MODE SELECT of control page 1Ah refused to "
                                             "iqn.2026-11.org.example:guest,i,0x023d00000001"));
  EXPECT_EQ(lines[1],
            "LUN 0: control page 1Ah set by iqn.2026-11.org.example:admin,i,0x023d00000001: idle "
            "timeout 500 ms");
}

TEST_F(LunControl, ControlInitiatorNamesCompareWithoutCase) {
  std::vector<std::string> lines;
  lun->set_log([&](LogLevel, std::string_view l) { lines.emplace_back(l); }, "LUN 0");
  lun->describe_nexus(4, "IQN.2026-11.ORG.EXAMPLE:ADMIN,i,0x023d00000002");
  EXPECT_EQ(select_control(scaled_x4, 4).status, Status::kGood);
  EXPECT_EQ(lun->timing().mode, TimingMode::kScaled);
  EXPECT_DOUBLE_EQ(lun->timing().scale, 4.0);
  // The change is logged with who made it.
  EXPECT_THAT(lines, ElementsAre("LUN 0: control page 22h set by "
                                 "IQN.2026-11.ORG.EXAMPLE:ADMIN,i,0x023d00000002: scheduler "
                                 "fcfs, timing scaled, scale 4"));
}

// Byte 6: the power paper's request merging and subsector accesses (§5.2.2,
// §5.2.3), changeable like the rest of the page; its other bits are reserved.
TEST_F(LunControl, ControlPageTurnsThePowerStrategiesOnAndOff) {
  std::vector<std::string> lines;
  lun->set_log([&](LogLevel, std::string_view l) { lines.emplace_back(l); }, "LUN 0");
  EXPECT_FALSE(lun->merging_requests());
  ASSERT_EQ(select_control([](std::vector<std::uint8_t>& page) { page[6] = 0x03; }).status,
            Status::kGood);
  EXPECT_TRUE(lun->config().device.power.merge_requests);
  EXPECT_TRUE(lun->config().device.power.subsector);
  EXPECT_TRUE(lun->merging_requests());
  EXPECT_TRUE(lun->control().merge_requests);
  EXPECT_TRUE(lun->control().subsector);
  EXPECT_THAT(lines,
              ElementsAre(::testing::EndsWith("scale 1, request merging, subsector accesses")));
  ASSERT_EQ(select_control([](std::vector<std::uint8_t>& page) { page[6] = 0x02; }).status,
            Status::kGood);
  EXPECT_FALSE(lun->merging_requests());
  EXPECT_TRUE(lun->config().device.power.subsector);
  // Media commands still work with subsector accesses on.
  EXPECT_EQ(run({0x28, 0, 0, 0, 0x10, 0, 0, 0, 8}).status, Status::kGood);
  const ScsiResult r = select_control([](std::vector<std::uint8_t>& page) { page[6] = 0x04; });
  ASSERT_EQ(r.status, Status::kCheckCondition);
  EXPECT_THAT(kcq(r), ElementsAre(5, 0x26, 0));
  EXPECT_THAT(field(r), ElementsAre(0, 2, 4 + 6));  // outside the changeable mask
  EXPECT_TRUE(lun->config().device.power.subsector);
}

TEST_F(LunControl, ScaleOutsideItsBoundsIsAnInvalidField) {
  for (const std::uint32_t milli : {0u, 1'000'001u, 0xFFFF'FFFFu}) {
    const ScsiResult r = select_control([&](std::vector<std::uint8_t>& page) {
      page[5] = 1;
      for (int i = 0; i < 4; ++i) page[8 + i] = static_cast<std::uint8_t>(milli >> (24 - 8 * i));
    });
    ASSERT_EQ(r.status, Status::kCheckCondition) << milli;
    EXPECT_THAT(kcq(r), ElementsAre(5, 0x26, 0));
    EXPECT_THAT(field(r), ElementsAre(0, -1, 4 + 8));  // the scale field, page byte 8
  }
  EXPECT_EQ(select_control([](std::vector<std::uint8_t>& page) {
              page[5] = 1;
              page[8] = 0, page[9] = 0x0F, page[10] = 0x42, page[11] = 0x40;  // 1000000: 1000x
            }).status,
            Status::kGood);
  EXPECT_DOUBLE_EQ(lun->timing().scale, 1000.0);
}

TEST(LunControlAccess, UnnamedNexusAllowedOnlyWhenConfigured) {
  LunConfig config;
  config.control_access.unnamed = true;  // the TCMU handler's control=allow
  auto lun = testing::make_lun(config);
  std::vector<std::uint8_t> list = {0, 0, 0, 0};
  const auto page = modepages::encode(modepages::ControlPage{.timing = TimingMode::kOff});
  list.insert(list.end(), page.begin(), page.end());
  std::vector<std::uint8_t> cdb = {0x15, 0x10, 0, 0, static_cast<std::uint8_t>(list.size())};
  cdb.resize(16, 0);
  ScsiCommand c;
  c.nexus = 7;
  c.cdb = cdb;
  c.data_out = list;
  EXPECT_EQ(lun->execute(c).status, Status::kGood);
  EXPECT_EQ(lun->timing().mode, TimingMode::kOff);
  // A named nexus is judged by its name, not by `unnamed`.
  lun->describe_nexus(8, "iqn.2026-11.org.example:guest,i,0x1");
  c.nexus = 8;
  const auto realtime = modepages::encode(modepages::ControlPage{});
  std::copy(realtime.begin(), realtime.end(), list.begin() + 4);
  const ScsiResult denied = lun->execute(c);
  ASSERT_EQ(denied.status, Status::kCheckCondition);
  EXPECT_EQ(denied.sense.at(12), 0x20);
  EXPECT_EQ(lun->timing().mode, TimingMode::kOff);
}

TEST_F(LunTest, PowerLogAccountsTheStartup) {
  run({0x28, 0, 0, 0, 0x10, 0, 0, 0, 8});
  const ScsiResult r = run({0x4D, 0, 0x30, 0, 0, 0, 0, 0x10, 0});
  ASSERT_EQ(r.status, Status::kGood);
  const auto power = modepages::decode_power_log(r.data_in);
  ASSERT_TRUE(power);
  EXPECT_EQ(power->startups, 1u);  // a new device is spun down; the first read starts it
}

}  // namespace
}  // namespace memstore::scsi
