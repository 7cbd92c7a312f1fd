// SPDX-License-Identifier: Apache-2.0
// Device (host/device.*) against an in-process LUN — the same scsi::Lun
// memstored serves — behind the Transport interface: identification,
// geometry from page 20h, batches, vendor pages and every error path the
// library turns into words.
#include "host/device.h"

#include <gtest/gtest.h>

#include <numeric>

#include "model/geometry.h"
#include "tests/host/lun_transport.h"

namespace memstore::host {
namespace {

using testing::HookTransport;
using testing::LunTransport;

model::DeviceParams small_device() {
  model::DeviceParams p = *model::preset("g2");
  p.tips = 64 * 12;
  p.active_tips = 64 * 4;
  p.region_bits_x = 200;
  p.micropositioning = 3;
  p.conflict_group = 3;
  return p;
}

class DeviceTest : public ::testing::Test {
 protected:
  explicit DeviceTest(model::DeviceParams params = *model::preset("g2"))
      : params_(params), lun_(testing::make_lun(params)) {}

  std::unique_ptr<Device> open(std::unique_ptr<Transport> t = nullptr) {
    if (!t) t = std::make_unique<LunTransport>(*lun_);
    auto d = Device::attach(std::move(t));
    EXPECT_TRUE(d.ok()) << d.error().message;
    return d.ok() ? std::move(d).value() : nullptr;
  }

