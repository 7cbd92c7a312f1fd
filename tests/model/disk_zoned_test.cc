// SPDX-License-Identifier: Apache-2.0
// The zoned disks (issue 19): the Atlas 10K's layout, seek curve, rotation and
// cache as DiskSim 4.0's validated model describes them, and the 20,000 rpm
// preset derived from it.
#include "model/disk_zoned.h"

#include <gtest/gtest.h>

#include <cmath>
#include <random>

#include "model/device_factory.h"
#include "model/disk_layout.h"
#include "model/disk_presets.h"

namespace memstore::model {
namespace {

ZonedDiskParams atlas() {
  return *disk_preset("atlas10k");
}

Request req(Lbn lbn, std::int32_t blocks, Op op = Op::kRead) {
  Request r;
  r.lbn = lbn;
  r.blocks = blocks;
  r.op = op;
  return r;
}

double ns(Ns t) {
  return static_cast<double>(t);
}

// One sector of zone 0 (334 per track at 10,025 rpm), in ns.
double zone0_sector_ns() {
  return 60e9 / 10025 / 334;
}

// --- Parameters --------------------------------------------------------------

TEST(ZonedDiskPresets, BothValidateAndCarryThePublishedFigures) {
  for (const std::string& name : disk_preset_names()) {
    const auto p = disk_preset(name);
    ASSERT_TRUE(p) << name;
    EXPECT_TRUE(validate(*p).empty()) << name;
  }
  const ZonedDiskParams a = atlas();
  // What mode pages 03h/04h and VPD B1h will report.
  EXPECT_EQ(a.rotation_rpm, 10025);
  EXPECT_EQ(a.cylinders, 10042);
  EXPECT_EQ(a.surfaces, 6);
  EXPECT_EQ(a.zones.front().sectors_per_track, 334);  // thesis §2.4: 334 outer,
  EXPECT_EQ(a.zones.back().sectors_per_track, 229);   // 229 inner
}

TEST(ZonedDiskPresets, Disk20kHasThePapersThreeFigures) {
  const ZonedDiskParams d = *disk_preset("disk20k");
  EXPECT_EQ(d.rotation_rpm, 20000);
  EXPECT_NEAR(mean_random_seek_ns(d), 3e6, 2e3);  // 3 ms average seek
  // 125 MB/s off an outer track: sectors per 3 ms revolution.
  const double outer_mb_s = d.zones.front().sectors_per_track * 512.0 / 3e-3 / 1e6;
  EXPECT_NEAR(outer_mb_s, 125, 0.2);
}

TEST(ZonedDiskPresets, OverridesNameTheirKey) {
  ZonedDiskParams p = atlas();
  EXPECT_TRUE(apply_disk_override(p, "cache_segments=0").ok());
  EXPECT_EQ(p.cache.segments, 0);
  EXPECT_TRUE(apply_disk_override(p, "write_back=false").ok());
  EXPECT_FALSE(p.cache.write_back);
  const auto bad = apply_disk_override(p, "cache_segment=3");
  ASSERT_FALSE(bad.ok());
  EXPECT_NE(bad.error().message.find("unknown key 'cache_segment'"), std::string::npos);
  EXPECT_FALSE(apply_disk_override(p, "bus_ns_per_block=-1").ok());
}

// --- Layout ------------------------------------------------------------------

TEST(ZonedLayoutTest, LbnsFillTracksThenCylindersAlternatingSurfaces) {
  const ZonedLayout l(atlas());
  EXPECT_EQ(l.locate(0), (DiskAddress{0, 0, 0}));
  EXPECT_EQ(l.locate(333), (DiskAddress{0, 0, 333}));
  EXPECT_EQ(l.locate(334), (DiskAddress{0, 1, 0}));
  // Cylinder 1 starts on the last surface (mapping scheme 1: no head switch at the
  // cylinder switch) and runs back to surface 0.
  EXPECT_EQ(l.locate(2004), (DiskAddress{1, 5, 0}));
  EXPECT_EQ(l.locate(2004 + 334), (DiskAddress{1, 4, 0}));
  EXPECT_EQ(l.locate(2 * 2004), (DiskAddress{2, 0, 0}));
}

TEST(ZonedLayoutTest, SlipsAndSparesHoldNoLbn) {
  const ZonedLayout l(atlas());
  // Zone 0's first slip is physical sector 55017: LBN 55017 moves on to 55018.
  const DiskAddress before = l.locate(55016);
  const DiskAddress after = l.locate(55017);
  EXPECT_EQ(after.sector, before.sector + 2);
  const DiskAddress slipped{before.cylinder, before.surface, before.sector + 1};
  EXPECT_FALSE(l.lbn_at(slipped));
  // Zone 0 holds 433 cylinders x 6 x 334 sectors less its 89 spares; its last sector
  // is a spare, and zone 1 starts right after.
  const Lbn zone1 = 433LL * 6 * 334 - 89;
  EXPECT_EQ(l.locate(zone1), (DiskAddress{433, 0, 0}));
  EXPECT_FALSE(l.lbn_at(DiskAddress{432, 5, 333}));  // even cylinder: ends on surface 5
  // Every zone less its spares: 17,966,953 blocks (DiskSim recomputes its "Block count"
  // of 17,938,986 from the zones the same way).
  EXPECT_EQ(l.blocks(), 17'966'953);
}

TEST(ZonedLayoutTest, EveryLbnMapsBackToItself) {
  const ZonedLayout l(atlas());
  std::mt19937_64 rng(19);
  std::uniform_int_distribution<Lbn> any(0, l.blocks() - 1);
  for (int i = 0; i < 200'000; ++i) {
    const Lbn lbn = any(rng);
    const auto back = l.lbn_at(l.locate(lbn));
    ASSERT_TRUE(back) << lbn;
    ASSERT_EQ(*back, lbn);
  }
  for (Lbn lbn = 54'000; lbn < 60'000; ++lbn) ASSERT_EQ(*l.lbn_at(l.locate(lbn)), lbn);
  EXPECT_EQ(*l.lbn_at(l.locate(l.blocks() - 1)), l.blocks() - 1);
}

TEST(ZonedLayoutTest, TrackSkewOffsetsEachTrack) {
  const ZonedLayout l(atlas());
  EXPECT_EQ(l.sector_slot(0, 0, 0), 0);
  EXPECT_EQ(l.sector_slot(0, 1, 0), 63);  // one track switch
  // Cylinder 1 (first track on surface 5): 5 track skews + 1 cylinder skew.
  EXPECT_EQ(l.sector_slot(1, 5, 0), (5 * 63 + 113) % 334);
}

// --- Mechanics ---------------------------------------------------------------

TEST(ZonedDiskTest, SeekCurveHitsTheMeasuredPoints) {
  const ZonedDisk d(atlas());
  EXPECT_EQ(d.seek_ns(0), 0);
  EXPECT_EQ(d.seek_ns(1), 1'245'000);
  EXPECT_EQ(d.seek_ns(10), 1'531'000);
  EXPECT_EQ(d.seek_ns(11), (1'531'000 + 1'515'000) / 2);  // between 10 and 12
  EXPECT_EQ(d.seek_ns(5000), 6'814'000);
  EXPECT_EQ(d.seek_ns(10021), 10'828'000);
  // Past the last point: the last two points' line (10000: 10.464, 10021: 10.828 ms).
  EXPECT_NEAR(ns(d.seek_ns(10041)), 10'828'000 + 20 * (364'000 / 21.0), 1);
}

TEST(ZonedDiskTest, SequentialStreamRunsAtTheZonesMediaRate) {
  // A whole cylinder of zone 0 from its first sector: six revolutions of data.
  const ZonedDisk d(atlas());
  const MediaPass p = d.media_pass(0, 2004, Op::kRead, 0, {0, 0});
  EXPECT_EQ(p.seek_ns, 0);
  EXPECT_EQ(p.latency_ns, 0);
  EXPECT_NEAR(ns(p.transfer_ns), 6 * d.revolution_ns(), 6);
  // With zero-latency access the head reads a track from wherever it lands after the
  // 0.176 ms head switch: each of the five switches costs the switch and the rest of
  // the sector it lands in.
  EXPECT_GE(p.switch_ns, 5 * 176'000);
  EXPECT_LE(ns(p.switch_ns), 5 * (176'000 + zone0_sector_ns()));
  // 334 sectors per revolution plus a head switch: 27.9 MB/s off the media.
  const double mb_s = 2004 * 512.0 / (ns(p.end_ns) * 1e-9) / 1e6;
  EXPECT_NEAR(mb_s, 2004 * 512 / ((6 * d.revolution_ns() + 5 * 176'000) * 1e-9) / 1e6, 0.05);
  // Without it, each switch waits for the 63-sector track skew: 334 sectors per 397.
  ZonedDiskParams plain = atlas();
  plain.zero_latency = false;
  const MediaPass q = ZonedDisk(plain).media_pass(0, 2004, Op::kRead, 0, {0, 0});
  EXPECT_NEAR(ns(q.switch_ns), 5 * 63 * zone0_sector_ns(), 10);
}

TEST(ZonedDiskTest, TrackSwitchWithoutSkewMissesARevolution) {
  ZonedDiskParams p = atlas();
  for (DiskZone& z : p.zones) z.track_skew_sectors = 0;
  const ZonedDisk d(p);
  // LBNs 333 and 334 on two surfaces: the head switch (0.176 ms) lets sector 0 of the
  // next track, which starts where sector 333 ended, pass: a whole revolution.
  const MediaPass m = d.media_pass(333, 2, Op::kRead, 0, {0, 0});
  EXPECT_NEAR(ns(m.switch_ns), d.revolution_ns(), 4);
  // With the preset's 63-sector skew the switch is hidden inside the skew.
  const ZonedDisk skewed(atlas());
  const MediaPass s = skewed.media_pass(333, 2, Op::kRead, 0, {0, 0});
  EXPECT_NEAR(ns(s.switch_ns), 63 * zone0_sector_ns(), 4);
}

TEST(ZonedDiskTest, WritesSettleAfterAnyMove) {
  const ZonedDisk d(atlas());
  const MediaPass r = d.media_pass(2004 * 100, 1, Op::kRead, 0, {0, 0});
  const MediaPass w = d.media_pass(2004 * 100, 1, Op::kWrite, 0, {0, 0});
  EXPECT_EQ(r.seek_ns, d.seek_ns(100));
  EXPECT_EQ(w.settle_ns, 487'000);
  EXPECT_EQ(r.settle_ns, 0);
}

TEST(ZonedDiskTest, ZeroLatencyReadOfAWholeTrackTakesOneRevolution) {
  const ZonedDisk d(atlas());
  // The head lands 100.5 sectors into track 0: it starts at sector 101 and has the
  // whole track one revolution after that boundary.
  const Ns start = std::llround(100.5 * zone0_sector_ns());
  const MediaPass p = d.media_pass(0, 334, Op::kRead, start, {0, 0});
  EXPECT_NEAR(ns(p.end_ns - start), 0.5 * zone0_sector_ns() + d.revolution_ns(), 4);
  ZonedDiskParams plain = atlas();
  plain.zero_latency = false;
  const MediaPass q = ZonedDisk(plain).media_pass(0, 334, Op::kRead, start, {0, 0});
  EXPECT_NEAR(ns(q.end_ns - start), 2 * d.revolution_ns() - 100.5 * zone0_sector_ns(), 4);
}

// --- Cache -------------------------------------------------------------------

TEST(ZonedDiskTest, ReadAheadHitCostsNoMechanicalTime) {
  ZonedDisk d(atlas());
  const Breakdown miss = d.service(req(1000, 8), 0);
  EXPECT_GT(miss.seek_x_ns + miss.seek_y_ns, 0);
  // 20 ms later the read-ahead has the rest of the track.
  const Ns later = miss.service_ns() + 20'000'000;
  const Breakdown hit = d.service(req(1008, 8), later);
  EXPECT_EQ(hit.seek_x_ns, 0);
  EXPECT_EQ(hit.seek_y_ns, 0);
  EXPECT_EQ(hit.switch_ns, 0);
  // The read hit overhead and the blocks over the interface, nothing else.
  EXPECT_EQ(hit.service_ns(), 184'000 + 8 * 99'000);
}

TEST(ZonedDiskTest, ReadAheadStopsAtTheTrackAfterTheRequest) {
  ZonedDisk d(atlas());
  const Breakdown miss = d.service(req(0, 8), 0);
  const Ns later = miss.service_ns() + 50'000'000;
  // Random read: the read-ahead ends at the end of the request's track (LBN 333), so
  // the next track is a miss that needs a head switch.
  const Breakdown end_of_track = d.service(req(326, 8), later);
  EXPECT_EQ(end_of_track.seek_x_ns, 0);
  const Breakdown next_track = d.service(req(334, 8), later + end_of_track.service_ns());
  EXPECT_EQ(next_track.seek_x_ns, 176'000);
}

TEST(ZonedDiskTest, WriteBackCompletesBeforeTheMediaIsWritten) {
  ZonedDisk d(atlas());
  const Breakdown w = d.service(req(5'000'000, 8, Op::kWrite), 0);
  // Overhead after a read (the disk starts as if after one) and the interface.
  EXPECT_EQ(w.service_ns(), 186'000 + 8 * 99'000);
  EXPECT_GT(d.media_busy_until_ns(), w.service_ns() + d.seek_ns(1));
  // A read right after waits for the media write to end (fast write level 2).
  const Breakdown r = d.service(req(100, 1), w.service_ns());
  EXPECT_GE(w.service_ns() + r.service_ns(), d.media_busy_until_ns());
  // Without write-back the write itself waits for the media.
  ZonedDiskParams p = atlas();
  p.cache.write_back = false;
  ZonedDisk through(p);
  const Breakdown t = through.service(req(5'000'000, 8, Op::kWrite), 0);
  EXPECT_GT(t.service_ns(), d.seek_ns(1));
  EXPECT_GT(t.settle_ns, 0);
}

TEST(ZonedDiskTest, WrittenBlocksAreReadFromTheCache) {
  ZonedDisk d(atlas());
  const Breakdown w = d.service(req(70'000, 8, Op::kWrite), 0);
  const Ns after = d.media_busy_until_ns() + 1'000'000;
  (void)w;
  const Breakdown r = d.service(req(70'000, 8), after);
  EXPECT_EQ(r.seek_x_ns + r.seek_y_ns, 0);
  EXPECT_EQ(r.service_ns(), 184'000 + 8 * 99'000);
}

TEST(ZonedDiskTest, FactoryBuildsBothPresets) {
  for (const std::string& name : disk_preset_names()) {
    EXPECT_TRUE(is_zoned_disk(name));
    auto dev = make_disk_device(name, "fcfs");
    ASSERT_TRUE(dev) << name;
  }
  EXPECT_FALSE(is_zoned_disk("g2"));
}

}  // namespace
}  // namespace memstore::model
