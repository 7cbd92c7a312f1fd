#include "model/mems_mechanism.h"

#include <gtest/gtest.h>

#include <cmath>

namespace memstore::model {
namespace {

constexpr Ns kG2RowNs = 128'571;  // 90 bits at 700 kbit/s, rounded

Request read(Lbn lbn, std::int32_t blocks) {
  Request r;
  r.lbn = lbn;
  r.blocks = blocks;
  return r;
}

// A mechanism that has already spun up and read `lbn` (so tests see no startup).
MemsMechanism warmed_up(const DeviceParams& p, Lbn lbn = 0) {
  MemsMechanism m(p);
  m.service(read(lbn, 1), 0);
  return m;
}

TEST(MemsMechanism, OneRowOfTenBlocksTransfersIn128us) {
  MemsMechanism m(*preset("g2"));
  const Breakdown b = m.service(read(0, 10), 0);
  EXPECT_EQ(b.media_steps, 1);
  EXPECT_EQ(b.transfer_ns, kG2RowNs);
  EXPECT_EQ(b.switch_ns, 0);
}

TEST(MemsMechanism, ElevenBlocksNeedTwoRowsStreamedWithoutSeek) {
  MemsMechanism m = warmed_up(*preset("g2"));
  const Breakdown b = m.service(read(10, 11), 0);
  EXPECT_EQ(b.media_steps, 2);
  EXPECT_EQ(b.transfer_ns, 2 * kG2RowNs + 1);  // 257.143 us, rounded once
  EXPECT_EQ(b.switch_ns, 0);                   // rows chain in the direction of travel
}

TEST(MemsMechanism, FirstRequestPaysStartup) {
  MemsMechanism m(*preset("g2"));
  EXPECT_TRUE(m.inactive());
  EXPECT_EQ(m.service(read(0, 1), 0).startup_ns, 500'000);
  EXPECT_EQ(m.service(read(1, 1), 600'000).startup_ns, 0);
}

TEST(MemsMechanism, SequentialRequestsStreamWithZeroSeek) {
  MemsMechanism m = warmed_up(*preset("g2"), 0);
  // The sled stopped at the end of row 0 moving up; LBN 1..9 are in that row
  // (already passed), LBN 10 starts the next row exactly where the sled is.
  const Breakdown b = m.service(read(10, 10), 1'000'000);
  EXPECT_EQ(b.seek_ns, 0);
  EXPECT_EQ(b.turnarounds, 0);
}

TEST(MemsMechanism, FullTrackIs27RowsWithoutSwitches) {
  MemsMechanism m = warmed_up(*preset("g2"), 0);
  const Breakdown b = m.service(read(0, 270), 1'000'000);
  EXPECT_EQ(b.media_steps, 27);
  EXPECT_EQ(b.switch_ns, 0);
  // Thesis §2.2: a track takes 3.47 ms of media time (27 x 128.6 us).
  EXPECT_EQ(b.transfer_ns, std::llround(27 * 90.0 / 700'000 * 1e9));
}

TEST(MemsMechanism, CrossingATrackCostsATurnaround) {
  MemsMechanism m = warmed_up(*preset("g2"), 0);
  // Rows 26 of track 0 and 0 of track 1 (reversed) lie at the same Y edge.
  const Breakdown b = m.service(read(260, 20), 1'000'000);
  EXPECT_EQ(b.media_steps, 2);
  EXPECT_GE(b.turnarounds, 1);
  EXPECT_GT(b.switch_ns, 0);
  // The switch is a turnaround (plus the servo overshoot): well under a settle.
  EXPECT_LT(b.switch_ns, 100'000);
}

TEST(MemsMechanism, PartialRowsAcrossATrackBoundaryShareOneStep) {
  MemsMechanism m = warmed_up(*preset("g2"), 0);
  // LBNs 265..274: the last 5 of track 0 and the first 5 of track 1 sit at
  // the same (x, y) in different squares: one parallel access.
  const Breakdown b = m.service(read(265, 10), 1'000'000);
  EXPECT_EQ(b.media_steps, 1);
  EXPECT_EQ(b.transfer_ns, kG2RowNs);
}

TEST(MemsMechanism, CylinderSwitchCostsOneCylinderSeekWithSettle) {
  MemsMechanism m = warmed_up(*preset("g2"), 0);
  const Breakdown b = m.service(read(2690, 20), 1'000'000);  // cylinders 0 and 1
  EXPECT_EQ(b.media_steps, 2);
  EXPECT_GE(b.settle_ns, 215'000);
  EXPECT_GT(b.switch_ns, 215'000);

  DeviceParams p = *preset("g2");
  p.cylinder_switch = CylinderSwitch::kMinTurnaround;
  MemsMechanism fast = warmed_up(p, 0);
  const Breakdown f = fast.service(read(2690, 20), 1'000'000);
  EXPECT_EQ(f.settle_ns, b.settle_ns - 215'365);  // the switch's settle is gone
  EXPECT_LT(f.switch_ns, 100'000);
}

TEST(MemsMechanism, BidirectionalPicksTheSoonerDirection) {
  MemsMechanism m = warmed_up(*preset("g2"), 0);
  // The sled is at the end of row 0 moving up. Row 0 itself is behind it:
  // reading it downward needs only a reversal in place, upward needs two.
  const PhysicalAddress a = m.geometry().to_physical(0);
  const Positioning p = m.position_for(m.state(), a.x, a.y, +1);
  EXPECT_EQ(p.dir, -1);
  EXPECT_EQ(p.y.turnarounds, 1);
}

TEST(MemsMechanism, UnidirectionalAccessesOnlyUpward) {
  MemsMechanism m = warmed_up(*preset("g1"), 0);
  // Track 1 runs down in LBN order; G1 still reads every row moving up.
  m.service(read(m.geometry().st() + 5, 30), 1'000'000);
  EXPECT_EQ(m.state().y_dir, +1);
  const PhysicalAddress a = m.geometry().to_physical(0);
  EXPECT_EQ(m.position_for(m.state(), a.x, a.y, -1).dir, +1);
}

TEST(MemsMechanism, PositioningEstimateIsPureAndMatchesService) {
  MemsMechanism m = warmed_up(*preset("g2"), 1000);
  const SledState before = m.state();
  const Ns estimate = m.positioning_ns(read(3'000'000, 8), 1'000'000);
  EXPECT_EQ(m.positioning_ns(read(3'000'000, 8), 1'000'000), estimate);
  EXPECT_EQ(m.state(), before);
  EXPECT_EQ(m.service(read(3'000'000, 8), 1'000'000).seek_ns, estimate);
}

TEST(MemsMechanism, BreakdownAddsUp) {
  MemsMechanism m = warmed_up(*preset("g2"), 0);
  const Breakdown b = m.service(read(4'000'123, 300), 1'000'000);
  EXPECT_EQ(b.service_ns(), b.startup_ns + b.seek_ns + b.switch_ns + b.transfer_ns);
  // One row, one positioning: total = max(X + settle, Y + turnarounds)
  // (Eq. 3.1), up to the rounding of each part to whole ns.
  const Breakdown one = m.service(read(1'234'567, 1), 10'000'000);
  const Ns x = one.seek_x_ns + one.settle_ns;
  const Ns y = one.seek_y_ns + one.turnaround_ns;
  EXPECT_NEAR(static_cast<double>(one.seek_ns), static_cast<double>(std::max(x, y)), 2.0);
}

TEST(MemsMechanism, DiskSimVariantTransfersTwentyBlocksPerRow) {
  DeviceParams p = *preset("g2");
  p.active_tips = 1280;
  MemsMechanism m(p);
  const Breakdown b = m.service(read(0, 20), 0);
  EXPECT_EQ(b.media_steps, 1);
  EXPECT_EQ(b.transfer_ns, kG2RowNs);
}

}  // namespace
}  // namespace memstore::model

namespace memstore::model {
namespace {

// SPTF prunes with these bounds; a bound above the exact positioning would
// make it pick a worse request.
TEST(MemsMechanism, PositioningLowerBoundsNeverExceedTheExactValue) {
  for (const char* name : {"g1", "g2", "g3"}) {
    MemsMechanism m = warmed_up(*preset(name), 1'234'567 % preset(name)->tips);
    std::uint64_t x = 88172645463325252ull;  // xorshift: a fixed spread of targets
    for (int i = 0; i < 5000; ++i) {
      x ^= x << 13;
      x ^= x >> 7;
      x ^= x << 17;
      const Request r = read(static_cast<Lbn>(x % static_cast<std::uint64_t>(m.blocks() - 8)), 8);
      const Ns exact = m.positioning_ns(r, 1'000'000);
      ASSERT_LE(m.positioning_lower_bound_ns(r, 1'000'000, Mechanism::Bound::kCoarse), exact);
      ASSERT_LE(m.positioning_lower_bound_ns(r, 1'000'000, Mechanism::Bound::kTight), exact);
    }
  }
}

}  // namespace
}  // namespace memstore::model