  model::DeviceParams params_;
  std::unique_ptr<scsi::Lun> lun_;
};

TEST_F(DeviceTest, IdentifiesAG2MEMStore) {
  auto d = open();
  ASSERT_TRUE(d);
  EXPECT_TRUE(d->is_memstore());
  EXPECT_EQ(d->blocks(), 6'750'000u);
  EXPECT_EQ(d->block_size(), 512u);
  EXPECT_FALSE(d->inquiry().vendor.empty());
  EXPECT_EQ(*d->get_parallelism(), 10u);
  const model::Geometry m(params_);
  const std::vector<model::Lbn> e = m.equivalence_class(33);
  EXPECT_EQ(*d->get_equivalent(33), std::vector<Lbn>(e.begin(), e.end()));
  EXPECT_EQ(d->get_ensemble(300)->first, 270u);
  EXPECT_FALSE(*d->check_conflicting(0, 1));
}

TEST_F(DeviceTest, LbnBeyondTheDeviceNamesTheRange) {
  auto d = open();
  auto e = d->get_equivalent(6'750'000);
  ASSERT_FALSE(e.ok());
  EXPECT_EQ(e.error().code, Error::Code::kInvalidArgument);
  EXPECT_EQ(e.error().message, "LBN 6750000 is beyond the device (LBNs 0..6749999)");
  EXPECT_FALSE(d->check_conflicting(0, 7'000'000).ok());
  EXPECT_FALSE(d->get_ensemble(7'000'000).ok());
}

TEST_F(DeviceTest, BatchWriteThenBatchReadRoundTrips) {
  auto d = open();
  auto b = d->new_batch();
  ASSERT_TRUE(b.ok());
  Bytes data(3 * 512);
  std::iota(data.begin(), data.end(), std::uint8_t{7});
  ASSERT_TRUE(b->add_write(1000, data).ok());
  ASSERT_TRUE(b->add_write(5000, Bytes(512, 0x5A)).ok());
  auto w = d->submit(*b, {.strict = false, .fua = true});
  ASSERT_TRUE(w.ok()) << w.error().message;
  EXPECT_GE(w->media_steps, 1);
  EXPECT_GT(w->service_us, 0u);

  auto r = d->new_batch();
  ASSERT_TRUE(r->add_read(1000, 3).ok());
  ASSERT_TRUE(r->add_read(5000, 1).ok());
  auto got = d->submit(*r);
  ASSERT_TRUE(got.ok()) << got.error().message;
  ASSERT_EQ(got->data.size(), 2u);
  EXPECT_EQ(got->data[0], data);
  EXPECT_EQ(got->data[1], Bytes(512, 0x5A));
  // Plain READ(16) sees the same blocks.
  EXPECT_EQ(*d->read(1000, 3), data);
}

TEST_F(DeviceTest, ParallelBatchTakesOneStepEvenWhenStrict) {
  auto d = open();
  const std::vector<Lbn> e = *d->get_equivalent(3'000'123);
  auto b = d->new_batch();
  for (std::size_t i = 0; i < 10; ++i) ASSERT_TRUE(b->add_read(e[i * 7 % e.size()], 1).ok());
  auto r = d->submit(*b, {.strict = true, .fua = false});
  ASSERT_TRUE(r.ok()) << r.error().message;
  EXPECT_EQ(r->media_steps, 1);
}

TEST_F(DeviceTest, StrictNonParallelBatchIsRefusedInWords) {
  auto d = open();
  auto b = d->new_batch();
  ASSERT_TRUE(b->add_read(0, 1).ok());
  ASSERT_TRUE(b->add_read(3'000'000, 1).ok());
  auto r = d->submit(*b, {.strict = true, .fua = false});
  ASSERT_FALSE(r.ok());
  EXPECT_EQ(r.error().code, Error::Code::kCheckCondition);
  ASSERT_TRUE(r.error().sense);
  EXPECT_EQ(r.error().sense->asc, 0x26);
  EXPECT_EQ(r.error().sense->ascq, 0x80);
  EXPECT_NE(
      r.error().message.find("MEMS BATCH failed: ILLEGAL REQUEST: BATCH NOT PARALLEL-ACCESSIBLE"),
      std::string::npos)
      << r.error().message;
}

TEST_F(DeviceTest, OverlappingWritesNameTheDescriptor) {
  auto d = open();
  auto b = d->new_batch();
  ASSERT_TRUE(b->add_write(100, Bytes(4 * 512, 1)).ok());
  ASSERT_TRUE(b->add_write(102, Bytes(512, 2)).ok());
  auto r = d->submit(*b);
  ASSERT_FALSE(r.ok());
  EXPECT_EQ(r.error().message,
            "MEMS BATCH failed: ILLEGAL REQUEST: INVALID FIELD IN PARAMETER LIST (26h/00h) at "
            "parameter list byte 28 (descriptor 1 (write LBA 102, 1 blocks), LBA)");
}

TEST_F(DeviceTest, ResultsLargerThanOneTransferAreReadInPieces) {
  auto d = open();
  auto b = d->new_batch();
  // G2 allows 4096 blocks per batch; 4096 blocks = 2 MiB of results: three READ BUFFER commands of
  // <= 1 MiB.
  ASSERT_TRUE(b->add_read(0, 4096).ok());
  auto r = d->submit(*b);
  ASSERT_TRUE(r.ok()) << r.error().message;
  EXPECT_EQ(r->data[0].size(), 4096u * 512);
}

TEST_F(DeviceTest, ControlPageRoundTripsThroughModeSelect) {
  auto d = open();
  auto c = d->control_page();
  ASSERT_TRUE(c.ok()) << c.error().message;
  modepages::ControlPage want = *c;
  want.scheduler = *modepages::scheduler_index("sptf");
  want.timing = modepages::TimingMode::kScaled;
  want.scale_milli = 2500;
  ASSERT_TRUE(d->set_control_page(want).ok());
  EXPECT_EQ(*d->control_page(), want);
  want.scale_milli = 0;  // refused by the device: names the field
  auto s = d->set_control_page(want);
  ASSERT_FALSE(s.ok());
  EXPECT_NE(s.error().message.find("INVALID FIELD IN PARAMETER LIST"), std::string::npos)
      << s.error().message;
}

TEST_F(DeviceTest, ControlPageRefusedToAnInitiatorWithoutTheRight) {
  lun_ = testing::make_lun(params_, /*control=*/false);
  auto d = open();
  auto c = d->control_page();
  ASSERT_TRUE(c.ok()) << c.error().message;
  modepages::ControlPage want = *c;
  ASSERT_TRUE(d->set_control_page(want).ok());  // unchanged: accepted
  want.timing = modepages::TimingMode::kScaled;
  auto s = d->set_control_page(want);
  ASSERT_FALSE(s.ok());
  EXPECT_NE(s.error().message.find("ACCESS DENIED - NO ACCESS RIGHTS"), std::string::npos)
      << s.error().message;
  EXPECT_EQ(*d->control_page(), *c);
}

TEST_F(DeviceTest, PhysicsAndLogPagesDecode) {
  auto d = open();
  auto p = d->physics_page();
  ASSERT_TRUE(p.ok()) << p.error().message;
  EXPECT_EQ(p->tips, 6400u);
  ASSERT_TRUE(d->read(0, 1).ok());
  auto pos = d->positioning_log();
  ASSERT_TRUE(pos.ok()) << pos.error().message;
  EXPECT_GE((*pos)[modepages::PositioningMetric::kTransfer].count, 1u);
  auto pw = d->power_log();
  ASSERT_TRUE(pw.ok()) << pw.error().message;
}

TEST_F(DeviceTest, DeviceWithoutPage20hIsAPlainDisk) {
  auto t = std::make_unique<HookTransport>(
      std::make_unique<LunTransport>(*lun_),
      [](const ScsiCommand& c) -> std::optional<Result<ScsiResponse>> {
        if (c.cdb[0] == 0x5A && (c.cdb[2] & 0x3F) >= 0x20) {
          return testing::check_condition(0x5, 0x24, 0x00);
        }
        return std::nullopt;
      });
  auto d = open(std::move(t));
  ASSERT_TRUE(d);
  EXPECT_FALSE(d->is_memstore());
  EXPECT_NE(d->not_memstore_reason().find("no mode page 20h"), std::string::npos);
  EXPECT_NE(d->not_memstore_reason().find("INVALID FIELD IN CDB"), std::string::npos);
  auto e = d->get_equivalent(0);
  ASSERT_FALSE(e.ok());
  EXPECT_EQ(e.error().code, Error::Code::kNotMemstore);
  EXPECT_NE(e.error().message.find("is not a MEMStore"), std::string::npos);
  EXPECT_EQ(d->new_batch().error().code, Error::Code::kNotMemstore);
  // Still a block device.
  ASSERT_TRUE(d->write(10, Bytes(512, 3)).ok());
  EXPECT_EQ(*d->read(10, 1), Bytes(512, 3));
}

TEST_F(DeviceTest, UnitAttentionIsRetried) {
  int attentions = 2;
  auto t = std::make_unique<HookTransport>(
      std::make_unique<LunTransport>(*lun_),
      [&](const ScsiCommand&) -> std::optional<Result<ScsiResponse>> {
        if (attentions > 0) {
          --attentions;
          return testing::check_condition(0x6, 0x29, 0x00);
        }
        return std::nullopt;
      });
  auto d = open(std::move(t));
  ASSERT_TRUE(d);
  EXPECT_TRUE(d->is_memstore());
}

TEST_F(DeviceTest, TransportFailureDuringOpenIsReported) {
  auto t = std::make_unique<HookTransport>(
      std::make_unique<LunTransport>(*lun_),
      [](const ScsiCommand&) -> std::optional<Result<ScsiResponse>> {
        return Result<ScsiResponse>(transport_error("connection reset"));
      });
  auto d = Device::attach(std::move(t));
  ASSERT_FALSE(d.ok());
  EXPECT_EQ(d.error().code, Error::Code::kTransport);
  EXPECT_EQ(d.error().message, "INQUIRY: connection reset");
}

TEST_F(DeviceTest, BusyIsAStatusError) {
  bool busy = false;
  auto t = std::make_unique<HookTransport>(
      std::make_unique<LunTransport>(*lun_),
      [&](const ScsiCommand&) -> std::optional<Result<ScsiResponse>> {
        if (!busy) return std::nullopt;
        ScsiResponse r;
        r.status = 0x08;
        return Result<ScsiResponse>(r);
      });
  auto d = open(std::move(t));
  busy = true;
  auto r = d->read(0, 1);
  ASSERT_FALSE(r.ok());
  EXPECT_EQ(r.error().code, Error::Code::kScsiStatus);
  EXPECT_EQ(r.error().message, "READ(16) failed with status BUSY");
}

TEST_F(DeviceTest, InconsistentCapacityIsNotAMEMStore) {
  auto t = std::make_unique<HookTransport>(
      std::make_unique<LunTransport>(*lun_),
      [](const ScsiCommand& c) -> std::optional<Result<ScsiResponse>> {
        if (c.cdb[0] != 0x9E) return std::nullopt;
        ScsiResponse r;
        r.data_in = {0, 0, 0, 0, 0, 0, 0x03, 0xE7, 0, 0, 2, 0};  // 1000 blocks
        return Result<ScsiResponse>(r);
      });
  auto d = open(std::move(t));
  ASSERT_TRUE(d);
  EXPECT_FALSE(d->is_memstore());
  EXPECT_EQ(d->not_memstore_reason(),
            "mode page 20h describes 6750000 blocks but READ CAPACITY reports 1000");
}

class SmallDeviceTest : public DeviceTest {
 protected:
  SmallDeviceTest() : DeviceTest(small_device()) {}
};

TEST_F(SmallDeviceTest, EquivalenceAndConflictsMatchTheModel) {
  auto d = open();
  ASSERT_TRUE(d && d->is_memstore());
  const model::Geometry m(params_);
  for (Lbn l = 0; l < d->blocks(); l += 997) {
    const auto e = m.equivalence_class(static_cast<model::Lbn>(l));
    EXPECT_EQ(*d->get_equivalent(l), std::vector<Lbn>(e.begin(), e.end())) << l;
    for (const model::Lbn o : e) {
      EXPECT_EQ(*d->check_conflicting(l, static_cast<Lbn>(o)),
                m.conflicting(static_cast<model::Lbn>(l), o));
    }
  }
}

TEST_F(SmallDeviceTest, BatchOfConflictGroupMembersNeedsMoreSteps) {
  auto d = open();
  // Squares 0, 1, 2 share components (G = 3): three steps, not one.
  auto b = d->new_batch();
  ASSERT_TRUE(b->add_read(0, 3).ok());
  auto r = d->submit(*b);
  ASSERT_TRUE(r.ok()) << r.error().message;
  EXPECT_EQ(r->media_steps, 3);
  EXPECT_FALSE(d->geometry()->parallel_accessible(std::vector<Lbn>{0, 1, 2}));
}

}  // namespace
}  // namespace memstore::host
