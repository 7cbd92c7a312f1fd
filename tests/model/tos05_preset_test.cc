// SPDX-License-Identifier: Apache-2.0
// The power paper's device (ACM ToS 2005, §2 Table I; power model §3.1) as the tos05
// preset: every figure of Table I derived from the model, and the energy of the two
// access strategies of §5.2.2-5.2.3 on it, request by request.
#include <gtest/gtest.h>

#include <array>
#include <cmath>
#include <numbers>

#include "model/geometry.h"
#include "model/mems_mechanism.h"
#include "model/params.h"
#include "model/power.h"

namespace memstore::model {
namespace {

constexpr double kGiB = 1024.0 * 1024.0 * 1024.0;

double access_j(const EnergyReport& e) {
  return e.energy_j[static_cast<int>(PowerState::kAccess)];
}

// Two 4 KB reads side by side in one row, from the row's first sector at or below `near`.
std::array<Request, 2> two_reads_of_one_row(const DeviceParams& p, Lbn near) {
  const Geometry g(p);
  const Lbn first = near - g.locate(near).column;
  std::array<Request, 2> parts{};
  for (int i = 0; i < 2; ++i) {
    parts[i].id = static_cast<std::uint64_t>(i + 1);
    parts[i].lbn = first + 8 * i;
    parts[i].blocks = 8;
  }
  return parts;
}

TEST(Tos05Preset, CarriesEveryFigureOfTableI) {
  const std::optional<DeviceParams> p = preset("tos05");
  ASSERT_TRUE(p);
  EXPECT_TRUE(validate(*p).empty());
  EXPECT_EQ(p->tips, 6400);         // "Number of tips 6400"
  EXPECT_EQ(p->active_tips, 1280);  // "Maximum concurrent tips 1280"
  EXPECT_DOUBLE_EQ(p->sled_accel_m_s2, 803.6);
  EXPECT_DOUBLE_EQ(p->resonant_frequency_hz, 739.0);
  EXPECT_DOUBLE_EQ(p->spring_factor, 0.75);
  EXPECT_DOUBLE_EQ(p->bit_width_nm, 40.0);  // bit cell 40 x 40 nm
  EXPECT_EQ(p->region_bits_x, 2500);        // bits per tip region 2500 x 2500
  EXPECT_EQ(p->region_bits_y, 2500);
  // Sled mobility 100 um: a tip region's width.
  EXPECT_NEAR(p->region_bits_x * p->bit_width_nm * 1e-3, 100.0, 1e-9);
  // Access speed 28 mm/s: per-tip rate x bit width.
  EXPECT_NEAR(p->per_tip_rate_bit_s * p->bit_width_nm * 1e-9 * 1e3, 28.0, 1e-9);
  // X settling 0.215 ms: one time constant of the 739 Hz sled.
  EXPECT_NEAR(p->settle_time_constants / (2 * std::numbers::pi * p->resonant_frequency_hz) * 1e3,
              0.215, 0.0005);
  // §3.1's power figures.
  EXPECT_DOUBLE_EQ(p->power.tip_active_w, 0.001);
  EXPECT_DOUBLE_EQ(p->power.sled_motion_w, 0.100);
  EXPECT_DOUBLE_EQ(p->power.inactive_w, 0.050);
  EXPECT_EQ(p->power.startup_ns, 500'000);
  EXPECT_DOUBLE_EQ(p->power.startup_j, 5e-5);
  // IDLE re-reads the last sector: one block's tips (the named choice in params.cc).
  EXPECT_EQ(p->power.idle_tips, p->tips_per_block);
}

TEST(Tos05Preset, ThroughputAndCapacityFollowFromTheLayout) {
  const DeviceParams p = *preset("tos05");
  const Geometry g(p);
  const MemsMechanism m(p);
  // 1280 concurrent tips of 64 per 512-byte sector: 20 sectors a row.
  EXPECT_EQ(g.p(), 20);
  // "Max. throughput 89.6 MB/s": a row of p sectors per row time, counting the data
  // bits only (Table I leaves the 10 servo bits of each 90 out: §5.2.3).
  const double row_bytes_s = g.p() * p.block_bytes / m.row_s();
  const double table_bytes_s =
      row_bytes_s * (p.servo_bits_per_sector + p.data_bits_per_sector) / p.data_bits_per_sector;
  EXPECT_NEAR(table_bytes_s / 1e6, 89.6, 0.05);
  // "Per-sled capacity 3.2 GB": G2's 6,750,000 sectors, 3.2 GiB.
  EXPECT_EQ(g.blocks(), 6'750'000);
  EXPECT_NEAR(static_cast<double>(g.blocks()) * p.block_bytes / kGiB, 3.2, 0.05);
}

// §3.1: "a data transfer using 1000 active tips would require (1000 x 1) + 100 = 1100 mW".
TEST(Tos05Preset, AccessPowerIsTipsPlusSledMotion) {
  PowerMeter meter(preset("tos05")->power);
  meter.add_access(1'000'000, 1000);  // 1 ms with 1000 tips
  EXPECT_NEAR(access_j(meter.report()), 1.1e-3, 1e-12);
}

// §5.2.3: a request for 100 bytes of a sector activates only the tip sectors holding them,
// 13 of 8 bytes each, instead of the sector's 64; the sled moves for the same row either way.
TEST(Tos05Preset, SubsectorAccessChargesOnlyTheTipsOfTheBytesRead) {
  DeviceParams p = *preset("tos05");
  Request r;
  r.id = 1;
  r.lbn = 1'000'000;
  r.blocks = 1;
  r.tail_bytes = 100;
  std::array<double, 2> joules{};
  for (const bool subsector : {false, true}) {
    p.power.subsector = subsector;
    MemsMechanism m(p);
    const Breakdown b = m.service(r, 0);
    ASSERT_EQ(b.media_steps, 1);
    const double row_s = static_cast<double>(b.transfer_ns) * 1e-9;
    const int tips = subsector ? 13 : 64;
    joules[subsector ? 1 : 0] = access_j(m.energy(b.service_ns()));
    EXPECT_NEAR(joules[subsector ? 1 : 0],
                (p.power.sled_motion_w + tips * p.power.tip_active_w) * row_s, 1e-15);
  }
  // The saving is the 51 tips' share: 51 / 164 of the baseline's access energy.
  EXPECT_NEAR(1 - joules[1] / joules[0], 51.0 / 164.0, 1e-9);
}

// §5.2.2: two LBN-adjacent 4 KB reads inside one row of 20 sectors, merged, are one pass
// of that row with both requests' 1024 tips on; served one by one the sled passes the row
// twice (512 tips each) and repositions for the second.
TEST(Tos05Preset, MergedRequestsShareOneRowPass) {
  const DeviceParams p = *preset("tos05");
  const std::array<Request, 2> parts = two_reads_of_one_row(p, 1'000'000);
  MemsMechanism merged(p), alone(p);
  std::array<Ns, 2> done{};
  const Breakdown mb = merged.service_merged(parts, 0, done);
  ASSERT_EQ(mb.media_steps, 1);
  const double row_s = static_cast<double>(mb.transfer_ns) * 1e-9;
  const EnergyReport me = merged.energy(mb.service_ns());
  EXPECT_NEAR(access_j(me), (p.power.sled_motion_w + 1024 * p.power.tip_active_w) * row_s, 1e-15);
  const Breakdown a1 = alone.service(parts[0], 0);
  const Breakdown a2 = alone.service(parts[1], a1.service_ns());
  const EnergyReport ae = alone.energy(a1.service_ns() + a2.service_ns());
  EXPECT_NEAR(access_j(ae), (2 * p.power.sled_motion_w + 1024 * p.power.tip_active_w) * row_s,
              1e-12);
  // Merged, the sled also skips the second request's repositioning.
  EXPECT_GT(a2.seek_ns, 0);
  EXPECT_LT(mb.service_ns(), a1.service_ns() + a2.service_ns());
  EXPECT_EQ(done[1], mb.service_ns());
}

// The §2 reading (power.access_all_tips): a row pass activates the whole logical sector,
// all 1280 concurrent tips, whatever the request needs; subsector accesses then activate
// only the tip sectors of the bytes needed (13 for 100 bytes), so they save 1267 of 1380 mW.
TEST(Tos05Preset, LogicalSectorReadingChargesEveryConcurrentTipUnlessSubsector) {
  DeviceParams p = *preset("tos05");
  p.power.access_all_tips = true;
  Request r;
  r.id = 1;
  r.lbn = 1'000'000;
  r.blocks = 1;
  r.tail_bytes = 100;
  for (const bool subsector : {false, true}) {
    p.power.subsector = subsector;
    MemsMechanism m(p);
    const Breakdown b = m.service(r, 0);
    const double row_s = static_cast<double>(b.transfer_ns) * 1e-9;
    const int tips = subsector ? 13 : 1280;
    EXPECT_NEAR(access_j(m.energy(b.service_ns())),
                (p.power.sled_motion_w + tips * p.power.tip_active_w) * row_s, 1e-15)
        << subsector;
  }
  // Merged, two 4 KB reads of one row are one pass of 1280 tips instead of two.
  p.power.subsector = false;
  const std::array<Request, 2> parts = two_reads_of_one_row(p, 2'000'000);
  MemsMechanism merged(p), alone(p);
  std::array<Ns, 2> done{};
  const Breakdown mb = merged.service_merged(parts, 0, done);
  const Breakdown a1 = alone.service(parts[0], 0);
  const Breakdown a2 = alone.service(parts[1], a1.service_ns());
  const double row_s = static_cast<double>(mb.transfer_ns) * 1e-9;
  const double full_w = p.power.sled_motion_w + 1280 * p.power.tip_active_w;
  EXPECT_NEAR(access_j(merged.energy(mb.service_ns())), full_w * row_s, 1e-15);
  EXPECT_NEAR(access_j(alone.energy(a1.service_ns() + a2.service_ns())), 2 * full_w * row_s, 1e-12);
}

}  // namespace
}  // namespace memstore::model
