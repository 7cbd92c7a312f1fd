#include "model/mems_mechanism.h"

#include <algorithm>
#include <cmath>
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
  sled_ = rest_state();
}

SledState MemsMechanism::rest_state() const {
  // At rest the sled waits at the start of the centremost block, ready to
  // read it upward (DiskSim 4.0 uses the same point).
  const Lbn centre = geometry_.sx() / 2 * geometry_.sc() + geometry_.sc() / 2;
  const PhysicalAddress a = geometry_.to_physical(centre);
  return {x_bits_of(a.x), access_start_y(a.y, +1), +1};
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
  const std::int32_t to_x = x_bits_of(x);
  if (to_x == from.x_bits) return {};
  return {rest_to_rest_s(x_axis_, x_m(from.x_bits), x_m(to_x)), settle_s_};
}

Positioning MemsMechanism::position_in(const SledState& from, const XSeek& xs, std::int32_t y,
                                       std::int32_t dir) const {
  Positioning c;
  c.dir = dir;
  c.x_base_s = xs.base_s;
  c.settle_s = xs.settle_s;
  const std::int32_t to_y = access_start_y(y, dir);
  if (to_y != from.y_bits || dir != from.y_dir) {
    c.y = y_seek(y_axis_, y_m(from.y_bits), from.y_dir * v_m_s_, y_m(to_y), dir * v_m_s_);
  }
  c.total_s = std::max(c.x_base_s + c.settle_s, c.y.total_s());
  return c;
}

Positioning MemsMechanism::position_in(const SledState& from, std::int32_t x, std::int32_t y,
                                       std::int32_t dir) const {
  return position_in(from, x_seek(from, x), y, dir);
}

double MemsMechanism::y_upper_bound_s(const SledState& from, std::int32_t y,
                                      std::int32_t dir) const {
  // The sled stays between its start and its target, so no spring it meets
  // is stronger than at the one farther from the centre: the net acceleration
  // is at least a (1 - f r / r_max) throughout, and a seek with stronger
  // acceleration in both phases is faster (its speed is higher at every
  // point). The constant-acceleration seek at that floor, plus turnarounds at
  // the same floor, bounds the Y positioning from above; the margin covers the
  // piecewise error (docs/model.md).
  const double to = y_m(access_start_y(y, dir));
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
  return position_for(from, x_seek(from, x), y, preferred_dir);
}

Positioning MemsMechanism::position_for(const SledState& from, const XSeek& xs, std::int32_t y,
                                        std::int32_t preferred_dir) const {
  if (!bidirectional_) return position_in(from, xs, y, +1);
  // X usually dominates (thesis §3.3): when even the preferred direction's
  // worst Y fits inside X + settle, it ties any other direction at best.
  if (xs.base_s > 0 && y_upper_bound_s(from, y, preferred_dir) <= xs.base_s + xs.settle_s) {
    return position_in(from, xs, y, preferred_dir);
  }
  const Positioning a = position_in(from, xs, y, preferred_dir);
  if (a.total_s == 0) return a;  // already there: streaming on costs nothing
  const Positioning b = position_in(from, xs, y, -preferred_dir);
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
    const Positioning p = position_in(sled_, xs, s.y, dir);
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

void MemsMechanism::run_steps(std::span<const Step> steps, Breakdown& b) {
  bool first = b.media_steps == 0;
  std::int32_t prev_x = -1;
  for (std::size_t i = 0; i < steps.size(); ++i) {
    const Step& s = steps[i];
    Positioning pos = position_for(sled_, s.x, s.y, s.preferred_dir);
    // Reading this row against the direction the data continues in can only
    // pay off if the rows after it still chain; check when greedy went against it.
    if (i + 1 < steps.size() && pos.dir != s.preferred_dir) pos = look_ahead(pos, s, steps[i + 1]);
    if (min_turnaround_cylinder_switch_ && !first && std::abs(s.x - prev_x) == 1) {
      // Thesis §3.1: tips deflect to the next cylinder, so only the Y
      // turnaround remains.
      pos.x_base_s = pos.settle_s = 0;
      pos.total_s = pos.y.total_s();
    }
    const Ns total = to_ns(pos.total_s);
    (first ? b.seek_ns : b.switch_ns) += total;
    b.seek_x_ns += to_ns(pos.x_base_s);
    b.settle_ns += to_ns(pos.settle_s);
    b.seek_y_ns += to_ns(pos.y.base_s);
    b.turnaround_ns += to_ns(pos.y.turnaround_s);
    b.turnarounds += pos.y.turnarounds;
    power_.add(PowerState::kSeek, total);
    // Media time: cumulative rounding keeps the sum exact over many rows.
    ++b.media_steps;
    const Ns row_end = to_ns(row_s_ * b.media_steps);
    const Ns row_ns = row_end - to_ns(row_s_ * (b.media_steps - 1));
    power_.add(PowerState::kAccess, row_ns, s.blocks * params_.tips_per_block);
    sled_ = {x_bits_of(s.x), access_end_y(s.y, pos.dir), pos.dir};
    prev_x = s.x;
    first = false;
  }
  b.transfer_ns = to_ns(row_s_ * b.media_steps);
}

Breakdown MemsMechanism::service(const Request& r, Ns now) {
  if (r.batch != nullptr) return service_batch(*r.batch, now).breakdown;
  Breakdown b;
  begin_service(now, b);
  // Cut the request into media steps: the rest of each row of p blocks; when
  // a row ends a track inside a cylinder, the next track's first row lies at
  // the same (x, y) (track reversal) and shares the step while tips remain.
  const Geometry& g = geometry_;
  const Lbn end = r.lbn + r.blocks;
  std::vector<Step>& steps = steps_;  // reused: no allocation per request
  steps.clear();
  Lbn l = r.lbn;
  while (l < end) {
    const PhysicalAddress a = g.to_physical(l);
    const std::int64_t track = g.track_of(l);
    const Lbn row_end = std::min(end, (l / g.p() + 1) * g.p());
    Lbn next = row_end;
    if (next < end && next % g.st() == 0 && next % g.sc() != 0) {
      next = std::min(end, next + (g.p() - (row_end - l)));
    }
    steps.push_back(
        {a.x, a.y, static_cast<std::int32_t>(next - l), Geometry::track_runs_up(track) ? +1 : -1});
    l = next;
  }
  run_steps(steps, b);
  last_done_ns_ = now + b.service_ns();
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
    const Step s{m.x, m.y, static_cast<std::int32_t>(m.lbns.size()), +1};
    run_steps(std::span<const Step>(&s, 1), out.breakdown);
    out.steps.push_back(std::move(pending[best]));
    pending.erase(pending.begin() + static_cast<std::ptrdiff_t>(best));
  }
  last_done_ns_ = now + out.breakdown.service_ns();
  return out;
}

