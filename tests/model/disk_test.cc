// SPDX-License-Identifier: Apache-2.0
// The comparison disks of the specificity test (thesis §5.1.5): Überdisk
// (Table 5.1) and Simpledisk.
#include <gtest/gtest.h>

#include <cstdint>
#include <memory>
#include <ostream>
#include <random>
#include <vector>

#include "model/device_factory.h"
#include "model/disk_simple.h"
#include "model/disk_uber.h"

namespace memstore::model {

// Readable failure messages for locate().
void PrintTo(const DiskAddress& a, std::ostream* os) {
  *os << "{cylinder " << a.cylinder << ", surface " << a.surface << ", sector " << a.sector << "}";
}

namespace {

Request at(Lbn lbn, std::int32_t blocks = 1) {
  Request r;
  r.lbn = lbn;
  r.blocks = blocks;
  return r;
}

// --- Überdisk --------------------------------------------------------------

TEST(UberdiskTest, GeometryFollowsTable51) {
  const Uberdisk d{UberdiskParams{}};
  // 41.6 GB / 512 B / (39511 cylinders * 2 surfaces) = 1028.2 -> 1028.
  EXPECT_EQ(d.sectors_per_track(), 1028);
  EXPECT_EQ(d.revolution_ns(), 1'090'909);  // 60 s / 55,000
  EXPECT_EQ(d.blocks(), 6'750'000);         // only G2's 3.456 GB exposed
  EXPECT_TRUE(validate(UberdiskParams{}).empty());
}

TEST(UberdiskTest, SeekCurvePassesThroughPublishedPoints) {
  const Uberdisk d{UberdiskParams{}};
  EXPECT_EQ(d.seek_ns(0), 0);
  EXPECT_EQ(d.seek_ns(1), 100'000);         // one-cylinder seek
  EXPECT_EQ(d.seek_ns(39'510), 2'000'000);  // full stroke
  // Square-root shape in between: rises fast, then flattens.
  EXPECT_GT(d.seek_ns(100), d.seek_ns(10));
  EXPECT_GT(d.seek_ns(100) - d.seek_ns(10), d.seek_ns(1000) - d.seek_ns(910));
}

TEST(UberdiskTest, LbnsFillTrackThenSurfaceThenCylinder) {
  const Uberdisk d{UberdiskParams{}};
  EXPECT_EQ(d.locate(0), (DiskAddress{0, 0, 0}));
  EXPECT_EQ(d.locate(1027), (DiskAddress{0, 0, 1027}));
  EXPECT_EQ(d.locate(1028), (DiskAddress{0, 1, 0}));
  EXPECT_EQ(d.locate(2055), (DiskAddress{0, 1, 1027}));
  EXPECT_EQ(d.locate(2056), (DiskAddress{1, 0, 0}));
  EXPECT_EQ(d.locate(6'749'999), (DiskAddress{3283, 0, 151}));
}

TEST(UberdiskTest, SectorUnderTheHeadHasNoLatencyAndTheOneBehindAlmostARevolution) {
  const Uberdisk d{UberdiskParams{}};
  const Ns rev = d.revolution_ns();
  // Before any service the platter turns from angle 0 at time 0.
  EXPECT_EQ(d.angle_at_ns(2 * rev + 7), 7);
  EXPECT_EQ(d.positioning_ns(at(0), 0), 0);
  // Sector 5 of track 0 starts under the head, two revolutions later.
  const Ns now = 2 * rev + d.sector_angle_ns(5);
  EXPECT_EQ(d.positioning_ns(at(5), now), 0);
  const Ns sector_ns = d.sector_angle_ns(5) - d.sector_angle_ns(4);
  EXPECT_EQ(d.positioning_ns(at(4), now), rev - sector_ns);
}

TEST(UberdiskTest, TracksAreSkewedByTheSwitchBetweenThem) {
  const Uberdisk d{UberdiskParams{}};
  EXPECT_EQ(d.sector_angle_ns(0), 0);
  EXPECT_EQ(d.sector_angle_ns(1028), 10'000);          // surface 1: one head switch
  EXPECT_EQ(d.sector_angle_ns(2056), 110'000);         // cylinder 1: + one-cylinder seek
  EXPECT_EQ(d.sector_angle_ns(2056 + 1028), 120'000);  // cylinder 1, surface 1
  EXPECT_EQ(d.sector_angle_ns(2056 + 514), 110'000 + 545'454);
  // The skew wraps: cylinder 10 is 10 * 110 us = 1.1 ms > one revolution.
  EXPECT_EQ(d.sector_angle_ns(10 * 2056), 1'100'000 - d.revolution_ns());
}

TEST(UberdiskTest, SurfaceChangeCostsAHeadSwitchCylinderChangeASeek) {
  Uberdisk d{UberdiskParams{}};
  // Track 1 (surface 1) of cylinder 0, sector 10.
  const Ns latency = d.rotational_latency_ns(1028 + 10, d.angle_at_ns(10'000));
  EXPECT_EQ(latency, d.sector_angle_ns(1028 + 10) - 10'000);  // the skew is the switch
  Breakdown b = d.service(at(1028 + 10), 0);
  EXPECT_EQ(b.seek_x_ns, 10'000);
  EXPECT_EQ(b.seek_y_ns, latency);
  EXPECT_EQ(b.seek_ns, b.seek_x_ns + b.seek_y_ns);
  EXPECT_EQ(b.settle_ns, 0);
  EXPECT_EQ(b.turnarounds, 0);
  EXPECT_EQ(b.media_steps, 1);

  // Then 100 cylinders out: the seek curve, then the rotation.
  const Ns now = 5'000'000;
  const Lbn far = 100 * 2056 + 500;
  const Ns far_latency = d.rotational_latency_ns(far, d.angle_at_ns(now + d.seek_ns(100)));
  b = d.service(at(far), now);
  EXPECT_EQ(b.seek_x_ns, d.seek_ns(100));
  EXPECT_EQ(b.seek_y_ns, far_latency);
}

TEST(UberdiskTest, TransferUsesStreamingBandwidthAndPaysEachBoundary) {
  Uberdisk d{UberdiskParams{}};
  // 8 * 512 B at 100 MB/s.
  EXPECT_EQ(d.service(at(100, 8), 0).transfer_ns, 40'960);
  EXPECT_EQ(d.service(at(100, 8), 0).switch_ns, 0);
  // Sectors 1024..1027 of surface 0, then 0..3 of surface 1: one head switch.
  EXPECT_EQ(d.service(at(1024, 8), 0).switch_ns, 10'000);
  // Last track of cylinder 0 into cylinder 1: a one-cylinder seek.
  EXPECT_EQ(d.service(at(2052, 8), 0).switch_ns, 100'000);
  // Three tracks spanning a cylinder boundary: one of each.
  EXPECT_EQ(d.service(at(1027, 1030), 0).switch_ns, 110'000);
}

TEST(UberdiskTest, PositioningIsPure) {
  Uberdisk d{UberdiskParams{}};
  d.service(at(50'000), 0);
  const MediaPoint before = d.current_point();
  const Ns first = d.positioning_ns(at(3'000'000), 7'000'000);
  EXPECT_EQ(d.positioning_ns(at(3'000'000), 7'000'000), first);
  EXPECT_EQ(d.current_point().u, before.u);
  EXPECT_EQ(d.current_point().v, before.v);
}

TEST(UberdiskTest, ServiceMovesTheHead) {
  Uberdisk d{UberdiskParams{}};
  const Lbn lbn = 100 * 2056 + 1028 + 7;  // cylinder 100, surface 1
  const Breakdown b = d.service(at(lbn), 0);
  EXPECT_DOUBLE_EQ(d.current_point().u, 100.0 / 39'511);
  EXPECT_EQ(d.current_point().u, d.point_of(lbn).u);
  // The angle is just past the sector transferred, i.e. where the next one
  // starts, whatever the transfer took.
  EXPECT_DOUBLE_EQ(d.current_point().v, d.point_of(lbn + 1).v);
  EXPECT_EQ(d.angle_at_ns(b.service_ns()), d.sector_angle_ns(lbn + 1));
  EXPECT_EQ(d.angle_at_ns(b.service_ns() + 1000), d.sector_angle_ns(lbn + 1) + 1000);
  // Same track next: no arm motion, only rotation.
  EXPECT_EQ(d.service(at(lbn + 100), b.service_ns()).seek_x_ns, 0);
}

// The streaming fix: Table 5.1's 100 MB/s transfer is slower than its
// platter (1028 sectors per 1.09 ms), so the angle after a service is the
// data's, not the clock's.
TEST(UberdiskTest, ContinuationRightAfterAServiceHasNoLatency) {
  Uberdisk d{UberdiskParams{}};
  Ns now = 3'000'000;
  Breakdown b = d.service(at(100, 8), now);
  now += b.service_ns();
  EXPECT_EQ(d.rotational_latency_ns(108, d.angle_at_ns(now)), 0);
  EXPECT_EQ(d.positioning_ns(at(108, 8), now), 0);
  // Arriving 1 us late, it waits for the platter to come round again.
  EXPECT_EQ(d.positioning_ns(at(108, 8), now + 1000), d.revolution_ns() - 1000);

  // Ending a track: the next surface costs the head switch and no latency.
  b = d.service(at(1020, 8), now);
  now += b.service_ns();
  EXPECT_EQ(d.positioning_ns(at(1028, 8), now), 10'000);
  // Ending a cylinder: a one-cylinder seek and no latency.
  b = d.service(at(2048, 8), now);
  now += b.service_ns();
  EXPECT_EQ(d.positioning_ns(at(2056, 8), now), 100'000);
}

TEST(UberdiskTest, SequentialReadsStreamAt100MBpsOnAnIdleFcfsDevice) {
  std::unique_ptr<Device> dev = make_disk_device("uberdisk", "fcfs");
  ASSERT_NE(dev, nullptr);
  // 1000 back-to-back 4 KB reads from LBN 0, queued at once on an idle disk.
  constexpr int kRequests = 1000;
  for (int i = 0; i < kRequests; ++i) {
    Request r = at(Lbn{8} * i, 8);
    r.id = static_cast<std::uint64_t>(i);
    dev->submit(r);
  }
  std::vector<Completion> done;
  dev->drain([&done](const Completion& c) { done.push_back(c); });
  ASSERT_EQ(done.size(), static_cast<std::size_t>(kRequests));

  // Within track 0 (requests 0..127): exactly 4096 B / 100 MB/s each.
  for (int i = 0; i < 128; ++i) {
    EXPECT_EQ(done[i].start_ns, 40'960 * i) << "request " << i;
    EXPECT_EQ(done[i].breakdown.service_ns(), 40'960) << "request " << i;
  }
  // 8000 blocks cross 7 track boundaries: the odd ones (1028, 3084, 5140,
  // 7196) inside a request as head switches, the even ones (2056, 4112, 6168)
  // between requests as one-cylinder seeks — never a rotational wait.
  Ns latency_ns = 0;
  for (const Completion& c : done) latency_ns += c.breakdown.seek_y_ns;
  EXPECT_EQ(latency_ns, 0);
  const Ns total_ns = done.back().done_ns;
  EXPECT_EQ(total_ns, kRequests * 40'960 + 4 * 10'000 + 3 * 100'000);
  const double mb_per_s = 8000.0 * 512 / (static_cast<double>(total_ns) / 1e9) / 1e6;
  EXPECT_NEAR(mb_per_s, 100.0, 1.0);  // 99.2 MB/s with the switches
}

TEST(UberdiskTest, PointOfGivesCylinderAndAngle) {
  const Uberdisk d{UberdiskParams{}};
  const MediaPoint p = d.point_of(514);
  EXPECT_DOUBLE_EQ(p.u, 0);
  EXPECT_NEAR(p.v, 0.5, 1e-6);  // halfway round track 0 (545,454 of 1,090,909 ns)
  EXPECT_TRUE(p.runs_up);
  // Cylinder 3 is skewed by 3 * (10 + 100) us.
  const MediaPoint q = d.point_of(2056 * 3 + 514);
  EXPECT_DOUBLE_EQ(q.u, 3.0 / 39'511);
  EXPECT_DOUBLE_EQ(q.v, (545'454.0 + 330'000) / 1'090'909);
}

// Table 5.1 gives an average access time of 0.88 ms over the first 3.46 GB.
// Expected from our model: rotational latency (T - 1 ns) / 2 = 0.5455 ms
// plus the mean seek over uniform LBN pairs (cylinders 0..3283, the last
// holding 152 blocks), a + b * (8/15) sqrt(3283) ≈ 0.384 ms (0.38395 summed
// exactly over the distance distribution), total 0.9294 ms (about 5% above
// the table). The gap is within what the lost seek formula and DiskSim's
// zoning (denser outer tracks shrink the seek span) can explain, so the
// constants stay the published ones. The idle time before each sample is a
// random phase, so the latency is uniform even though the angle after a
// service is the data's.
TEST(UberdiskTest, MeanRandomPositioningMatchesTable51) {
  Uberdisk d{UberdiskParams{}};
  std::mt19937_64 rng(51);
  std::uniform_int_distribution<Lbn> lbn(0, d.blocks() - 1);
  std::uniform_int_distribution<Ns> phase(0, d.revolution_ns() - 1);
  constexpr int kSamples = 200'000;
  double sum_ns = 0;
  Ns now = 0;
  for (int i = 0; i < kSamples; ++i) {
    now += d.service(at(lbn(rng)), now).service_ns() + phase(rng);  // random start
    sum_ns += static_cast<double>(d.positioning_ns(at(lbn(rng)), now));
  }
  const double mean_ms = sum_ns / kSamples / 1e6;
  RecordProperty("mean_positioning_us", static_cast<int>(mean_ms * 1000));
  EXPECT_NEAR(mean_ms, 0.88, 0.88 * 0.15);
  // What the model above predicts. A sample's standard deviation is
  // 0.338 ms, so the mean of 200,000 has a standard error of 0.00076 ms;
  // the tolerance is about 5 of those.
  EXPECT_NEAR(mean_ms, 0.9294, 0.004);
}

TEST(UberdiskTest, ValidateRejectsUnusableParameters) {
  UberdiskParams p;
  p.blocks_used = 200'000'000;  // more than 41.6 GB
  EXPECT_EQ(validate(p).size(), 1u);
  p = UberdiskParams{};
  p.cylinders = 1;
  EXPECT_EQ(validate(p).at(0).key, "cylinders");
}

// --- Simpledisk ------------------------------------------------------------

SimplediskParams linear_1000() {
  SimplediskParams p = simpledisk_linear_defaults();
  p.blocks = 1000;
  p.access_min_ns = 100;
  p.access_max_ns = 1100;
  return p;
}

// The calibration against G2 is in docs/comparison-disks.md.
TEST(SimplediskTest, DefaultsAreCalibratedToG2) {
  const SimplediskParams c = simpledisk_constant_defaults();
  EXPECT_EQ(c.kind, SimplediskParams::Kind::kConstant);
  EXPECT_EQ(c.access_ns, 569'000);  // G2's mean seek
  EXPECT_EQ(c.blocks, 6'750'000);
  const SimplediskParams l = simpledisk_linear_defaults();
  EXPECT_EQ(l.kind, SimplediskParams::Kind::kLinear);
  EXPECT_EQ(l.access_min_ns, 237'000);  // G2's one-cylinder seek + settle
  EXPECT_EQ(l.access_max_ns, 1'233'000);
  // Mean positioning over uniform random pairs equals the constant's.
  EXPECT_EQ(l.access_min_ns + (l.access_max_ns - l.access_min_ns) / 3, c.access_ns);
  EXPECT_DOUBLE_EQ(l.bandwidth_bytes_per_s, 19.457e6);
  EXPECT_DOUBLE_EQ(c.bandwidth_bytes_per_s, l.bandwidth_bytes_per_s);
  EXPECT_TRUE(validate(c).empty());
  EXPECT_TRUE(validate(l).empty());
  EXPECT_FALSE(validate(SimplediskParams{}).empty());  // no bandwidth
}

TEST(SimplediskTest, ConstantCostsTheSameAnywhereButSequentialIsFree) {
  Simpledisk d{simpledisk_constant_defaults()};
  EXPECT_EQ(d.positioning_ns(at(0), 0), 569'000);  // nothing to continue yet
  EXPECT_EQ(d.positioning_ns(at(6'000'000), 0), 569'000);
  const Breakdown b = d.service(at(1000, 8), 0);
  EXPECT_EQ(b.seek_x_ns, 569'000);
  EXPECT_EQ(b.seek_ns, 569'000);
  EXPECT_EQ(b.media_steps, 1);
  EXPECT_EQ(d.positioning_ns(at(1008), 0), 0);        // the next block
  EXPECT_EQ(d.positioning_ns(at(1007), 0), 569'000);  // re-reading is not sequential
  EXPECT_EQ(d.positioning_ns(at(1009), 0), 569'000);
}

TEST(SimplediskTest, LinearGrowsWithLbnDistance) {
  Simpledisk d{linear_1000()};
  EXPECT_EQ(d.positioning_ns(at(0), 0), 100);    // distance 0, not a continuation
  EXPECT_EQ(d.positioning_ns(at(250), 0), 350);  // 100 + 1000 * 250 / 1000
  EXPECT_EQ(d.positioning_ns(at(999), 0), 1099);
  d.service(at(500, 10), 0);                    // head now at 510
  EXPECT_EQ(d.positioning_ns(at(510), 0), 0);   // sequential
  EXPECT_EQ(d.positioning_ns(at(10), 0), 600);  // 100 + 1000 * 500 / 1000
  EXPECT_EQ(d.positioning_ns(at(760), 0), 350);
}

// Over uniform random pairs the linear default positions as fast on average
// as the constant one (G2's mean seek). A sample's standard deviation is
// 0.996 ms * sqrt(1/18) = 0.235 ms, so 100,000 give a standard error of
// 0.00074 ms; the tolerance is about 5 of those.
TEST(SimplediskTest, LinearMeanRandomPositioningEqualsTheConstant) {
  Simpledisk d{simpledisk_linear_defaults()};
  std::mt19937_64 rng(3);
  std::uniform_int_distribution<Lbn> lbn(0, d.blocks() - 1);
  constexpr int kSamples = 100'000;
  double sum_ns = 0;
  for (int i = 0; i < kSamples; ++i) {
    d.service(at(lbn(rng)), 0);
    sum_ns += static_cast<double>(d.positioning_ns(at(lbn(rng)), 0));
  }
  EXPECT_NEAR(sum_ns / kSamples / 1e6, 0.569, 0.004);
}

TEST(SimplediskTest, TransferTimeFromBandwidth) {
  const Simpledisk g2{simpledisk_constant_defaults()};
  // 8 * 512 B at 19.457 MB/s = 210,515.496 ns.
  EXPECT_EQ(g2.transfer_ns(8), 210'515);
  SimplediskParams p = simpledisk_constant_defaults();
  p.bandwidth_bytes_per_s = 4'096'000;  // 8 blocks per ms
  Simpledisk d{p};
  EXPECT_EQ(d.service(at(0, 8), 0).transfer_ns, 1'000'000);
}

TEST(SimplediskTest, PointsFollowLbnAlone) {
  Simpledisk d{linear_1000()};
  EXPECT_DOUBLE_EQ(d.point_of(250).u, 0.25);
  EXPECT_EQ(d.point_of(250).v, 0);
  d.service(at(990, 10), 0);  // head one past the end
  EXPECT_LT(d.current_point().u, 1.0);
}

}  // namespace
}  // namespace memstore::model
