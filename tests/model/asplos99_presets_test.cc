// SPDX-License-Identifier: Apache-2.0
// Seed 003's devices (Schlosser, Griffin, Nagle and Ganger, ASPLOS IX): the three MEMS
// generations of its Table 1, and its reference disk and SuperDisk of Table 2, each figure
// checked against the paper or, for the Cheetah 4LP, DiskSim's validated parameter files.
#include <gtest/gtest.h>

#include <cmath>
#include <numbers>
#include <random>

#include "model/device_factory.h"
#include "model/disk_layout.h"
#include "model/disk_presets.h"
#include "model/geometry.h"
#include "model/mems_mechanism.h"
#include "model/params.h"
#include "model/seek_piecewise.h"

namespace memstore::model {
namespace {

constexpr double kG = 9.80665;
constexpr double kMiB = 1024.0 * 1024.0;
constexpr double kGiB = kMiB * 1024.0;

// One column of Table 1.
struct Table1Column {
  const char* preset;
  double bit_width_nm;
  double accel_g;
  double access_kbit_s;
  double access_mm_s;
  double resonant_hz;
  double settle_ms;
  double max_throughput_mib_s;
  double capacity_gib;
  bool bidirectional;
};

constexpr Table1Column kTable1[] = {
    {"asplos99-g1", 50, 11.7, 200, 10, 220, 1.447, 10.85, 2.098, false},
    {"asplos99-g2", 40, 11.7, 400, 16, 220, 0.723, 21.70, 3.219, true},
    {"asplos99-g3", 30, 17.6, 400, 12, 330, 0.482, 54.25, 5.880, true},
};

TEST(Asplos99Presets, CarryEveryFigureOfTable1) {
  for (const Table1Column& c : kTable1) {
    SCOPED_TRACE(c.preset);
    const std::optional<DeviceParams> p = preset(c.preset);
    ASSERT_TRUE(p);
    EXPECT_TRUE(validate(*p).empty());
    EXPECT_DOUBLE_EQ(p->bit_width_nm, c.bit_width_nm);
    EXPECT_NEAR(p->sled_accel_m_s2 / kG, c.accel_g, 1e-9);
    EXPECT_DOUBLE_EQ(p->per_tip_rate_bit_s, c.access_kbit_s * 1000);
    // Access speed: rate x bit width, in mm/s.
    EXPECT_NEAR(p->per_tip_rate_bit_s * p->bit_width_nm * 1e-9 * 1e3, c.access_mm_s, 1e-9);
    EXPECT_DOUBLE_EQ(p->resonant_frequency_hz, c.resonant_hz);
    // Post-seek X settling: whole time constants of the sled (thesis Eq. 3.5), to the
    // table's last digit.
    const double settle_ms =
        p->settle_time_constants / (2 * std::numbers::pi * p->resonant_frequency_hz) * 1e3;
    EXPECT_NEAR(settle_ms, c.settle_ms, 0.0005);
    // Maximum throughput: one row of p blocks per row time, from the model itself.
    const Geometry g(*p);
    const MemsMechanism m(*p);
    EXPECT_NEAR(g.p() * p->block_bytes / m.row_s() / kMiB, c.max_throughput_mib_s, 0.005);
    // Per-sled capacity, from the model's layout.
    EXPECT_EQ(p->sleds, 1);
    EXPECT_NEAR(static_cast<double>(g.blocks()) * p->block_bytes / kGiB, c.capacity_gib, 0.0005);
    EXPECT_EQ(p->bidirectional, c.bidirectional);
    // §2.1: 6,400 tips a sled; §3.1: a block over 64 tips, 90 bits each.
    EXPECT_EQ(p->tips, 6400);
    EXPECT_EQ(p->tips_per_block, 64);
    EXPECT_EQ(p->servo_bits_per_sector + p->data_bits_per_sector, 90);
  }
}

// §3.1: t_seek_x = 2 sqrt(dx / a) + t_settle, a seek from rest to rest at constant
// acceleration, for every distance and generation.
TEST(Asplos99Presets, XSeekIsSection31sConstantAcceleration) {
  for (const Table1Column& c : kTable1) {
    SCOPED_TRACE(c.preset);
    const DeviceParams p = *preset(c.preset);
    const double half_m = p.region_bits_x * p.bit_width_nm * 1e-9 / 2;
    const Axis axis = Axis::make(p.sled_accel_m_s2, p.spring_factor, half_m);
    for (const double from : {-1.0, -0.5, 0.0, 0.3}) {
      for (const double to : {-0.9, 0.1, 0.7, 1.0}) {
        const double dx = std::abs(to - from) * half_m;
        EXPECT_NEAR(rest_to_rest_s(axis, from * half_m, to * half_m),
                    2 * std::sqrt(dx / p.sled_accel_m_s2), 1e-9)
            << from << " -> " << to;
      }
    }
    // The paper's model keeps the sled where the last request left it: no spin-down.
    EXPECT_EQ(p.power.idle_timeout_ns, -1);
  }
}

// --- The Cheetah 4LP (DiskSim's validated cheetah4LP.model/.parv/.seek) ------------------

TEST(Asplos99Disks, Cheetah4lpCarriesDiskSimsValidatedFigures) {
  const ZonedDiskParams c = *disk_preset("cheetah4lp");
  EXPECT_TRUE(validate(c).empty());
  EXPECT_EQ(c.rotation_rpm, 10033);  // Table 2: 10,033 rpm
  EXPECT_EQ(c.surfaces, 8);          // Table 2: 8 data surfaces
  EXPECT_EQ(c.cylinders, 6581);
  ASSERT_EQ(c.zones.size(), 7u);
  EXPECT_EQ(c.zones.front().sectors_per_track, 195);
  EXPECT_EQ(c.zones.back().sectors_per_track, 131);
  EXPECT_EQ(c.spare_range_cylinders, 12);
  EXPECT_FALSE(c.cylinder_switch_on_surface);
  // Table 2: 2.99 ms average latency, half a revolution.
  EXPECT_NEAR(30e3 / c.rotation_rpm, 2.99, 0.005);
  EXPECT_EQ(curve_seek_ns(c.seek_curve, 1), 636'000);        // "Single cylinder seek time"
  EXPECT_EQ(curve_seek_ns(c.seek_curve, 6580), 16'107'000);  // "Full strobe seek time"
  EXPECT_EQ(c.seek_curve.size(), 103u);
  EXPECT_EQ(c.head_switch_ns, 195'000);
  EXPECT_EQ(c.write_settle_ns, 0);
  EXPECT_FALSE(c.zero_latency);
  EXPECT_EQ(c.bus_ns_per_block, 106'000);
  EXPECT_EQ(c.overheads.read_miss_after_read_ns, 607'730);
  EXPECT_EQ(c.overheads.write_after_write_ns, 537'760);
  EXPECT_EQ(c.cache.segments, 3);
  EXPECT_EQ(c.cache.segment_blocks, 282);
  EXPECT_FALSE(c.cache.write_back);
  // Blocks: each zone's sectors less 108 spares per full 12-cylinder range, the sum
  // DiskSim's layout_g1_load.c makes of the zones.
  std::int64_t blocks = 0;
  for (const DiskZone& z : c.zones) {
    const std::int64_t cyl = z.last_cylinder - z.first_cylinder + 1;
    blocks += cyl * 8 * z.sectors_per_track - 108 * (cyl / 12);
  }
  EXPECT_EQ(blocks, 8'887'940);
  EXPECT_EQ(ZonedLayout(c).blocks(), blocks);
}

TEST(Asplos99Disks, Cheetah4lpSparesEveryTwelveCylindersFromSurfaceZero) {
  const ZonedLayout l(*disk_preset("cheetah4lp"));
  // Mapping scheme 0: every cylinder starts on surface 0.
  EXPECT_EQ(l.locate(0), (DiskAddress{0, 0, 0}));
  EXPECT_EQ(l.locate(8 * 195), (DiskAddress{1, 0, 0}));
  // Range 0 of zone 0 is cylinders 0-11 (18,720 sectors): its last 108 are spares, and
  // LBN 18,612 starts range 1 on cylinder 12.
  EXPECT_EQ(l.locate(18'611), (DiskAddress{11, 7, 195 - 109}));
  EXPECT_FALSE(l.lbn_at(DiskAddress{11, 7, 195 - 108}));
  EXPECT_FALSE(l.lbn_at(DiskAddress{11, 7, 194}));
  EXPECT_EQ(l.locate(18'612), (DiskAddress{12, 0, 0}));
  EXPECT_EQ(l.track_last_lbn(18'600), 18'611);  // the track ends at the spares
  // A slip (zone 0, physical 1,448,762, in range 77) moves LBNs on only to its range's
  // end: range 78 still starts at its first sector.
  const Lbn slip_lbn = 1'448'762 - 77 * 108;
  EXPECT_EQ(l.lbn_at(l.locate(slip_lbn - 1)), slip_lbn - 1);
  const DiskAddress at = l.locate(slip_lbn);
  EXPECT_EQ(at.sector, l.locate(slip_lbn - 1).sector + 2);
  EXPECT_EQ(l.locate(78 * (18'720 - 108)), (DiskAddress{78 * 12, 0, 0}));
  // The cylinder after zone 0 (1,344) belongs to no zone; zone 1 starts at 1,345.
  EXPECT_FALSE(l.lbn_at(DiskAddress{1344, 0, 0}));
  const Lbn zone1 = 1344LL * 8 * 195 - 112 * 108;
  EXPECT_EQ(l.locate(zone1), (DiskAddress{1345, 0, 0}));
}

TEST(Asplos99Disks, Cheetah4lpEveryLbnMapsBackToItself) {
  const ZonedLayout l(*disk_preset("cheetah4lp"));
  std::mt19937_64 rng(3);
  std::uniform_int_distribution<Lbn> any(0, l.blocks() - 1);
  for (int i = 0; i < 100'000; ++i) {
    const Lbn lbn = any(rng);
    const auto back = l.lbn_at(l.locate(lbn));
    ASSERT_TRUE(back) << lbn;
    ASSERT_EQ(*back, lbn);
  }
  // Every LBN around zone 3's first four slips (physical 365,917 to 369,937, range 22 of
  // 15,936 sectors, 12 x 8 x 166) and across zone 0's range boundaries.
  const Lbn zone3 = *l.lbn_at(DiskAddress{3543, 0, 0});
  const Lbn near_slips = zone3 + 22 * (15'936 - 108) + (365'917 - 22 * 15'936);
  for (Lbn lbn = near_slips - 2'000; lbn < near_slips + 6'000; ++lbn) {
    ASSERT_EQ(*l.lbn_at(l.locate(lbn)), lbn);
  }
  for (Lbn lbn = 0; lbn < 40'000; ++lbn) ASSERT_EQ(*l.lbn_at(l.locate(lbn)), lbn);
  EXPECT_EQ(*l.lbn_at(l.locate(l.blocks() - 1)), l.blocks() - 1);
}

// --- The SuperDisk (Table 2) -------------------------------------------------------------

TEST(Asplos99Disks, SuperDiskHasTable2sFigures) {
  const ZonedDiskParams s = *disk_preset("superdisk");
  EXPECT_TRUE(validate(s).empty());
  EXPECT_EQ(s.rotation_rpm, 14400);
  EXPECT_EQ(s.surfaces, 2);
  EXPECT_EQ(s.zones.front().sectors_per_track, 776);  // Table 2: 520-776
  EXPECT_EQ(s.zones.back().sectors_per_track, 520);
  EXPECT_NEAR(30e3 / s.rotation_rpm, 2.08, 0.005);  // 2.08 ms average latency
  EXPECT_NEAR(mean_random_seek_ns(s), 5e6, 2e3);    // 5.0 ms average seek
  EXPECT_EQ(s.write_settle_ns, 0);                  // same for reads and writes
  // "Up to 100 MB/second": an outer track per revolution.
  const double outer_mb_s = 776 * 512.0 * 14400 / 60 / 1e6;
  EXPECT_GT(outer_mb_s, 95);
  EXPECT_LE(outer_mb_s, 100);
  // The interface does not cap the stream below the media.
  EXPECT_LT(s.bus_ns_per_block, 1e9 / (outer_mb_s * 1e6 / 512));
}

TEST(Asplos99Disks, FactoryBuildsEverySeed003Device) {
  for (const char* name : {"cheetah4lp", "superdisk"}) {
    EXPECT_TRUE(is_zoned_disk(name)) << name;
    EXPECT_TRUE(make_disk_device(name, "fcfs")) << name;
  }
  for (const char* name : {"asplos99-g1", "asplos99-g2", "asplos99-g3"}) {
    EXPECT_TRUE(make_mems_device(*preset(name), "fcfs")) << name;
  }
}

}  // namespace
}  // namespace memstore::model
