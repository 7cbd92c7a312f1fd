// SPDX-License-Identifier: Apache-2.0
// Power states and energy accounting of one sled (second paper §3.1, Fig. 3;
// thesis §6.4).
//
//   INACTIVE  sled stopped ("spun down"), inactive_w
//   STARTUP   INACTIVE -> SEEK, startup_ns long, startup_j in all
//   SEEK      actuators moving the sled, all tips off: sled_motion_w
//   ACCESS    sled at access velocity, tips on: sled_motion_w + tips * tip_active_w
//   IDLE      no work, sled keeps sweeping the last sector: sled_motion_w + idle_tips *
//   tip_active_w
//
// The meter is fed intervals in time order by the mechanism and never reads a
// clock.
#pragma once

#include "model/mechanism.h"
#include "model/params.h"

namespace memstore::model {

class PowerMeter {
 public:
  explicit PowerMeter(const PowerParams& p) : p_(p) {}

  // Time spent in a state; for ACCESS, `tips` active tips.
  void add(PowerState s, Ns duration_ns, int tips = 0);
  // add(kSeek, ...) and add(kAccess, ...), inline: the mechanism calls them
  // for every media step, where the call and the switch on the state cost
  // more than the accounting (docs/benchmarks/log/2026-11-27.md, "Toward
  // 40x, second step").
  void add_seek(Ns duration_ns) {
    if (duration_ns <= 0) return;
    constexpr auto i = static_cast<int>(PowerState::kSeek);
    report_.time_ns[i] += duration_ns;
    report_.energy_j[i] += p_.sled_motion_w * (static_cast<double>(duration_ns) * 1e-9);
  }
  void add_access(Ns duration_ns, int tips) {
    if (duration_ns <= 0) return;
    constexpr auto i = static_cast<int>(PowerState::kAccess);
    report_.time_ns[i] += duration_ns;
    const double watts = p_.sled_motion_w + tips * p_.tip_active_w;
    report_.energy_j[i] += watts * (static_cast<double>(duration_ns) * 1e-9);
  }
  void startup() {
    ++report_.startups;
    add(PowerState::kStartup, p_.startup_ns);
  }

  // Splits a gap without work into IDLE, then INACTIVE after the idle
  // timeout. `was_inactive` says whether the gap began spun down (as at time
  // 0). Returns true when the sled is INACTIVE at the end of the gap and a
  // request arriving then must pay a startup.
  bool gap(Ns duration_ns, bool was_inactive);

  const EnergyReport& report() const { return report_; }
  const PowerParams& params() const { return p_; }
  void set_idle_timeout_ns(Ns timeout) { p_.idle_timeout_ns = timeout; }

 private:
  PowerParams p_;
  EnergyReport report_;
};

}  // namespace memstore::model
