// SPDX-License-Identifier: Apache-2.0
// A failed probe tip through the LUN (docs/faults.md, "Geometry-aware
// faults"): page 20h lists it after a MODE PARAMETERS CHANGED unit
// attention, a spare serves its blocks at the cost of an extra access, and
// MEMS BATCH loses its parallelism (or fails on it, without a spare).
#include <gtest/gtest.h>

#include <algorithm>

#include "model/geometry.h"
#include "modepages/batch_codec.h"
#include "modepages/mode_vendor.h"
#include "tests/scsi/cdb_builders.h"
#include "tests/scsi/lun_fixture.h"

namespace memstore::scsi::testing {
namespace {

using modepages::BatchDescriptor;
using modepages::BatchOp;

FaultRule failed_tip(std::int32_t tip, bool spare) {
  FaultRule r;
  r.action = FaultAction::kFailedTip;
  r.tip = tip;
  r.spare = spare;
  return r;
}

class FailedTipTest : public LunTest {
 protected:
  // Page 20h from MODE SENSE(10), DBD = 1: the page follows the 8-byte header.
  modepages::GeometryPage page20h(std::uint64_t nexus = 1) {
    const ScsiResult r = run({0x5A, 0x08, 0x20, 0, 0, 0, 0, 0x01, 0x00, 0}, {}, nexus);
    EXPECT_EQ(r.status, Status::kGood);
    const auto page = modepages::decode_geometry_page(std::span(r.data_in).subspan(8));
    EXPECT_TRUE(page);
    return page.value_or(modepages::GeometryPage{});
  }
  ScsiResult batch(const std::vector<BatchDescriptor>& d, bool strict) {
    const auto list = modepages::encode_batch_list(d, {});
    return run(modepages::make_batch_cdb(1, static_cast<std::uint32_t>(list.size()), strict), list);
  }
  auto results_header() {
    const ScsiResult r = run(modepages::make_results_cdb(1, 0, 1 << 20));
    return modepages::decode_batch_results_header(r.data_in);
  }
  // p blocks at one (x, y), one per square of the first row of squares.
  std::vector<BatchDescriptor> parallel_reads(model::Lbn l) {
    const model::Geometry& g = lun->geometry();
    std::vector<BatchDescriptor> d;
    for (const model::Lbn e : g.equivalence_class(l)) {
      if (g.to_physical(e).square < g.p())
        d.push_back({BatchOp::kRead, static_cast<std::uint64_t>(e), 1, 0});
    }
    return d;
  }
};

TEST_F(FailedTipTest, Page20hListsTheTipAfterModeParametersChanged) {
  EXPECT_EQ(run({0x00}, {}, 1).status, Status::kGood);  // both ports are known
  EXPECT_EQ(run({0x00}, {}, 2).status, Status::kGood);
  EXPECT_TRUE(page20h().failed_tips.empty());
  const std::uint32_t id = lun->add_fault(failed_tip(7, true));
  for (const std::uint64_t nexus : {1, 2}) {
    EXPECT_EQ(kcq(run({0x00}, {}, nexus)), (std::vector<int>{0x6, 0x2A, 0x01})) << nexus;
    EXPECT_EQ(run({0x00}, {}, nexus).status, Status::kGood);
  }
  EXPECT_EQ(page20h().failed_tips, (std::vector<modepages::FailedTip>{{0, true, 7}}));
  // A second rule on the same tip, failing it outright: the tip stays
  // listed once, now not spared, and the change is announced again.
  const std::uint32_t second = lun->add_fault(failed_tip(7, false));
  EXPECT_EQ(kcq(run({0x00})), (std::vector<int>{0x6, 0x2A, 0x01}));
  EXPECT_EQ(page20h().failed_tips, (std::vector<modepages::FailedTip>{{0, false, 7}}));
  // A rule that changes no tip announces nothing.
  FaultRule busy;
  busy.action = FaultAction::kBusy;
  busy.op = FaultOp::kOpcode;
  busy.opcode = 0xFF;
  lun->add_fault(busy);
  EXPECT_EQ(run({0x00}).status, Status::kGood);
  ASSERT_TRUE(lun->remove_fault(second));
  ASSERT_TRUE(lun->remove_fault(id));
  EXPECT_EQ(kcq(run({0x00})), (std::vector<int>{0x6, 0x2A, 0x01}));
  EXPECT_TRUE(page20h().failed_tips.empty());
}

TEST_F(FailedTipTest, SpareServesTheDataAtTheCostOfAnExtraAccess) {
  const std::vector<std::uint8_t> data(10 * 512, 0x5C);
  ASSERT_EQ(run(rw10(0x2A, 0, 10), data).status, Status::kGood);
  const ScsiResult healthy = run(read16(0, 10));
  ASSERT_EQ(healthy.status, Status::kGood);

  lun = make_lun();
  tag = 0;
  now = 0;
  lun->add_fault(failed_tip(3, true));
  ASSERT_EQ(run(rw10(0x2A, 0, 10), data).status, Status::kGood);
  const ScsiResult spared = run(read16(0, 10));
  ASSERT_EQ(spared.status, Status::kGood);
  EXPECT_EQ(spared.data_in, data);  // nothing lost
  // The same history, one more pass for the spare's block (LBN 3).
  EXPECT_GT(spared.complete_ns, healthy.complete_ns);
  EXPECT_GT(spared.breakdown.transfer_ns, healthy.breakdown.transfer_ns);
  // A read that misses the tip costs what it did.
  const ScsiResult other = run(read16(4, 4));
  EXPECT_EQ(other.status, Status::kGood);
}

TEST_F(FailedTipTest, BatchLosesTheSparedTipsParallelism) {
  const auto reads = parallel_reads(3'000'123);
  ASSERT_EQ(reads.size(), 10u);
  ASSERT_EQ(batch(reads, true).status, Status::kGood);
  EXPECT_EQ(results_header()->media_steps, 1);

  const std::int32_t tip =
      lun->geometry().to_physical(static_cast<model::Lbn>(reads[4].lba)).square;
  lun->add_fault(failed_tip(tip, true));
  EXPECT_EQ(kcq(run({0x00})), (std::vector<int>{0x6, 0x2A, 0x01}));
  // STRICT: the spared block needs a step of its own.
  EXPECT_EQ(kcq(batch(reads, true)), (std::vector<int>{0x5, 0x26, 0x80}));
  // Without STRICT the batch is served: one step for nine, one for the spare.
  ASSERT_EQ(batch(reads, false).status, Status::kGood);
  EXPECT_EQ(results_header()->media_steps, 2);
  // The other nine are still one parallel access.
  auto nine = reads;
  nine.erase(nine.begin() + 4);
  ASSERT_EQ(batch(nine, true).status, Status::kGood);
  EXPECT_EQ(results_header()->media_steps, 1);
}

TEST_F(FailedTipTest, BatchTouchingAFailedTipWithoutSpareIsAMediumError) {
  const auto reads = parallel_reads(3'000'123);
  const std::uint64_t bad = reads[6].lba;
  lun->add_fault(
      failed_tip(lun->geometry().to_physical(static_cast<model::Lbn>(bad)).square, false));
  const ScsiResult r = batch(reads, false);
  EXPECT_EQ(kcq(r), (std::vector<int>{0x3, 0x11, 0x00}));
  ASSERT_GE(r.sense.size(), 7u);
  EXPECT_EQ((std::uint64_t{r.sense[3]} << 24) | (r.sense[4] << 16) | (r.sense[5] << 8) | r.sense[6],
            bad);
}

}  // namespace
}  // namespace memstore::scsi::testing
