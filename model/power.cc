// SPDX-License-Identifier: Apache-2.0
#include "model/power.h"

namespace memstore::model {

const char* power_state_name(PowerState s) {
  switch (s) {
    case PowerState::kInactive:
      return "inactive";
    case PowerState::kIdle:
      return "idle";
    case PowerState::kSeek:
      return "seek";
    case PowerState::kAccess:
      return "access";
    case PowerState::kStartup:
      return "startup";
  }
  return "?";
}

void PowerMeter::add(PowerState s, Ns duration_ns, int tips) {
  if (s == PowerState::kSeek) return add_seek(duration_ns);
  if (s == PowerState::kAccess) return add_access(duration_ns, tips);
  if (duration_ns <= 0) return;
  const auto i = static_cast<int>(s);
  report_.time_ns[i] += duration_ns;
  const double seconds = static_cast<double>(duration_ns) * 1e-9;
  double watts = 0;
  switch (s) {
    case PowerState::kInactive:
      watts = p_.inactive_w;
      break;
    case PowerState::kIdle:
      watts = p_.sled_motion_w + p_.idle_tips * p_.tip_active_w;
      break;
    case PowerState::kSeek:
    case PowerState::kAccess:
      break;  // above
    case PowerState::kStartup:
      // The paper gives the energy of a whole startup, not a power.
      report_.energy_j[i] += p_.startup_ns > 0 ? p_.startup_j * static_cast<double>(duration_ns) /
                                                     static_cast<double>(p_.startup_ns)
                                               : p_.startup_j;
      return;
  }
  report_.energy_j[i] += watts * seconds;
}

bool PowerMeter::gap(Ns duration_ns, bool was_inactive) {
  if (was_inactive) {
    add(PowerState::kInactive, duration_ns);
    return true;
  }
  const Ns timeout = p_.idle_timeout_ns;
  if (timeout < 0 || duration_ns <= timeout) {
    add(PowerState::kIdle, duration_ns);
    return false;
  }
  add(PowerState::kIdle, timeout);
  add(PowerState::kInactive, duration_ns - timeout);
  return true;
}

}  // namespace memstore::model
