// SPDX-License-Identifier: Apache-2.0
// One axis of sled motion: actuator acceleration and the linear spring.
//
// Positions are sled displacements from the rest (centre) position in metres,
// velocities in m/s, times in seconds. The spring pulls toward the centre with
// spring_factor * actuator acceleration at full displacement, decreasing
// linearly to zero at the centre (thesis §2.3, §3.1).
#pragma once

namespace memstore::model {

struct Axis {
  double accel_m_s2 = 0;    // actuator acceleration
  double spring_per_m = 0;  // spring acceleration per metre of displacement, 1/s^2
  double max_offset_m = 0;  // half the sled's range of motion

  static Axis make(double accel_m_s2, double spring_factor, double max_offset_m) {
    return {accel_m_s2, accel_m_s2 * spring_factor / max_offset_m, max_offset_m};
  }
};

}  // namespace memstore::model
