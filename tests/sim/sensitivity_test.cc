// SPDX-License-Identifier: Apache-2.0
// Thesis §3.6 (sim/sensitivity.h): Fig. 3.6's sustained per-tip bandwidth
// and Fig. 3.9's turnaround against displacement.
#include "sim/sensitivity.h"

#include <gtest/gtest.h>

#include <vector>

#include "model/geometry.h"
#include "model/mems_mechanism.h"

namespace memstore::sim {
namespace {

model::DeviceParams preset(const char* name) {
  return *model::preset(name);
}

// Eq. 3.6 by hand for G2 at its 700 kbit/s: v = 0.028 m/s (§2.3), reversed at
// the column's end where the spring adds 75% of the actuator's 82 g, after a
// 2500-bit column at 700 kbit/s.
TEST(TipRate, G2SwitchIsTheMinimumTurnaroundAfterAColumn) {
  const model::DeviceParams g2 = preset("g2");
  const TipRatePoint t = tip_rate_point(g2, 700e3);
  const double v = 700e3 * 40e-9;
  const double turnaround_ms = 2 * v / (g2.sled_accel_m_s2 * (1 + g2.spring_factor)) * 1e3;
  EXPECT_NEAR(t.switch_ms, turnaround_ms, 1e-9);
  EXPECT_NEAR(t.column_ms, g2.region_bits_y / 700e3 * 1e3, 1e-9);
  EXPECT_NEAR(t.sustained_kbit_s, 700 * t.column_ms / (t.column_ms + t.switch_ms), 1e-9);
  EXPECT_LT(t.sustained_kbit_s, 700);
}

// Fig. 3.6's shape: more rate helps at first, then turnarounds dominate, so
// the sustained bandwidth has an interior maximum; the faster-accelerating
// generation peaks higher.
TEST(TipRate, SustainedBandwidthPeaksThenFalls) {
  for (const char* name : {"g1", "g2", "g3"}) {
    const model::DeviceParams p = preset(name);
    std::vector<double> sustained;
    for (double r = 100e3; r <= 100e6; r *= 1.25)
      sustained.push_back(tip_rate_point(p, r).sustained_kbit_s);
    std::size_t best = 0;
    for (std::size_t i = 0; i < sustained.size(); ++i)
      if (sustained[i] > sustained[best]) best = i;
    EXPECT_GT(best, 0u) << name;
    EXPECT_LT(best + 1, sustained.size()) << name;
  }
  EXPECT_GT(tip_rate_point(preset("g3"), 8e6).sustained_kbit_s,
            tip_rate_point(preset("g2"), 8e6).sustained_kbit_s);
}

// G1 reads only moving +Y: its switch goes back across the column (two
// turnarounds and a full-range seek), far longer than G1 made bidirectional.
TEST(TipRate, UnidirectionalSwitchReturnsToTheColumnStart) {
  model::DeviceParams g1 = preset("g1");
  const double uni = tip_rate_point(g1, 400e3).switch_ms;
  g1.bidirectional = true;
  const double bi = tip_rate_point(g1, 400e3).switch_ms;
  EXPECT_GT(uni, 2 * bi);
}

// Fig. 3.9 on G1: without springs the turnaround is 2 v / a everywhere; with
// them it is longer left of centre (they pull against the reversal), shorter
// right of it, equal at the centre, and hurts more than it helps at equal
// distances (§3.6).
TEST(Turnarounds, SpringsHurtLeftOfCentreAndHelpRight) {
  const model::DeviceParams g1 = preset("g1");
  const auto profile = turnaround_profile(g1, 101);
  ASSERT_EQ(profile.size(), 101u);
  const double v = g1.per_tip_rate_bit_s * g1.bit_width_nm * 1e-9;
  const double flat_ms = 2 * v / g1.sled_accel_m_s2 * 1e3;
  for (const TurnaroundPoint& t : profile) EXPECT_NEAR(t.without_springs_ms, flat_ms, 1e-12);
  EXPECT_NEAR(profile.front().displacement_um, -50.0, 1e-9);  // G1's 100 um of travel (§3.2)
  EXPECT_NEAR(profile.back().displacement_um, 50.0, 1e-9);
  EXPECT_NEAR(profile[50].with_springs_ms, flat_ms, 1e-12);
  EXPECT_GT(profile.front().with_springs_ms, flat_ms);
  EXPECT_LT(profile.back().with_springs_ms, flat_ms);
  EXPECT_GT(profile.front().with_springs_ms - flat_ms, flat_ms - profile.back().with_springs_ms);
}

// Fig. 3.7 (scripts/reproduce seek-profile-springs): Fig. 3.2's seeks from the
// corner with spring factor 0.75 minus 0. "Short seeks are made slightly longer
// and long seeks are shorter" (caption): a 100-cylinder X seek from the corner
// gains time with the springs, a 2400-cylinder one loses it.
double corner_seek_ms(double spring_factor, std::int32_t x) {
  model::DeviceParams p = preset("g2");
  p.spring_factor = spring_factor;
  const model::MemsMechanism m(p);
  const model::Geometry& g = m.geometry();
  const model::SledState start = m.state_after_reading(g.to_lbn({0, 0, 0, 0}));
  const model::Lbn to = g.to_lbn({0, x, 0, 0});
  const int dir = model::Geometry::track_runs_up(g.track_of(to)) ? 1 : -1;
  return m.position_for(start, x, 0, dir).total_s * 1e3;
}

TEST(SpringDelta, ShortSeeksFromTheCornerLongerLongOnesShorter) {
  EXPECT_GT(corner_seek_ms(0.75, 100), corner_seek_ms(0, 100));
  EXPECT_LT(corner_seek_ms(0.75, 2400), corner_seek_ms(0, 2400));
}

}  // namespace
}  // namespace memstore::sim
