// A mechanism: one independently positioned server of blocks — a MEMStore
// sled, or a comparison disk (Überdisk, Simpledisk) — behind one interface so
// any experiment can swap one for another (thesis §5.1.5, specificity test).
//
// A mechanism owns its mutable positioning state (where the sled or the head
// is, how it moves) and, for MEMStores, its power state. Schedulers only read
// it; the device calls service() once per request, in time order.
#pragma once

#include <cstdint>
#include <string>
#include <vector>

#include "model/request.h"

namespace memstore::model {

// A point on the media for the geometry-aware schedulers (SDF, ZSPTF):
// coordinates normalised to [0, 1) over the mechanism's range of motion, and
// the direction in which the block's track is laid out.
struct MediaPoint {
  double u = 0;  // X (cylinder) for a MEMStore; cylinder for a disk
  double v = 0;  // Y (row) for a MEMStore; rotational position for a disk
  bool runs_up = true;
};

enum class PowerState : std::uint8_t { kInactive, kIdle, kSeek, kAccess, kStartup };
inline constexpr int kPowerStates = 5;
const char* power_state_name(PowerState s);

// Time and energy spent in each power state up to some instant.
struct EnergyReport {
  Ns time_ns[kPowerStates] = {};
  double energy_j[kPowerStates] = {};
  std::int64_t startups = 0;
  double total_j() const {
    double t = 0;
    for (double e : energy_j) t += e;
    return t;
  }
};

class Mechanism {
 public:
  virtual ~Mechanism() = default;

  // Blocks served, addressed 0..blocks()-1 (the device maps global LBNs).
  virtual std::int64_t blocks() const = 0;

  // Positioning time (everything before the first block moves) if `r` were
  // started at `now` from the current state. Pure; used by SPTF-like schedulers.
  virtual Ns positioning_ns(const Request& r, Ns now) const = 0;

  // Lower bounds on positioning_ns(r, now), so SPTF can skip the exact
  // computation for requests that cannot win: a coarse one that is very cheap
  // and a tight one that costs more. 0 is always valid.
  enum class Bound { kCoarse, kTight };
  virtual Ns positioning_lower_bound_ns(const Request& /*r*/, Ns /*now*/, Bound /*b*/) const {
    return 0;
  }

  // Serves `r` starting at `now` (not before the previous service ended),
  // advances the state and returns where the time went.
  virtual Breakdown service(const Request& r, Ns now) = 0;

  virtual MediaPoint point_of(Lbn lbn) const = 0;
  virtual MediaPoint current_point() const = 0;

  // Changes the idle timeout (the Power Condition mode page's standby timer)
  // from now on. Mechanisms without a power model ignore it.
  virtual void set_idle_timeout_ns(Ns /*timeout*/) {}

  // Time and energy by power state from time 0 until `until`, which must not
  // be before the end of the last service. Mechanisms without a power model
  // report nothing.
  virtual EnergyReport energy(Ns /*until*/) const { return {}; }
};

}  // namespace memstore::model
