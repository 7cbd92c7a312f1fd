// SPDX-License-Identifier: Apache-2.0
// One MEMStore sled as a Mechanism: positioning (thesis §3.1), transfer
// (§3.1, §2.3), sled state carried across requests, power states (second
// paper §3.1) and batches (thesis §6.3.5).
//
// Coordinates follow the media layout of thesis Fig. 2.4, measured in bits
// from the sled's rest (centre) position as in DiskSim 4.0: X is the cylinder
// (bit column) minus Sx/2; along Y each tip-sector row is servo + data bits,
// with one more servo field closing the column, and the used band is centred.
// Reading row r upward starts at its own servo field; reading it downward
// starts at the servo field above it. Either way a row takes
// (servo + data bits) / per-tip rate, and consecutive rows in the direction of
// travel chain with no seek at all.
#pragma once

#include <cstdint>
#include <memory>
#include <span>
#include <vector>

#include "model/axis.h"
#include "model/batch.h"
#include "model/geometry.h"
#include "model/mechanism.h"
#include "model/params.h"
#include "model/power.h"
#include "model/seek_piecewise.h"
#include "model/y_seek_table.h"

namespace memstore::model {

// Where the sled is: a point on the media and the Y velocity's sign
// (+1 up, -1 down). X velocity is zero whenever the sled is between
// accesses.
struct SledState {
  std::int32_t x_bits = 0;
  std::int32_t y_bits = 0;
  std::int32_t y_dir = 1;
  friend bool operator==(const SledState&, const SledState&) = default;
};

// The positioning choice for one media step.
struct Positioning {
  double total_s = 0;  // max(X + settle, Y + turnarounds)
  double x_base_s = 0;
  double settle_s = 0;
  YSeek y;
  std::int32_t dir = 1;  // direction of the access that follows
};

struct BatchOutcome {
  Breakdown breakdown;
  std::vector<MediaStep> steps;  // in the order they were served
};

class MemsMechanism final : public Mechanism {
 public:
  explicit MemsMechanism(const DeviceParams& params);

  std::int64_t blocks() const override { return geometry_.blocks_per_sled(); }
  Ns positioning_ns(const Request& r, Ns now) const override;
  PositioningTarget positioning_target(const Request& r) const override;
  void positioning_lower_bounds_ns(std::span<const PositioningTarget> targets, Ns now,
                                   std::span<Ns> lower) const override;
  Ns positioning_upper_bound_ns(const Request& r, const PositioningTarget& t,
                                Ns now) const override;
  PositioningBounds positioning_bounds_ns(const Request& r, const PositioningTarget& t,
                                          Ns now) const override;
  Ns positioning_target_ns(const Request& r, const PositioningTarget& t, Ns now) const override;
  Breakdown service(const Request& r, Ns now) override;
  Breakdown service_merged(std::span<const Request> parts, Ns now, std::span<Ns> done_ns) override;
  MediaPoint point_of(Lbn lbn) const override;
  MediaPoint current_point() const override;
  EnergyReport energy(Ns until) const override;
  void set_idle_timeout_ns(Ns timeout) override;
  void set_subsector(bool on) override { params_.power.subsector = on; }
  void set_slow_regions(std::span<const SlowRegion> regions) override {
    slow_.assign(regions.begin(), regions.end());
  }

  // Serves a batch as one media access (thesis §6.3.5): its blocks grouped
  // into parallel steps by plan_batch, the steps visited nearest-first.
  // REQUIRES: extents inside this sled (local LBNs).
  BatchOutcome service_batch(std::span<const BatchExtent> extents, Ns now);

  const Geometry& geometry() const { return geometry_; }
  const SledState& state() const { return sled_; }
  // Puts the sled at `s`, spun up, as if its last service had ended at
  // `done_ns`, without accounting time or energy: for benchmarks and tests
  // that need many sled states without serving requests to reach them.
  void place_sled(const SledState& s, Ns done_ns) {
    sled_ = s;
    inactive_ = false;
    last_done_ns_ = done_ns;
  }
  bool inactive() const { return inactive_; }

  // The best way to start accessing row `y` of cylinder `x` from `from`:
  // up or down (if bidirectional), whichever is positioned sooner; on a tie
  // `preferred_dir`, the direction the data continues in.
  Positioning position_for(const SledState& from, std::int32_t x, std::int32_t y,
                           std::int32_t preferred_dir) const;
  // The same, for one given direction.
  Positioning position_in(const SledState& from, std::int32_t x, std::int32_t y,
                          std::int32_t dir) const;
  // Where an access of row `y` in direction `dir` begins and ends, in bits.
  std::int32_t access_start_y(std::int32_t y, std::int32_t dir) const;
  std::int32_t access_end_y(std::int32_t y, std::int32_t dir) const;
  // Seconds to read one row (servo + data bits).
  double row_s() const { return row_s_; }
  // Where the sled is after reading `lbn` in its track's direction.
  SledState state_after_reading(Lbn lbn) const;
  // The sled displacement (m) that puts the tips over cylinder `x`, and the X axis.
  double x_position_m(std::int32_t x) const { return x_m(x_bits_of(x)); }
  const Axis& x_axis() const { return x_axis_; }

