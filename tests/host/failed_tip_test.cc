// SPDX-License-Identifier: Apache-2.0
// A failed tip seen from the host library (docs/faults.md, "Geometry-aware
// faults"): after MODE PARAMETERS CHANGED the library reads page 20h again,
// and the equivalence classes and conflicts it computes agree with the
// layout and with what the device accepts as one parallel access.
#include <gtest/gtest.h>

#include "host/device.h"
#include "model/geometry.h"
#include "tests/host/lun_transport.h"

namespace memstore::host {
namespace {

class FailedTipHostTest : public ::testing::Test {
 protected:
  model::DeviceParams params_ = *model::preset("g2");
  model::Geometry layout_{params_};
  std::unique_ptr<scsi::Lun> lun_ = testing::make_lun(params_);

  std::unique_ptr<Device> open() {
    auto d = Device::attach(std::make_unique<testing::LunTransport>(*lun_));
    EXPECT_TRUE(d.ok()) << d.error().message;
    return d.ok() ? std::move(d).value() : nullptr;
  }
  void fail_tip(std::int32_t tip, bool spare) {
    scsi::FaultRule r;
    r.action = scsi::FaultAction::kFailedTip;
    r.tip = tip;
    r.spare = spare;
    lun_->add_fault(r);
  }
  // One block per square of the first row of squares, at one (x, y).
  std::vector<Lbn> first_row(const std::vector<Lbn>& e) const {
    std::vector<Lbn> out;
    for (const Lbn l : e) {
      if (layout_.to_physical(static_cast<model::Lbn>(l)).square < layout_.p()) out.push_back(l);
    }
    return out;
  }
  Result<BatchResult> strict_reads(Device& d, const std::vector<Lbn>& blocks) {
    auto b = d.new_batch();
    for (const Lbn l : blocks) EXPECT_TRUE(b->add_read(l, 1).ok());
    return d.submit(*b, {.strict = true, .fua = false});
  }
};

TEST_F(FailedTipHostTest, EquivalenceLosesTheTipAfterTheUnitAttention) {
  auto d = open();
  constexpr Lbn kHome = 3'000'123;
  const std::vector<Lbn> before = *d->get_equivalent(kHome);
  const std::vector<Lbn> row = first_row(before);
  ASSERT_EQ(row.size(), 10u);
  ASSERT_TRUE(strict_reads(*d, row).ok());

  const auto tip = layout_.to_physical(static_cast<model::Lbn>(row[2])).square;
  fail_tip(tip, true);
  // The next command meets MODE PARAMETERS CHANGED; the library retries it
  // and reads page 20h again. The device refuses the old parallel set...
  auto refused = strict_reads(*d, row);
  ASSERT_FALSE(refused.ok());
  EXPECT_EQ(refused.error().sense->asc, 0x26);
  ASSERT_EQ(d->geometry()->page().failed_tips.size(), 1u);
  // ...and the host already knows why: the tip's block conflicts with all.
  EXPECT_FALSE(d->geometry()->parallel_accessible(row));
  EXPECT_TRUE(*d->check_conflicting(row[0], row[2]));
  EXPECT_EQ(*d->get_equivalent(row[2]), std::vector<Lbn>{row[2]});

  const std::vector<Lbn> after = *d->get_equivalent(kHome);
  EXPECT_EQ(after.size(), before.size() - 1);
  // What the host now calls parallel, the device serves in one step.
  const std::vector<Lbn> healthy = first_row(after);
  ASSERT_EQ(healthy.size(), 9u);
  EXPECT_TRUE(d->geometry()->parallel_accessible(healthy));
  auto served = strict_reads(*d, healthy);
  ASSERT_TRUE(served.ok()) << served.error().message;
  EXPECT_EQ(served->media_steps, 1);
}

TEST_F(FailedTipHostTest, BlocksOnTheFailedTipAreThoseTheLayoutPutsThere) {
  fail_tip(42, false);
  auto d = open();
  ASSERT_EQ(d->geometry()->page().failed_tips.size(), 1u);
  // Every block of three cylinders: the host's answer against the model's layout.
  for (Lbn l = 0; l < 3 * static_cast<Lbn>(layout_.sc()); ++l) {
    const bool on_tip = layout_.to_physical(static_cast<model::Lbn>(l)).square == 42;
    ASSERT_EQ(d->geometry()->on_failed_tip(l), on_tip) << l;
  }
}

}  // namespace
}  // namespace memstore::host
