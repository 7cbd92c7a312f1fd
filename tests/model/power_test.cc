// SPDX-License-Identifier: Apache-2.0
// Power states and energy (second paper §3.1, Fig. 3): the meter's charge per
// state, the idle timeout, and the accounting a MEMStore sled feeds it.
#include "model/power.h"

#include <gtest/gtest.h>

#include <algorithm>
#include <cstdint>

#include "model/mems_mechanism.h"
#include "model/params.h"

namespace memstore::model {
namespace {

constexpr Ns kMs = 1'000'000;
constexpr Ns kSecond = 1'000'000'000;

PowerParams meter_params() {
  PowerParams p;
  p.tip_active_w = 0.002;
  p.sled_motion_w = 0.1;
  p.inactive_w = 0.05;
  p.startup_ns = 500'000;
  p.startup_j = 5e-5;
  p.idle_timeout_ns = 100 * kMs;
  p.idle_tips = 0;
  return p;
}

Ns time_in(const EnergyReport& e, PowerState s) {
  return e.time_ns[static_cast<int>(s)];
}
double energy_in(const EnergyReport& e, PowerState s) {
  return e.energy_j[static_cast<int>(s)];
}
Ns total_time(const EnergyReport& e) {
  Ns t = 0;
  for (Ns x : e.time_ns) t += x;
  return t;
}

// --- The meter -------------------------------------------------------------

TEST(PowerMeterTest, InactiveChargesInactiveWatts) {
  PowerMeter m(meter_params());
  m.add(PowerState::kInactive, 2 * kSecond);
  EXPECT_EQ(time_in(m.report(), PowerState::kInactive), 2 * kSecond);
  EXPECT_DOUBLE_EQ(energy_in(m.report(), PowerState::kInactive), 0.05 * 2);
}

TEST(PowerMeterTest, IdleChargesSledMotionPlusIdleTips) {
  PowerParams p = meter_params();
  p.idle_tips = 4;
  PowerMeter m(p);
  m.add(PowerState::kIdle, 500 * kMs);
  EXPECT_EQ(time_in(m.report(), PowerState::kIdle), 500 * kMs);
  EXPECT_DOUBLE_EQ(energy_in(m.report(), PowerState::kIdle), (0.1 + 4 * 0.002) * 0.5);
}

TEST(PowerMeterTest, SeekChargesSledMotionOnlyWhateverTheTips) {
  PowerMeter m(meter_params());
  m.add(PowerState::kSeek, 250 * kMs, 640);
  EXPECT_DOUBLE_EQ(energy_in(m.report(), PowerState::kSeek), 0.1 * 0.25);
}

TEST(PowerMeterTest, AccessChargesSledMotionPlusEachActiveTip) {
  PowerMeter m(meter_params());
  m.add(PowerState::kAccess, kMs, 640);
  m.add(PowerState::kAccess, kMs, 64);
  EXPECT_EQ(time_in(m.report(), PowerState::kAccess), 2 * kMs);
  EXPECT_DOUBLE_EQ(energy_in(m.report(), PowerState::kAccess),
                   (0.1 + 640 * 0.002) * 1e-3 + (0.1 + 64 * 0.002) * 1e-3);
}

TEST(PowerMeterTest, EachStartupCostsStartupEnergyAndTime) {
  PowerMeter m(meter_params());
  m.startup();
  m.startup();
  m.startup();
  EXPECT_EQ(m.report().startups, 3);
  EXPECT_EQ(time_in(m.report(), PowerState::kStartup), 3 * 500'000);
  EXPECT_DOUBLE_EQ(energy_in(m.report(), PowerState::kStartup), 3 * 5e-5);
}

TEST(PowerMeterTest, EmptyOrNegativeIntervalsChargeNothing) {
  PowerMeter m(meter_params());
  m.add(PowerState::kSeek, 0);
  m.add(PowerState::kAccess, -5, 64);
  EXPECT_EQ(total_time(m.report()), 0);
  EXPECT_DOUBLE_EQ(m.report().total_j(), 0.0);
}

TEST(PowerMeterTest, TotalIsTheSumOfTheStates) {
  PowerMeter m(meter_params());
  m.add(PowerState::kInactive, kSecond);
  m.add(PowerState::kSeek, kSecond);
  m.startup();
  EXPECT_DOUBLE_EQ(m.report().total_j(), 0.05 + 0.1 + 5e-5);
}

// --- Gaps and the idle timeout ---------------------------------------------

TEST(PowerGapTest, TimeoutMinusOneNeverSpinsDown) {
  PowerParams p = meter_params();
  p.idle_timeout_ns = -1;
  PowerMeter m(p);
  EXPECT_FALSE(m.gap(10 * kSecond, false));
  EXPECT_EQ(time_in(m.report(), PowerState::kIdle), 10 * kSecond);
  EXPECT_EQ(time_in(m.report(), PowerState::kInactive), 0);
}

TEST(PowerGapTest, GapThatBeginsInactiveStaysInactive) {
  PowerParams p = meter_params();
  p.idle_timeout_ns = -1;
  PowerMeter m(p);
  EXPECT_TRUE(m.gap(3 * kMs, true));
  EXPECT_EQ(time_in(m.report(), PowerState::kInactive), 3 * kMs);
  EXPECT_EQ(time_in(m.report(), PowerState::kIdle), 0);
  EXPECT_TRUE(m.gap(0, true));  // still spun down: the next request pays a startup
}

TEST(PowerGapTest, AggressiveTimeoutSpinsDownOnAnyPositiveGapOnly) {
  PowerParams p = meter_params();
  p.idle_timeout_ns = 0;
  PowerMeter m(p);
  EXPECT_FALSE(m.gap(0, false));
  EXPECT_EQ(total_time(m.report()), 0);
  EXPECT_TRUE(m.gap(1, false));
  EXPECT_EQ(time_in(m.report(), PowerState::kIdle), 0);
  EXPECT_EQ(time_in(m.report(), PowerState::kInactive), 1);
}

TEST(PowerGapTest, TimeoutSplitsTheGapIntoIdleThenInactive) {
  PowerMeter m(meter_params());  // 100 ms
  EXPECT_TRUE(m.gap(250 * kMs, false));
  EXPECT_EQ(time_in(m.report(), PowerState::kIdle), 100 * kMs);
  EXPECT_EQ(time_in(m.report(), PowerState::kInactive), 150 * kMs);
  EXPECT_DOUBLE_EQ(energy_in(m.report(), PowerState::kIdle), 0.1 * 0.1);
  EXPECT_DOUBLE_EQ(energy_in(m.report(), PowerState::kInactive), 0.05 * 0.15);
}

TEST(PowerGapTest, GapOfExactlyTheTimeoutStaysIdle) {
  PowerMeter m(meter_params());
  EXPECT_FALSE(m.gap(100 * kMs, false));
  EXPECT_EQ(time_in(m.report(), PowerState::kIdle), 100 * kMs);
  EXPECT_EQ(time_in(m.report(), PowerState::kInactive), 0);
}

// --- Through a G2 sled ------------------------------------------------------

Request at(Lbn lbn, std::int32_t blocks = 1) {
  Request r;
  r.lbn = lbn;
  r.blocks = blocks;
  return r;
}

TEST(PowerSledTest, NewSledStartsInactiveSoTheFirstRequestPaysAStartup) {
  const DeviceParams p = *preset("g2");
  MemsMechanism m(p);
  EXPECT_TRUE(m.inactive());
  const Breakdown b = m.service(at(1'000'000), kMs);
  EXPECT_EQ(b.startup_ns, 500'000);
  EXPECT_FALSE(m.inactive());
  const EnergyReport e = m.energy(kMs + b.service_ns());
  EXPECT_EQ(e.startups, 1);
  EXPECT_EQ(time_in(e, PowerState::kStartup), 500'000);
  EXPECT_EQ(time_in(e, PowerState::kInactive), kMs);  // spun down until the request
  EXPECT_DOUBLE_EQ(energy_in(e, PowerState::kStartup), p.power.startup_j);
}

TEST(PowerSledTest, BackToBackRequestsPayNoStartup) {
  MemsMechanism m(*preset("g2"));
  Ns now = 0;
  now += m.service(at(1'000'000), now).service_ns();
  const Breakdown second = m.service(at(5'000'000, 8), now);
  EXPECT_EQ(second.startup_ns, 0);
  now += second.service_ns();
  EXPECT_EQ(m.energy(now).startups, 1);
}

TEST(PowerSledTest, GapLongerThanTheTimeoutPaysAStartupAgain) {
  MemsMechanism m(*preset("g2"));  // 100 ms timeout
  Ns now = m.service(at(1'000'000), 0).service_ns();
  now += 100 * kMs;  // exactly the timeout: still idle
  const Breakdown kept = m.service(at(2'000'000), now);
  EXPECT_EQ(kept.startup_ns, 0);
  now += kept.service_ns() + 100 * kMs + 1;
  const Breakdown restarted = m.service(at(3'000'000), now);
  EXPECT_EQ(restarted.startup_ns, 500'000);
  EXPECT_EQ(m.energy(now + restarted.service_ns()).startups, 2);
}

TEST(PowerSledTest, AggressiveSpinDownPaysAStartupAfterAnyGap) {
  DeviceParams p = *preset("g2");
  p.power.idle_timeout_ns = 0;
  MemsMechanism m(p);
  Ns now = m.service(at(1'000'000), 0).service_ns();
  const Breakdown back_to_back = m.service(at(1'000'100), now);
  EXPECT_EQ(back_to_back.startup_ns, 0);
  now += back_to_back.service_ns() + 1;
  EXPECT_EQ(m.service(at(4'000'000), now).startup_ns, 500'000);
}

TEST(PowerSledTest, RestartedSledPositionsFromRestLikeANewOne) {
  const DeviceParams p = *preset("g2");
  MemsMechanism fresh(p);
  MemsMechanism used(p);
  const Ns done = used.service(at(6'000'000), 0).service_ns();
  const Ns later = done + 200 * kMs;
  const Request r = at(2'500'000);
  EXPECT_EQ(used.positioning_ns(r, later), fresh.positioning_ns(r, 0));
  EXPECT_EQ(used.service(r, later).seek_ns, fresh.service(r, 0).seek_ns);
}

TEST(PowerSledTest, EnergyUntilChargesTheTrailingIdleThenInactiveTime) {
  const DeviceParams p = *preset("g2");
  MemsMechanism m(p);
  const Breakdown b = m.service(at(1'000'000), 0);
  const Ns done = b.service_ns();
  const EnergyReport e = m.energy(done + 250 * kMs);
  EXPECT_EQ(time_in(e, PowerState::kIdle), 100 * kMs);
  EXPECT_EQ(time_in(e, PowerState::kInactive), 150 * kMs);
  EXPECT_DOUBLE_EQ(energy_in(e, PowerState::kIdle), p.power.sled_motion_w * 0.1);
  EXPECT_DOUBLE_EQ(energy_in(e, PowerState::kInactive), p.power.inactive_w * 0.15);
  // Asking does not change the sled: a later request still sees it idle.
  EXPECT_EQ(m.energy(done + 250 * kMs).time_ns[static_cast<int>(PowerState::kIdle)], 100 * kMs);
  EXPECT_EQ(m.service(at(1'000'100), done + 50 * kMs).startup_ns, 0);
}

TEST(PowerSledTest, AccessChargesOnlyTheTipsOfTheBlocksRead) {
  const DeviceParams p = *preset("g2");
  MemsMechanism m(p);
  const Breakdown b = m.service(at(1'000'000), 0);  // one block: 64 tips, one row
  ASSERT_EQ(b.media_steps, 1);
  const EnergyReport e = m.energy(b.service_ns());
  EXPECT_EQ(time_in(e, PowerState::kAccess), b.transfer_ns);
  EXPECT_DOUBLE_EQ(energy_in(e, PowerState::kAccess),
                   (p.power.sled_motion_w + 64 * p.power.tip_active_w) *
                       (static_cast<double>(b.transfer_ns) * 1e-9));
}

TEST(PowerSledTest, TimeInAllStatesSumsToUntil) {
  MemsMechanism m(*preset("g2"));
  const Ns arrivals[] = {3 * kMs, 3 * kMs, 20 * kMs, 400 * kMs, 401 * kMs};
  const Lbn lbns[] = {10, 6'000'000, 3'000'000, 77'777, 5'432'100};
  Ns free_at = 0, seek = 0, transfer = 0;
  for (int i = 0; i < 5; ++i) {
    const Ns start = std::max(free_at, arrivals[i]);
    const Breakdown b = m.service(at(lbns[i], 100), start);
    seek += b.seek_ns + b.switch_ns;
    transfer += b.transfer_ns;
    free_at = start + b.service_ns();
  }
  const Ns until = free_at + 37 * kMs;
  const EnergyReport e = m.energy(until);
  EXPECT_EQ(total_time(e), until);
  EXPECT_EQ(time_in(e, PowerState::kSeek), seek);
  EXPECT_EQ(time_in(e, PowerState::kAccess), transfer);
  EXPECT_EQ(e.startups, 2);  // at 3 ms and after the 380 ms gap
  EXPECT_EQ(time_in(e, PowerState::kStartup), 2 * 500'000);
}

}  // namespace
}  // namespace memstore::model