SledState MemsMechanism::state_after_reading(Lbn lbn) const {
  const PhysicalAddress a = geometry_.to_physical(lbn);
  const std::int32_t dir = Geometry::track_runs_up(geometry_.track_of(lbn)) ? +1 : -1;
  return {x_bits_of(a.x), access_end_y(a.y, dir), dir};
}

SledState MemsMechanism::start_state(Ns now) const {
  const Ns timeout = params_.power.idle_timeout_ns;
  const bool restart = inactive_ || (timeout >= 0 && now - last_done_ns_ > timeout);
  return restart ? rest_state() : sled_;
}

Ns MemsMechanism::positioning_ns(const Request& r, Ns now) const {
  const PhysicalAddress a = geometry_.to_physical(r.lbn);
  const int dir = Geometry::track_runs_up(geometry_.track_of(r.lbn)) ? +1 : -1;
  const SledState from = start_state(now);
  const XSeek xs = x_seek(from, a.x);
  if (xs.base_s > 0 && y_upper_bound_s(from, a.y, dir) <= xs.base_s + xs.settle_s) {
    return to_ns(xs.base_s + xs.settle_s);  // no Y seek can matter (see position_for)
  }
  return to_ns(position_for(from, xs, a.y, dir).total_s);
}

Ns MemsMechanism::positioning_lower_bound_ns(const Request& r, Ns now, Bound b) const {
  // Positioning is max(X + settle, Y + turnarounds) (Eq. 3.1), so a bound on
  // either axis bounds it. Between start and target no spring is stronger than
  // at the outer end, so the net acceleration never exceeds a + k r, and a
  // move at that acceleration is the fastest possible: bang-bang from rest to
  // rest for X, from and to access speed for Y, with each turnaround at least
  // 2 v / (a + k r). The margin covers the piecewise error (docs/model.md).
  // The coarse bound is the X part alone, which needs only the cylinder.
  const SledState from = start_state(now);
  const Lbn local = r.lbn % geometry_.blocks_per_sled();
  double bound = 0;
  const std::int32_t to_x = x_bits_of(static_cast<std::int32_t>(local / geometry_.sc()));
  if (to_x != from.x_bits) {
    const double x0 = x_m(from.x_bits), x1 = x_m(to_x);
    const double a_max =
        x_axis_.accel_m_s2 + x_axis_.spring_per_m * std::max(std::abs(x0), std::abs(x1));
    bound = 2 * std::sqrt(std::abs(x1 - x0) / a_max) + settle_s_;
  }
  if (b == Bound::kCoarse) {
    bound -= 5e-6;
    return bound > 0 ? static_cast<Ns>(bound * 1e9) : 0;
  }
  const PhysicalAddress a = geometry_.to_physical(r.lbn);
  double y_bound = -1;
  for (std::int32_t dir : {+1, -1}) {
    if (!bidirectional_ && dir < 0) continue;
    const double to = y_m(access_start_y(a.y, dir));
    const double at = y_m(from.y_bits);
    if (to == at && dir == from.y_dir) {
      y_bound = 0;
      break;
    }
    const double travel = to > at ? 1.0 : (to < at ? -1.0 : static_cast<double>(dir));
    const int turns = (from.y_dir * travel < 0 ? 1 : 0) + (dir * travel < 0 ? 1 : 0);
    const double a_max =
        y_axis_.accel_m_s2 + y_axis_.spring_per_m * std::max(std::abs(to), std::abs(at));
    const double v = v_m_s_;
    const double t =
        2 * (std::sqrt(v * v + a_max * std::abs(to - at)) - v) / a_max + turns * 2 * v / a_max;
    if (y_bound < 0 || t < y_bound) y_bound = t;
  }
  bound = std::max(bound, y_bound) - 5e-6;
  return bound > 0 ? static_cast<Ns>(bound * 1e9) : 0;
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
