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

class LunControl : public LunTest {
 protected:
  // Reads page 22h as the LUN reports it, applies `edit`, and sends it back
  // with MODE SELECT(6).
  ScsiResult select_control(const std::function<void(std::vector<std::uint8_t>&)>& edit) {
    std::vector<std::uint8_t> list = run({0x1A, 0x08, 0x22, 0, 0xFF}).data_in;
    list[0] = 0;      // MODE DATA LENGTH: reserved in MODE SELECT
    list[2] = 0;      // device-specific parameter: reserved in MODE SELECT
    list[4] &= 0x7F;  // PS: reserved in MODE SELECT
    std::vector<std::uint8_t> page(list.begin() + 4, list.end());
    edit(page);
    std::copy(page.begin(), page.end(), list.begin() + 4);
    return run({0x15, 0x10, 0, 0, static_cast<std::uint8_t>(list.size())}, list);
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
