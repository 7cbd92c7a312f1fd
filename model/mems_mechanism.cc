// SPDX-License-Identifier: Apache-2.0
#include "model/mems_mechanism.h"

#include <algorithm>
#include <cmath>
#include <limits>
#include <numbers>

namespace memstore::model {
namespace {

// Durations are never negative: round half up without libm's llround.
Ns to_ns(double seconds) {
  return static_cast<Ns>(seconds * 1e9 + 0.5);  // NOLINT(bugprone-incorrect-roundings)
}

}  // namespace

MemsMechanism::MemsMechanism(const DeviceParams& p)
    : params_(p),
      geometry_(p),
      bit_m_(p.bit_width_nm * 1e-9),
      // §2.3: the per-tip data rate and the bit width fix the access velocity.
      v_m_s_(p.per_tip_rate_bit_s * p.bit_width_nm * 1e-9),
      // Eq. 3.5: time constants / (2 pi f).
      settle_s_(p.settle_time_constants / (2 * std::numbers::pi * p.resonant_frequency_hz)),
      row_s_((p.servo_bits_per_sector + p.data_bits_per_sector) / p.per_tip_rate_bit_s),
      half_x_(p.region_bits_x / 2),
      sector_bits_(p.servo_bits_per_sector + p.data_bits_per_sector),
      bidirectional_(p.bidirectional),
      min_turnaround_cylinder_switch_(p.cylinder_switch == CylinderSwitch::kMinTurnaround),
      power_(p.power) {
  x_axis_ = Axis::make(p.sled_accel_m_s2, p.spring_factor, p.region_bits_x * bit_m_ / 2);
  y_axis_ = Axis::make(p.sled_accel_m_s2, p.spring_factor, p.region_bits_y * bit_m_ / 2);
  // The used Y band (rows plus the closing servo field) is centred on the rest position.
  y_centre_ = (geometry_.sy() * sector_bits_ + p.servo_bits_per_sector) / 2;
  // Base Y seeks only join access points at access speed (model/y_seek_table.h).
  y_table_ = YSeekTable::shared(
      {y_axis_, bit_m_, v_m_s_, y_centre_, sector_bits_, p.servo_bits_per_sector, geometry_.sy()});
  // At rest the sled waits at the start of the centremost block, ready to
  // read it upward (DiskSim 4.0 uses the same point).
  const Lbn centre = geometry_.sx() / 2 * geometry_.sc() + geometry_.sc() / 2;
  const PhysicalAddress a = geometry_.to_physical(centre);
  rest_ = {x_bits_of(a.x), access_start_y(a.y, +1), +1};
  sled_ = rest_;
  // Every start after a spin-down seeks from the rest position (begin_service),
  // which is an eighth of a replay's requests at DiskSim's 50 ms mean gap
  // (docs/benchmarks/log/2026-11-27.md, "Toward 40x, second step"). Those X
  // seeks are computed once here, by the same
  // call on the same doubles as x_seek_to_bits', so each is bit-identical.
  // Up to 2^16 cylinders (512 KB); beyond that, every seek is computed.
  if (geometry_.sx() <= (1 << 16)) {
    x_from_rest_s_.resize(static_cast<std::size_t>(geometry_.sx()));
    for (std::int32_t x = 0; x < geometry_.sx(); ++x) {
      x_from_rest_s_[static_cast<std::size_t>(x)] =
          rest_to_rest_s(x_axis_, x_m(rest_.x_bits), x_m(x_bits_of(x)));
    }
  }
}

std::int32_t MemsMechanism::access_start_y(std::int32_t y, std::int32_t dir) const {
  const std::int32_t servo = params_.servo_bits_per_sector;
  return dir > 0 ? y * sector_bits_ - y_centre_ : (y + 1) * sector_bits_ + servo - y_centre_;
}

std::int32_t MemsMechanism::access_end_y(std::int32_t y, std::int32_t dir) const {
  const std::int32_t servo = params_.servo_bits_per_sector;
  return dir > 0 ? (y + 1) * sector_bits_ - y_centre_ : y * sector_bits_ + servo - y_centre_;
}

MemsMechanism::XSeek MemsMechanism::x_seek(const SledState& from, std::int32_t x) const {
  return x_seek_to_bits(from, x_bits_of(x));
}

MemsMechanism::XSeek MemsMechanism::x_seek_to_bits(const SledState& from, std::int32_t to_x) const {
  if (to_x == from.x_bits) return {};
  if (from.x_bits == rest_.x_bits && !x_from_rest_s_.empty()) {
    return {x_from_rest_s_[static_cast<std::size_t>(to_x + half_x_)], settle_s_};
  }
  return {rest_to_rest_s(x_axis_, x_m(from.x_bits), x_m(to_x)), settle_s_};
}

double MemsMechanism::y_base_s(std::int32_t y0_bits, std::int32_t y1_bits, double x0_m, double x1_m,
                               double start, double end) const {
  // The table holds base_seek_s for access speed at both ends, which is what
  // y_seek asks for between moving states (the speeds are +-v times +-1).
  if (y_table_ != nullptr && start == v_m_s_ && end == v_m_s_) {
    if (const double* t = y_table_->find(y0_bits, y1_bits)) return *t;
  }
  return base_seek_s(y_axis_, x0_m, x1_m, start, end);
}

Positioning MemsMechanism::position_in(const SledState& from, const XSeek& xs, std::int32_t to_y,
                                       std::int32_t dir) const {
  Positioning c;
  c.dir = dir;
  c.x_base_s = xs.base_s;
  c.settle_s = xs.settle_s;
  if (to_y != from.y_bits || dir != from.y_dir) {
    const std::int32_t from_y = from.y_bits;
    c.y = y_seek_with(y_axis_, y_m(from_y), from.y_dir * v_m_s_, y_m(to_y), dir * v_m_s_,
                      [this, from_y, to_y](double x0, double x1, double start, double end) {
                        return y_base_s(from_y, to_y, x0, x1, start, end);
                      });
  }
  c.total_s = std::max(c.x_base_s + c.settle_s, c.y.total_s());
  return c;
}

Positioning MemsMechanism::position_in(const SledState& from, std::int32_t x, std::int32_t y,
                                       std::int32_t dir) const {
  return position_in(from, x_seek(from, x), access_start_y(y, dir), dir);
}

double MemsMechanism::y_upper_bound_s(const SledState& from, std::int32_t to_y,
                                      std::int32_t dir) const {
  // The sled stays between its start and its target, so no spring it meets
  // is stronger than at the one farther from the centre: the net acceleration
  // is at least a (1 - f r / r_max) throughout, and a seek with stronger
  // acceleration in both phases is faster (its speed is higher at every
  // point). The constant-acceleration seek at that floor, plus turnarounds at
  // the same floor, bounds the Y positioning from above; the margin covers the
  // piecewise error (docs/model.md).
  const double to = y_m(to_y);
  const double at = y_m(from.y_bits);
  const double d = std::abs(to - at);
  const double travel = to > at ? 1.0 : -1.0;
  const int turns = (from.y_dir * travel < 0 ? 1 : 0) + (dir * travel < 0 ? 1 : 0);
  const double r = std::max(std::abs(to), std::abs(at));
  const double a = y_axis_.accel_m_s2 - y_axis_.spring_per_m * r;
  const double v = v_m_s_;
  const double base = 2 * (std::sqrt(v * v + a * d) - v) / a;
  return base + turns * 2 * v / a + 5e-6;
}

Positioning MemsMechanism::position_for(const SledState& from, std::int32_t x, std::int32_t y,
                                        std::int32_t preferred_dir) const {
  return position_for(from, x_seek(from, x), access_start_y(y, +1), access_start_y(y, -1),
                      preferred_dir);
}

Positioning MemsMechanism::position_for(const SledState& from, const XSeek& xs, std::int32_t y_up,
                                        std::int32_t y_down, std::int32_t preferred_dir) const {
  if (!bidirectional_) return position_in(from, xs, y_up, +1);
  const std::int32_t y_pref = preferred_dir > 0 ? y_up : y_down;
  const std::int32_t y_other = preferred_dir > 0 ? y_down : y_up;
  const Positioning a = position_in(from, xs, y_pref, preferred_dir);
  if (a.total_s == 0) return a;  // already there: streaming on costs nothing
  if (xs.base_s > 0) {
    // X usually dominates (thesis §3.3). When the preferred direction's Y
    // fits inside X + settle, the other direction ties at best: done, with
    // no bound needed now that the Y seek is a lookup (model/y_seek_table.h).
    const double x_s = xs.base_s + xs.settle_s;
    if (a.total_s == x_s) return a;
    // When its closed-form bound fits, the preferred direction is kept as
    // well (the bound carries a margin, so this only matters should the
    // bound ever fall below the exact Y).
    if (y_upper_bound_s(from, y_pref, preferred_dir) <= x_s) return a;
  }
  const Positioning b = position_in(from, xs, y_other, -preferred_dir);
  // Strictly sooner wins; a tie keeps the preferred direction.
  return b.total_s < a.total_s ? b : a;
}

Positioning MemsMechanism::look_ahead(const Positioning& greedy, const Step& s,
                                      const Step& next) const {
  // The sooner direction for this row can be the wrong one for the rows that
  // follow (reading a row backwards, then turning twice to stream on). Compare
  // both directions by this positioning plus the next one.
  Positioning best = greedy;
  double best_s = -1;
  const XSeek xs{greedy.x_base_s, greedy.settle_s};
  for (std::int32_t dir : {+1, -1}) {
    if (!bidirectional_ && dir < 0) continue;
    const Positioning p = position_in(sled_, xs, access_start_y(s.y, dir), dir);
    const SledState after{x_bits_of(s.x), access_end_y(s.y, dir), dir};
    const double t = p.total_s + position_for(after, next.x, next.y, next.preferred_dir).total_s;
    if (best_s < 0 || t < best_s) {
      best_s = t;
      best = p;
    }
  }
  return best;
}

void MemsMechanism::begin_service(Ns now, Breakdown& b) {
  const bool spun_down = power_.gap(now - last_done_ns_, inactive_);
  if (spun_down) {
    b.startup_ns = params_.power.startup_ns;
    power_.startup();
    sled_ = rest_state();
    inactive_ = false;
  }
}

void MemsMechanism::slow_down(Positioning& pos, std::int32_t x, std::int32_t y) const {
  // Overlapping regions: the weakest part governs.
  double factor = 1;
  for (const SlowRegion& r : slow_) {
    if (r.contains(x, y)) factor = std::max(factor, r.factor);
  }
  if (factor == 1) return;
  pos.total_s *= factor;
  pos.x_base_s *= factor;
  pos.settle_s *= factor;
  pos.y.base_s *= factor;
  pos.y.turnaround_s *= factor;
}

void MemsMechanism::run_steps(std::span<const Step> steps, Breakdown& b,
                              std::vector<Ns>* step_done) {
  bool first = b.media_steps == 0;
  const bool all_tips = params_.power.access_all_tips && !params_.power.subsector;
  std::int32_t prev_x = -1;
  // When the steps so far ended (ns of media time), carried from step to step.
  Ns rows_end = to_ns(row_s_ * b.media_steps);
  for (std::size_t i = 0; i < steps.size(); ++i) {
    const Step& s = steps[i];
    Positioning pos = position_for(sled_, s.x, s.y, s.preferred_dir);
    // Reading this row against the direction the data continues in can only
    // pay off if the rows after it still chain; check when greedy went against it.
    // A merged part's last step is chosen as if the part were served alone,
    // so merging never delays it (second paper §5.2.2).
    if (i + 1 < steps.size() && pos.dir != s.preferred_dir && s.parts_ending == 0) {
      pos = look_ahead(pos, s, steps[i + 1]);
    }
    if (min_turnaround_cylinder_switch_ && !first && std::abs(s.x - prev_x) == 1) {
      // Thesis §3.1: tips deflect to the next cylinder, so only the Y
      // turnaround remains.
      pos.x_base_s = pos.settle_s = 0;
      pos.total_s = pos.y.total_s();
    }
    if (!slow_.empty()) slow_down(pos, s.x, s.y);
    const Ns total = to_ns(pos.total_s);
    (first ? b.seek_ns : b.switch_ns) += total;
    b.seek_x_ns += to_ns(pos.x_base_s);
    b.settle_ns += to_ns(pos.settle_s);
    b.seek_y_ns += to_ns(pos.y.base_s);
    b.turnaround_ns += to_ns(pos.y.turnaround_s);
    b.turnarounds += pos.y.turnarounds;
    power_.add_seek(total);
    // Media time: cumulative rounding keeps the sum exact over many rows.
    ++b.media_steps;
    const Ns row_end = to_ns(row_s_ * b.media_steps);
    const Ns row_ns = row_end - rows_end;
    rows_end = row_end;
    // Without subsector accesses the §2 reading of the power paper activates a whole
    // logical sector, every concurrent tip, for each row (PowerParams::access_all_tips).
    power_.add_access(row_ns, all_tips ? params_.active_tips : s.tips);
    if (step_done != nullptr)
      step_done->push_back(b.startup_ns + b.seek_ns + b.switch_ns + row_end);
    sled_ = {x_bits_of(s.x), access_end_y(s.y, pos.dir), pos.dir};
    prev_x = s.x;
    first = false;
  }
  b.transfer_ns = rows_end;
}

Breakdown MemsMechanism::service(const Request& r, Ns now) {
  if (r.batch != nullptr) return service_batch(*r.batch, now).breakdown;
  Ns done = 0;
  return serve_run(std::span<const Request>(&r, 1), now, std::span<Ns>(&done, 1));
}

Breakdown MemsMechanism::service_merged(std::span<const Request> parts, Ns now,
                                        std::span<Ns> done_ns) {
  return serve_run(parts, now, done_ns);
}

void MemsMechanism::cut_steps(Lbn first, Lbn end) {
  // The rest of each row of p blocks; when a row ends a track inside a
  // cylinder, the next track's first row lies at the same (x, y) (track
  // reversal) and shares the step while tips remain.
  const Geometry& g = geometry_;
  steps_.clear();  // reused: no allocation per request
  Lbn l = first;
  while (l < end) {
    const Geometry::Location where = g.locate(l);
    const PhysicalAddress& a = where.address;
    const Lbn row_end = std::min(end, l - where.column + g.p());  // row_first(l) + p
    Lbn next = row_end;
    if (next < end && g.starts_track(next) && !g.starts_cylinder(next)) {
      next = std::min(end, next + (g.p() - (row_end - l)));
    }
    const auto blocks = static_cast<std::int32_t>(next - l);
    steps_.push_back({a.x, a.y, blocks, Geometry::track_runs_up(where.track) ? +1 : -1,
                      blocks * params_.tips_per_block});
    l = next;
  }
}

std::int32_t MemsMechanism::tips_for_tail(std::int32_t tail_bytes) const {
  // A block's bytes are striped evenly over its tips (64 tip sectors of 8
  // data bytes for G2's 512-byte block, second paper §5.2.3).
  const std::int32_t per_tip = std::max(1, params_.block_bytes / params_.tips_per_block);
  return std::min(params_.tips_per_block, (tail_bytes + per_tip - 1) / per_tip);
}

Breakdown MemsMechanism::serve_run(std::span<const Request> parts, Ns now, std::span<Ns> done_ns) {
  Breakdown b;
  begin_service(now, b);
  const Lbn first = parts.front().lbn;
  cut_steps(first, parts.back().lbn + parts.back().blocks);
  // Mark the step holding each part's last block: it ends that part, and
  // with subsector accesses it activates only the tip sectors of the bytes
  // the part needs of that block.
  const bool subsector = params_.power.subsector;
  if (parts.size() > 1 || (subsector && parts.front().tail_bytes != 0)) {
    std::size_t step = 0;
    Lbn step_end = first + steps_[0].blocks;
    for (const Request& part : parts) {
      const Lbn last = part.lbn + part.blocks - 1;
      while (last >= step_end) step_end += steps_[++step].blocks;
      ++steps_[step].parts_ending;
      if (subsector && part.tail_bytes != 0 && part.tail_bytes < params_.block_bytes) {
        steps_[step].tips -= params_.tips_per_block - tips_for_tail(part.tail_bytes);
      }
    }
  }
  const bool merged = parts.size() > 1;
  step_done_.clear();
  run_steps(steps_, b, merged ? &step_done_ : nullptr);
  last_done_ns_ = now + b.service_ns();
  if (!merged) {
    done_ns[0] = b.service_ns();
    return b;
  }
  // Each part is done when the step holding its last block ends.
  std::size_t i = 0;
  for (std::size_t k = 0; k < steps_.size(); ++k) {
    for (std::int32_t j = 0; j < steps_[k].parts_ending; ++j) done_ns[i++] = step_done_[k];
  }
  return b;
}

BatchOutcome MemsMechanism::service_batch(std::span<const BatchExtent> extents, Ns now) {
  BatchOutcome out;
  begin_service(now, out.breakdown);
  std::vector<MediaStep> pending = plan_batch(geometry_, extents);
  // Nearest-first over the steps (SPTF within the batch).
  while (!pending.empty()) {
    std::size_t best = 0;
    double best_s = 0;
    for (std::size_t i = 0; i < pending.size(); ++i) {
      const double t = position_for(sled_, pending[i].x, pending[i].y, +1).total_s;
      if (i == 0 || t < best_s) {
        best_s = t;
        best = i;
      }
    }
    const MediaStep& m = pending[best];
    const auto blocks = static_cast<std::int32_t>(m.lbns.size());
    const Step s{m.x, m.y, blocks, +1, blocks * params_.tips_per_block};
    run_steps(std::span<const Step>(&s, 1), out.breakdown);
    out.steps.push_back(std::move(pending[best]));
    pending.erase(pending.begin() + static_cast<std::ptrdiff_t>(best));
  }
  last_done_ns_ = now + out.breakdown.service_ns();
  return out;
}

SledState MemsMechanism::state_after_reading(Lbn lbn) const {
  const Geometry::Location where = geometry_.locate(lbn);
  const PhysicalAddress& a = where.address;
  const std::int32_t dir = Geometry::track_runs_up(where.track) ? +1 : -1;
  return {x_bits_of(a.x), access_end_y(a.y, dir), dir};
}

SledState MemsMechanism::start_state(Ns now) const {
  const Ns timeout = params_.power.idle_timeout_ns;
  const bool restart = inactive_ || (timeout >= 0 && now - last_done_ns_ > timeout);
  return restart ? rest_state() : sled_;
}

PositioningTarget MemsMechanism::place_of(Lbn lbn) const {
  const Geometry::Location where = geometry_.locate(lbn);
  const PhysicalAddress& a = where.address;
  const int dir = Geometry::track_runs_up(where.track) ? +1 : -1;
  return {x_bits_of(a.x), access_start_y(a.y, +1), access_start_y(a.y, -1), dir};
}

PositioningTarget MemsMechanism::positioning_target(const Request& r) const {
  PositioningTarget t = place_of(r.lbn);
  t.x_m = x_m(t.x_bits);
  // k / (2 (a + k x1)) in the frame of travel (see positioning_lower_bounds_ns);
  // 0 where the spring outpulls the actuator, which the bound checks anyway.
  const double a_x = x_axis_.accel_m_s2, k = x_axis_.spring_per_m;
  if (k > 0 && a_x > k * std::abs(t.x_m)) {
    t.x_arrive_up = 0.5 * k / (a_x + k * t.x_m);
    t.x_arrive_down = 0.5 * k / (a_x - k * t.x_m);
  }
  return t;
}

Ns MemsMechanism::positioning_ns(const Request& r, Ns now) const {
  return positioning_target_ns(r, place_of(r.lbn), now);  // no bound factors needed
}

Ns MemsMechanism::positioning_target_ns(const Request& /*r*/, const PositioningTarget& t,
                                        Ns now) const {
  const SledState from = start_state(now);
  const XSeek xs = x_seek_to_bits(from, t.x_bits);
  const std::int32_t y_pref = t.dir > 0 ? t.y_up_bits : t.y_down_bits;
  if (xs.base_s > 0 && y_upper_bound_s(from, y_pref, t.dir) <= xs.base_s + xs.settle_s) {
    return to_ns(xs.base_s + xs.settle_s);  // no Y seek can matter (see position_for)
  }
  return to_ns(position_for(from, xs, t.y_up_bits, t.y_down_bits, t.dir).total_s);
}

namespace {

// Bounds in seconds to bounds on to_ns() of the exact value. The margin covers
// rounding: the bounds and the model's value are computed along different
// paths, and the model's speed near the end of a seek is the square root of a
// difference close to zero (relative errors ~1e-8 of a chunk, picoseconds).
constexpr double kBoundMarginS = 4e-9;
Ns lower_ns(double s) {
  const double ns = (s - kBoundMarginS) * 1e9;
  return ns > 0 ? static_cast<Ns>(ns) : 0;
}
Ns upper_ns(double s) {
  if (!(s < 1e6)) return std::numeric_limits<Ns>::max();  // unknown (infinite)
  return static_cast<Ns>((s + kBoundMarginS) * 1e9) + 1;
}

}  // namespace

void MemsMechanism::positioning_lower_bounds_ns(std::span<const PositioningTarget> targets, Ns now,
                                                std::span<Ns> lower) const {
  // The X part alone bounds positioning = max(X + settle, Y) (Eq. 3.1) from
  // below: the spring-mass time of the rest-to-rest X seek (see
  // base_seek_bounds_s), with asin cut after z^3 here. Rest to rest, a
  // phase's z^2 simplifies to k d / (2 (a -+ k x)) at its outer end; the
  // sled's factor is worked out here once, the target's in its
  // PositioningTarget, so each request costs two square roots and no
  // division.
  const SledState from = start_state(now);
  const double a = x_axis_.accel_m_s2;
  const double k = x_axis_.spring_per_m;
  const double x0 = x_m(from.x_bits);
  // The closed form needs the actuator to beat the spring at both ends (a
  // spring factor below 1); otherwise the bound is 0.
  const bool closed_form = k > 0 && a > k * std::abs(x0);
  const double two_over_omega = closed_form ? 2 / std::sqrt(k) : 0;
  const double quarter_k_over_a = 0.25 * k / a;
  const double leave_up = closed_form ? 0.5 * k / (a - k * x0) : 0;    // travel toward +x
  const double leave_down = closed_form ? 0.5 * k / (a + k * x0) : 0;  // toward -x
  const std::size_t n = targets.size();
  for (std::size_t i = 0; i < n; ++i) {
    const PositioningTarget& t = targets[i];
    const double x1 = t.x_m;
    // The frame where travel is toward +x.
    const bool up = x1 >= x0;
    const double s0 = up ? x0 : -x0, s1 = up ? x1 : -x1;
    const double xm = 0.5 * (s0 + s1) + quarter_k_over_a * (s1 * s1 - s0 * s0);
    const double z1_sq = std::max(0.0, xm - s0) * (up ? leave_up : leave_down);
    const double z2_sq = std::max(0.0, s1 - xm) * (up ? t.x_arrive_up : t.x_arrive_down);
    const double z1 = std::sqrt(z1_sq), z2 = std::sqrt(z2_sq);
    constexpr double kSixth = 1.0 / 6;
    const double s =
        two_over_omega * (z1 * (1 + z1_sq * kSixth) + z2 * (1 + z2_sq * kSixth)) + settle_s_;
    // A zero factor (spring stronger than the actuator) leaves the bound at
    // settle + part of the seek: not a bound, so 0.
    const bool valid = t.x_arrive_up > 0 && two_over_omega > 0;
    lower[i] = t.x_bits == from.x_bits || !valid ? 0 : lower_ns(s);
  }
}

SeekBounds MemsMechanism::y_bounds_s(const SledState& from, std::int32_t to_y, std::int32_t dir,
                                     bool upper_only) const {
  // The cases of position_in and y_seek: no seek when already there in the
  // right direction; one turnaround (Eq. 3.6) when only the direction
  // differs; otherwise the base seek at access speed plus a turnaround before
  // it if the sled moves away from the target and one after it if it must
  // arrive moving back. Turnarounds are computed as the model does.
  if (to_y == from.y_bits && dir == from.y_dir) return {};
  const double x0 = y_m(from.y_bits);
  const double x1 = y_m(to_y);
  const double v0 = from.y_dir * v_m_s_;
  const double v1 = dir * v_m_s_;
  if (to_y == from.y_bits) {
    const double t = turnaround_s(y_axis_, x0, v0);
    return {t, t};
  }
  const double travel = x1 > x0 ? 1.0 : -1.0;
  double turns = 0;
  if (v0 * travel < 0) turns += turnaround_s(y_axis_, x0, v0);
  if (v1 * travel < 0) turns += turnaround_s(y_axis_, x1, -v1);
  SeekBounds b = base_seek_bounds_s(y_axis_, x0, x1, v_m_s_, upper_only);
  b.lower_s += turns;
  b.upper_s += turns;
  return b;
}

Ns MemsMechanism::positioning_upper_bound_ns(const Request& /*r*/, const PositioningTarget& t,
                                             Ns now) const {
  // As positioning_bounds_ns, upper bounds only.
  const SledState from = start_state(now);
  double x = 0;
  if (t.x_bits != from.x_bits) {
    x = base_seek_bounds_s(x_axis_, x_m(from.x_bits), x_m(t.x_bits), 0, true).upper_s + settle_s_;
  }
  const std::int32_t pref = bidirectional_ ? t.dir : +1;
  double y = y_bounds_s(from, pref > 0 ? t.y_up_bits : t.y_down_bits, pref, true).upper_s;
  if (bidirectional_ && y > x) {
    y = std::min(y, y_bounds_s(from, pref > 0 ? t.y_down_bits : t.y_up_bits, -pref, true).upper_s);
  }
  return upper_ns(std::max(x, y));
}

PositioningBounds MemsMechanism::positioning_bounds_ns(const Request& /*r*/,
                                                       const PositioningTarget& t, Ns now) const {
  // Positioning is max(X + settle, Y) with Y the sooner direction's (Eq. 3.1,
  // position_for), so bounds on X and on each direction's Y bound it; except
  // that the estimate (positioning_target_ns) returns X + settle outright when
  // the closed-form Y bound in the track's direction fits inside it. On a
  // unidirectional device that direction need not be the one read (+1), so
  // the estimate can lie below max(X + settle, Y). Follow the same test.
  const SledState from = start_state(now);
  SeekBounds x;
  bool estimate_may_skip_y = false;
  if (t.x_bits != from.x_bits) {
    x = base_seek_bounds_s(x_axis_, x_m(from.x_bits), x_m(t.x_bits), 0);
    x.lower_s += settle_s_;
    x.upper_s += settle_s_;
    const double y_closed_form =
        y_upper_bound_s(from, t.dir > 0 ? t.y_up_bits : t.y_down_bits, t.dir);
    if (y_closed_form <= x.lower_s - kBoundMarginS) {
      return {lower_ns(x.lower_s), upper_ns(x.upper_s)};  // surely X + settle
    }
    estimate_may_skip_y = y_closed_form <= x.upper_s + kBoundMarginS;
  }
  const std::int32_t pref = bidirectional_ ? t.dir : +1;
  const SeekBounds y_pref = y_bounds_s(from, pref > 0 ? t.y_up_bits : t.y_down_bits, pref);
  // X usually dominates (thesis §3.3): then the other direction cannot matter.
  if (y_pref.upper_s <= x.lower_s) return {lower_ns(x.lower_s), upper_ns(x.upper_s)};
  SeekBounds y = y_pref;
  if (bidirectional_) {
    const SeekBounds y_other = y_bounds_s(from, pref > 0 ? t.y_down_bits : t.y_up_bits, -pref);
    y.lower_s = std::min(y.lower_s, y_other.lower_s);
    y.upper_s = std::min(y.upper_s, y_other.upper_s);
  }
  const double lower = estimate_may_skip_y ? x.lower_s : std::max(x.lower_s, y.lower_s);
  return {lower_ns(lower), upper_ns(std::max(x.upper_s, y.upper_s))};
}

MediaPoint MemsMechanism::point_of(Lbn lbn) const {
  const PhysicalAddress a = geometry_.to_physical(lbn);
  return {(a.x + 0.5) / geometry_.sx(), (a.y + 0.5) / geometry_.sy(),
          Geometry::track_runs_up(geometry_.track_of(lbn))};
}

MediaPoint MemsMechanism::current_point() const {
  const double band = geometry_.sy() * sector_bits_ + params_.servo_bits_per_sector;
  return {(sled_.x_bits + half_x_ + 0.5) / geometry_.sx(),
          std::clamp((sled_.y_bits + y_centre_) / band, 0.0, 1.0), sled_.y_dir > 0};
}

void MemsMechanism::set_idle_timeout_ns(Ns timeout) {
  params_.power.idle_timeout_ns = timeout;
  power_.set_idle_timeout_ns(timeout);
}

EnergyReport MemsMechanism::energy(Ns until) const {
  PowerMeter copy = power_;
  copy.gap(std::max<Ns>(0, until - last_done_ns_), inactive_);
  return copy.report();
}

}  // namespace memstore::model
