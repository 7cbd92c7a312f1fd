// SPDX-License-Identifier: Apache-2.0
// A mechanism: one independently positioned server of blocks — a MEMStore
// sled, or a comparison disk (Überdisk, Simpledisk) — behind one interface so
// any experiment can swap one for another (thesis §5.1.5, specificity test).
//
// A mechanism owns its mutable positioning state (where the sled or the head
// is, how it moves) and, for MEMStores, its power state. Schedulers only read
// it; the device calls service() once per request, in time order.
#pragma once

#include <cstddef>
#include <cstdint>
#include <limits>
#include <span>
#include <string>
#include <vector>

#include "model/request.h"

namespace memstore::model {

// A weak actuator or spring over part of the sled's travel: a fault in
// timing only (docs/faults.md, "slow-seek"). Every positioning that ends
// inside the rectangle takes `factor` times as long, X seek, settle, Y seek
// and turnarounds alike: the sled is driven by the same actuators and held
// by the same springs in both axes (thesis §2.3), and a weaker one slows
// the whole move into its region. In sled coordinates: cylinders x and
// tip-sector rows y of every square (PhysicalAddress), inclusive.
struct SlowRegion {
  std::int32_t x_first = 0;
  std::int32_t x_last = 0;
  std::int32_t y_first = 0;
  std::int32_t y_last = 0;
  double factor = 1;
  bool contains(std::int32_t x, std::int32_t y) const {
    return x >= x_first && x <= x_last && y >= y_first && y <= y_last;
  }
  friend bool operator==(const SlowRegion&, const SlowRegion&) = default;
};

// A point on the media for the geometry-aware schedulers (SDF, ZSPTF):
// coordinates normalised to [0, 1) over the mechanism's range of motion, and
// the direction in which the block's track is laid out.
struct MediaPoint {
  double u = 0;  // X (cylinder) for a MEMStore; cylinder for a disk
  double v = 0;  // Y (row) for a MEMStore; rotational position for a disk
  bool runs_up = true;
};

// What a mechanism's positioning estimates need to know about a request,
// computed once per request by Mechanism::positioning_target. For a MEMStore:
// the X position of its cylinder and where an access of its row starts in
// either Y direction (bits from the sled's centre, as SledState), the
// direction its track runs in, and the target-only factors of the X lower
// bound (so the bound over the whole queue needs no division). Other
// mechanisms leave it empty.
struct PositioningTarget {
  std::int32_t x_bits = 0;
  std::int32_t y_up_bits = 0;    // start of the row, read upward
  std::int32_t y_down_bits = 0;  // start of the row, read downward
  std::int32_t dir = 1;          // +1: the track runs up; -1: down
  double x_m = 0;                // X displacement of the cylinder
  double x_arrive_up = 0;        // X lower bound factor arriving moving +x
  double x_arrive_down = 0;      // ... moving -x
};

// lower <= positioning_ns <= upper, in ns.
struct PositioningBounds {
  Ns lower = 0;
  Ns upper = std::numeric_limits<Ns>::max();
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

  // SPTF-like schedulers estimate every pending request at every pick (thesis
  // §6.1.2: SPTF needs "the exact mapping of LBNs to physical locations, and
  // the exact predicted timing" of the device). These let them prune that:
  //   positioning_target  what the estimates need from a request, worked out
  //                       once per request (the LBN mapping) and kept;
  //   positioning_lower_bounds_ns
  //                       a cheap lower bound for many requests in one call;
  //   positioning_upper_bound_ns
  //                       an upper bound for one request, cheaper than
  //   positioning_bounds_ns
  //                       tighter lower and upper bounds for one request;
  //   positioning_target_ns
  //                       the value itself from the target, equal to
  //                       positioning_ns(r, now).
  // Every bound is a bound on positioning_ns(r, now), the value SPTF
  // compares. A mechanism without its own versions gives bounds 0 and
  // "unknown", so a scheduler evaluates every request.
  virtual PositioningTarget positioning_target(const Request& /*r*/) const { return {}; }
  virtual void positioning_lower_bounds_ns(std::span<const PositioningTarget> targets, Ns /*now*/,
                                           std::span<Ns> lower) const {
    for (std::size_t i = 0; i < targets.size(); ++i) lower[i] = 0;
  }
  virtual Ns positioning_upper_bound_ns(const Request& /*r*/, const PositioningTarget& /*t*/,
                                        Ns /*now*/) const {
    return std::numeric_limits<Ns>::max();
  }
  virtual PositioningBounds positioning_bounds_ns(const Request& /*r*/,
                                                  const PositioningTarget& /*t*/,
                                                  Ns /*now*/) const {
    return {};
  }
  virtual Ns positioning_target_ns(const Request& r, const PositioningTarget& /*t*/, Ns now) const {
    return positioning_ns(r, now);
  }

  // Serves `r` starting at `now` (not before the previous service ended),
  // advances the state and returns where the time went.
  virtual Breakdown service(const Request& r, Ns now) = 0;

  // Request merging (second paper §5.2.2): serves `parts` as one media
  // access and sets done_ns[i] to when part i's last block has been
  // transferred, in ns after `now`. REQUIRES: at least one part; each part
  // begins where the one before it ends; one operation; no batches. This
  // version serves the union with service() and completes every part at its end.
  virtual Breakdown service_merged(std::span<const Request> parts, Ns now, std::span<Ns> done_ns) {
    Request whole = parts.front();
    whole.blocks = static_cast<std::int32_t>(parts.back().lbn + parts.back().blocks - whole.lbn);
    whole.tail_bytes = parts.back().tail_bytes;
    const Breakdown b = service(whole, now);
    for (Ns& d : done_ns) d = b.service_ns();
    return b;
  }

  virtual MediaPoint point_of(Lbn lbn) const = 0;
  virtual MediaPoint current_point() const = 0;

  // Changes the idle timeout (the Power Condition mode page's standby timer)
  // from now on. Mechanisms without a power model ignore it.
  virtual void set_idle_timeout_ns(Ns /*timeout*/) {}
  // Turns subsector accesses (second paper §5.2.3) on or off from now on.
  // Mechanisms without tips ignore it.
  virtual void set_subsector(bool /*on*/) {}

  // The regions where positioning is slowed (SlowRegion), from now on;
  // empty: none. The scheduler's estimates do not see them: a device's
  // firmware plans with its healthy model. Mechanisms without a sled
  // ignore them.
  virtual void set_slow_regions(std::span<const SlowRegion> /*regions*/) {}

  // Time and energy by power state from time 0 until `until`, which must not
  // be before the end of the last service. Mechanisms without a power model
  // report nothing.
  virtual EnergyReport energy(Ns /*until*/) const { return {}; }
};

}  // namespace memstore::model