 private:
  struct XSeek {
    double base_s = 0;
    double settle_s = 0;
  };
  XSeek x_seek(const SledState& from, std::int32_t x) const;
  XSeek x_seek_to_bits(const SledState& from, std::int32_t to_x) const;
  // The part of a PositioningTarget the estimate itself needs.
  PositioningTarget place_of(Lbn lbn) const;
  // The private positioning helpers take where the access starts (to_y, as
  // access_start_y gives it for each direction), so that a PositioningTarget
  // computed once can feed them.
  Positioning position_for(const SledState& from, const XSeek& xs, std::int32_t y_up,
                           std::int32_t y_down, std::int32_t preferred_dir) const;
  // An upper bound on the Y positioning (seek plus turnarounds) for an access
  // starting at to_y in direction dir, in closed form.
  double y_upper_bound_s(const SledState& from, std::int32_t to_y, std::int32_t dir) const;
  Positioning position_in(const SledState& from, const XSeek& xs, std::int32_t to_y,
                          std::int32_t dir) const;
  // Lower and upper bounds on the Y positioning for an access starting at
  // to_y in direction dir (seconds); with upper_only, lower_s is 0.
  SeekBounds y_bounds_s(const SledState& from, std::int32_t to_y, std::int32_t dir,
                        bool upper_only = false) const;
  // The base Y seek from y0_bits to y1_bits (x0_m, x1_m in metres) leaving
  // and arriving at `start` and `end`: from the table when it has the pair.
  double y_base_s(std::int32_t y0_bits, std::int32_t y1_bits, double x0_m, double x1_m,
                  double start, double end) const;
  // One parallel row access: `tips` of the row's blocks' tips active.
  // `parts_ending`: how many merged parts have their last block in it; the
  // choice of direction there must not look past it (a part would wait on
  // the next).
  struct Step {
    std::int32_t x, y, blocks, preferred_dir, tips;
    std::int32_t parts_ending = 0;
  };
  // Runs media steps from the current state; accumulates into `b`. With
  // `step_done`, appends when each step ends (ns after the service began).
  void run_steps(std::span<const Step> steps, Breakdown& b, std::vector<Ns>* step_done = nullptr);
  // A positioning ending at cylinder x, row y, through a slow region.
  void slow_down(Positioning& pos, std::int32_t x, std::int32_t y) const;
  // Serves `parts` (one request, or merged ones) as one run of media steps.
  Breakdown serve_run(std::span<const Request> parts, Ns now, std::span<Ns> done_ns);
  // Cuts [first, end) into steps (service()'s rows and track reversals).
  void cut_steps(Lbn first, Lbn end);
  // The tips a block needs of which the request wants only `tail_bytes`
  // (subsector accesses, second paper §5.2.3).
  std::int32_t tips_for_tail(std::int32_t tail_bytes) const;
  void begin_service(Ns now, Breakdown& b);
  Positioning look_ahead(const Positioning& greedy, const Step& s, const Step& next) const;
  SledState rest_state() const { return rest_; }
  // Where the sled would start a request at `now`: a sled that will have spun
  // down by then restarts from rest.
  SledState start_state(Ns now) const;
  double x_m(std::int32_t x_bits) const { return x_bits * bit_m_; }
  double y_m(std::int32_t y_bits) const { return y_bits * bit_m_; }
  std::int32_t x_bits_of(std::int32_t cylinder) const { return cylinder - half_x_; }

  DeviceParams params_;
  Geometry geometry_;
  Axis x_axis_, y_axis_;
  double bit_m_, v_m_s_, settle_s_, row_s_;
  std::int32_t half_x_, sector_bits_, y_centre_;
  bool bidirectional_;
  bool min_turnaround_cylinder_switch_;

  std::shared_ptr<const YSeekTable> y_table_;  // null when too large (then computed)

  SledState rest_;  // where the sled waits at rest (fixed by the geometry)
  // rest_to_rest_s from rest_'s cylinder to each cylinder (empty: too many).
  std::vector<double> x_from_rest_s_;
  SledState sled_;
  bool inactive_ = true;  // a device starts spun down (as DiskSim's)
  Ns last_done_ns_ = 0;
  PowerMeter power_;
  std::vector<Step> steps_;
  std::vector<SlowRegion> slow_;  // set_slow_regions; usually empty
  std::vector<Ns> step_done_;     // scratch for merged services
};

}  // namespace memstore::model
