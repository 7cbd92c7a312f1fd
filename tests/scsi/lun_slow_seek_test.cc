// SPDX-License-Identifier: Apache-2.0
// A slow-seek rule through the LUN (docs/faults.md, "slow-seek"): commands
// whose blocks lie in the region complete later by the slower positioning,
// with their data intact; the rest keep their timing; removing the rule
// restores the healthy device; a disk refuses the rule.
#include <gmock/gmock.h>
#include <gtest/gtest.h>

#include "model/disk_presets.h"
#include "model/geometry.h"
#include "tests/scsi/cdb_builders.h"
#include "tests/scsi/lun_fixture.h"

namespace memstore::scsi::testing {
namespace {

constexpr std::uint64_t kFar = 3'000'123;  // far from LBN 0 in X and Y

// A slow-seek rule over the sled position (cylinder, row) of `lbn`.
FaultRule slow_around(const model::Geometry& g, std::uint64_t lbn, double factor) {
  const model::PhysicalAddress a = g.to_physical(static_cast<model::Lbn>(lbn));
  FaultRule r;
  r.action = FaultAction::kSlowSeek;
  r.x = {a.x, a.x};
  r.y = {a.y, a.y};
  r.factor = factor;
  return r;
}

class SlowSeekTest : public LunTest {
 protected:
  // A read of LBN 0, then one of `lba`: the second's result.
  ScsiResult read_after_lbn0(std::uint64_t lba) {
    EXPECT_EQ(run(read16(0, 1)).status, Status::kGood);
    return run(read16(lba, 8));
  }
  void fresh() {
    lun = make_lun();
    tag = 0;
    now = 0;
  }
};

TEST_F(SlowSeekTest, AReadIntoTheRegionCompletesLaterByTheSlowerSeek) {
  const ScsiResult healthy = read_after_lbn0(kFar);
  ASSERT_EQ(healthy.status, Status::kGood);
  ASSERT_GT(healthy.breakdown.seek_ns, 100'000);

  fresh();  // the same history on a LUN with the rule
  lun->add_fault(slow_around(lun->geometry(), kFar, 3));
  const ScsiResult slow = read_after_lbn0(kFar);
  ASSERT_EQ(slow.status, Status::kGood);  // a fault in timing only
  EXPECT_NEAR(static_cast<double>(slow.breakdown.seek_ns),
              3.0 * static_cast<double>(healthy.breakdown.seek_ns), 2.0);
  EXPECT_EQ(slow.breakdown.transfer_ns, healthy.breakdown.transfer_ns);
  EXPECT_EQ(slow.complete_ns - healthy.complete_ns,
            slow.breakdown.seek_ns - healthy.breakdown.seek_ns);
  // Standing, not fired: the rule counts no commands.
  EXPECT_EQ(lun->faults().rules()[0].fired, 0U);
  EXPECT_EQ(lun->faults().fired_total(), 0U);
}

TEST_F(SlowSeekTest, TheDataInTheRegionIsIntact) {
  lun->add_fault(slow_around(lun->geometry(), kFar, 10));
  const std::vector<std::uint8_t> data(8 * 512, 0x3C);
  ASSERT_EQ(run(rw10(0x2A, kFar, 8), data).status, Status::kGood);
  const ScsiResult r = run(read16(kFar, 8));
  ASSERT_EQ(r.status, Status::kGood);
  EXPECT_EQ(r.data_in, data);
}

TEST_F(SlowSeekTest, ReadsOutsideTheRegionAndAfterRemovalKeepTheirTiming) {
  const ScsiResult healthy = read_after_lbn0(kFar);
  const ScsiResult healthy_other = read_after_lbn0(1'500'000);

  fresh();
  const std::uint32_t id = lun->add_fault(slow_around(lun->geometry(), kFar, 3));
  EXPECT_EQ(read_after_lbn0(1'500'000).breakdown.seek_ns, healthy_other.breakdown.seek_ns);
  ASSERT_GT(read_after_lbn0(kFar).breakdown.seek_ns, healthy.breakdown.seek_ns);
  ASSERT_TRUE(lun->remove_fault(id));
  EXPECT_EQ(read_after_lbn0(kFar).breakdown.seek_ns, healthy.breakdown.seek_ns);
}

TEST_F(SlowSeekTest, ARuleFromTheConfigurationIsInForceFromTheStart) {
  const ScsiResult healthy = read_after_lbn0(kFar);
  LunConfig config;
  config.faults.push_back(slow_around(model::Geometry(config.device), kFar, 2));
  lun = make_lun(std::move(config));
  tag = 0;
  now = 0;
  EXPECT_NEAR(static_cast<double>(read_after_lbn0(kFar).breakdown.seek_ns),
              2.0 * static_cast<double>(healthy.breakdown.seek_ns), 2.0);
}

TEST(SlowSeekDisk, ADiskRefusesTheRule) {
  LunConfig config;
  config.disk = *model::disk_preset("atlas10k");
  FaultRule slow;
  slow.action = FaultAction::kSlowSeek;
  config.faults.push_back(slow);
  auto store = MemoryStore::create(1, 512);
  const auto created = Lun::create(std::move(config), std::move(store.value()));
  ASSERT_FALSE(created.ok());
  EXPECT_THAT(created.error().message,
              ::testing::HasSubstr("slow-seek needs a MEMStore's geometry"));
}

}  // namespace
}  // namespace memstore::scsi::testing
