// SPDX-License-Identifier: Apache-2.0
// The two BlockDevices agree: the same batches cost the same modeled time on
// the simulated device as on a memstored LUN reached through the host
// library (here the same scsi::Lun in-process, behind host::Device), and the
// applications' results are the same on both.
#include <gtest/gtest.h>

#include "apps/capsule_layout.h"
#include "apps/freeblock.h"
#include "apps/host_block_device.h"
#include "apps/normal_layout.h"
#include "apps/table_queries.h"
#include "tests/apps/devices.h"
#include "tests/host/lun_transport.h"

namespace memstore::apps {
namespace {

struct OverLun {
  std::unique_ptr<scsi::Lun> lun;
  std::unique_ptr<HostBlockDevice> device;
};

OverLun over_lun(const model::DeviceParams& p) {
  OverLun o;
  o.lun = host::testing::make_lun(p);
  auto d = host::Device::attach(std::make_unique<host::testing::LunTransport>(*o.lun));
  EXPECT_TRUE(d.ok()) << d.error().message;
  auto b = HostBlockDevice::over(std::move(*d));
  EXPECT_TRUE(b.ok());
  o.device = std::move(*b);
  return o;
}

TEST(DeviceAgreement, SameGeometry) {
  const auto p = testing::small_params(2);
  auto lun = over_lun(p);
  auto sim = testing::sim(p);
  EXPECT_EQ(lun.device->geometry().page(), sim->geometry().page());
  EXPECT_EQ(lun.device->blocks(), sim->blocks());
  EXPECT_EQ(lun.device->max_batch_blocks(), sim->max_batch_blocks());
}

TEST(DeviceAgreement, ScanCostsTheSame) {
  for (int m : {0, 2}) {
    const auto p = testing::small_params(m);
    auto lun = over_lun(p);
    auto sim = testing::sim(p);
    ScanOptions o;
    o.max_requests = 400;
    auto a = run_scan(*lun.device, o);
    auto b = run_scan(*sim, o);
    ASSERT_TRUE(a.ok()) << a.error().message;
    ASSERT_TRUE(b.ok()) << b.error().message;
    EXPECT_EQ(a->reported_us, b->reported_us) << "M = " << m;
    EXPECT_EQ(a->free_blocks, b->free_blocks);
    EXPECT_EQ(a->media_steps, b->media_steps);
    // The device reports whole microseconds: below the exact sum by < 1 µs a batch.
    EXPECT_LE(a->service_ns, b->service_ns);
    EXPECT_GT(a->service_ns + 1000 * static_cast<std::int64_t>(a->requests), b->service_ns);
  }
}

TEST(DeviceAgreement, CapsuleQueriesCostTheSameAndVerify) {
  const auto p = testing::small_params();
  auto lun = over_lun(p);
  auto sim = testing::sim(p, true);
  const TableSchema schema{{8, 16, 8}, 20'000};
  QuerySettings qs;
  qs.short_scans = 10;
  qs.random_reads = 50;
  const auto queries = standard_queries(schema, qs);
  std::vector<std::vector<QueryRun>> runs(2);
  int i = 0;
  for (BlockDevice* d :
       {static_cast<BlockDevice*>(lun.device.get()), static_cast<BlockDevice*>(sim.get())}) {
    auto normal = NormalLayout::create(schema, {}, 512, 0, d->blocks());
    ASSERT_TRUE(normal.ok());
    auto capsule = CapsuleLayout::create(schema, d->geometry(), 512, normal->end_lbn());
    ASSERT_TRUE(capsule.ok()) << capsule.error().message;
    for (const TableLayout* l :
         {static_cast<const TableLayout*>(&*normal), static_cast<const TableLayout*>(&*capsule)}) {
      auto load = load_table(*d, *l, schema);
      ASSERT_TRUE(load.ok()) << load.error().message;
      runs[i].push_back(*load);
      for (const Query& q : queries) {
        auto r = run_query(*d, *l, q, true);
        ASSERT_TRUE(r.ok()) << r.error().message;
        EXPECT_EQ(r->verified_blocks, r->blocks) << q.name;
        runs[i].push_back(*r);
      }
    }
    ++i;
  }
  ASSERT_EQ(runs[0].size(), runs[1].size());
  for (std::size_t k = 0; k < runs[0].size(); ++k) {
    EXPECT_EQ(runs[0][k].reported_us, runs[1][k].reported_us)
        << runs[0][k].layout << " " << runs[0][k].query;
    EXPECT_EQ(runs[0][k].media_steps, runs[1][k].media_steps);
  }
}

}  // namespace
}  // namespace memstore::apps
