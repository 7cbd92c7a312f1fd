// SPDX-License-Identifier: Apache-2.0
// The piecewise-linear seek model (thesis §3.1, Eqs. 3.1-3.6).
//
// Pure functions of their inputs. A base seek moves the sled from x0 to x1 in
// two phases, accelerating toward x1 and then decelerating, and starts and ends
// with speeds v0 and v1 along the direction of travel. Each phase is cut into
// `chunks` pieces of equal length; within a piece the net acceleration is the
// average of the net accelerations at its ends (thesis §3.1). Because the
// spring force is linear in x, that average times the piece length is the
// exact work done, so the speed at every piece boundary is exact and the only
// approximation is the time spent inside each piece.
//
// The switch point between the phases follows from energy conservation
// (second paper, Eq. 2, generalised to v0 != v1), in closed form.
#pragma once

#include "model/axis.h"

namespace memstore::model {

inline constexpr int kChunksPerPhase = 8;

// A base seek seen in the frame where travel is toward +x (the spring is
// symmetric, so a seek toward -x is its mirror image), with the switch point
// xm between its phases. Energy per unit mass fixes it in closed form:
//   1/2 (v1^2 - v0^2) = a (2 xm - x0 - x1) - k/2 (x1^2 - x0^2),
// clamped to [x0, x1]. The piecewise model and the reference integrator
// (seek_reference.h) share it. REQUIRES: x0_m != x1_m.
struct SeekFrame {
  double x0 = 0, x1 = 0, xm = 0;
};
inline SeekFrame seek_frame(const Axis& axis, double x0, double x1, double v0, double v1) {
  if (x1 < x0) {
    x0 = -x0;
    x1 = -x1;
  }
  const double a = axis.accel_m_s2;
  const double k = axis.spring_per_m;
  const double xm =
      0.5 * (x0 + x1) + (0.5 * (v1 * v1 - v0 * v0) + 0.5 * k * (x1 * x1 - x0 * x0)) / (2 * a);
  return {x0, x1, xm < x0 ? x0 : (x1 < xm ? x1 : xm)};
}

// REQUIRES: v0_m_s >= 0, v1_m_s >= 0 (speeds along the direction x0 -> x1).
double base_seek_s(const Axis& axis, double x0_m, double x1_m, double v0_m_s, double v1_m_s,
                   int chunks = kChunksPerPhase);

// base_seek_s with the model's chunks, one value at a time: what base_seek_s
// computes packed, for the tests that check the two agree bit for bit.
double base_seek_scalar_s(const Axis& axis, double x0_m, double x1_m, double v0_m_s, double v1_m_s);

// For the tests: the packed computation base_seek_s uses for the model's
// chunks, on the SSE2 path or (with `avx`, where the CPU has it) the AVX one,
// so that both can be held to base_seek_scalar_s on any x86-64 host.
namespace seek_detail {
bool cpu_has_avx();
double base_seek_packed_s(const Axis& axis, double x0_m, double x1_m, double v0_m_s, double v1_m_s,
                          bool avx);
}  // namespace seek_detail

// Bounds on base_seek_s (with the model's chunks) for a seek that starts and
// ends at the same speed v (X: 0; Y: the access speed), for schedulers that
// need the fastest of many seeks without computing each (SPTF, thesis §6.1.2).
//
// Why they hold. In the frame where travel is toward +x the net acceleration
// of either phase is +-a - k x: linear in x with slope -k, so the squared
// speed v(x)^2 is a concave quadratic, and the model's speeds at chunk ends lie
// on it exactly (the work done, Eqs. 3.2-3.3). Inside a chunk the model holds
// the acceleration constant (§3.1), which makes v^2 linear between the chunk's
// ends: the chord, at or below the concave curve, so the chunk takes at least
// as long as the spring-mass motion over it. Cutting a phase into fewer,
// longer chunks puts the chord lower again. Hence, per phase,
//   spring-mass time  <=  model (8 chunks)  <=  model with 1 chunk.
// upper_s is the 1-chunk time, 2 d / (v_start + v_end) per phase. lower_s is
// the spring-mass time in closed form: a phase is harmonic motion about
// +-a/k, so (x, v / sqrt k) runs on a circle of radius R at angular speed
// sqrt k, and covers the angle 2 asin(c / 2R) (c the chord between the
// phase's end points) or more; asin is bounded below by its Taylor series
// cut after z^7 (every term is positive). Both ignore rounding: callers keep
// a few ns of margin.
struct SeekBounds {
  double lower_s = 0;
  double upper_s = 0;
};
// REQUIRES: v_m_s >= 0. Where the spring outpulls the actuator (spring factor
// above 1, near the edges) the bounds are 0 and infinity. With upper_only,
// lower_s is left 0 (it costs two more square roots and divisions).
SeekBounds base_seek_bounds_s(const Axis& axis, double x0_m, double x1_m, double v_m_s,
                              bool upper_only = false);

// Eq. 3.6: reversing velocity v (signed) at displacement x takes 2|v| / a(x),
// where a(x) is the actuator acceleration plus the spring's contribution:
// the spring helps reverse a sled moving away from the centre and hurts one
// moving toward it (thesis Fig. 3.9).
double turnaround_s(const Axis& axis, double x_m, double v_m_s);

// A seek ending at rest (the X axis): base seek from rest to rest.
inline double rest_to_rest_s(const Axis& axis, double x0_m, double x1_m) {
  return base_seek_s(axis, x0_m, x1_m, 0, 0);
}

// Eq. 3.6 generalised to a Y seek between moving states (v0, v1 signed; v0 may
// be 0): the base seek in the direction of travel plus one turnaround when the
// sled starts moving away from x1 and one when it must arrive moving back
// (thesis §2.3: "one or two turnarounds"). `turnarounds` receives 0, 1 or 2.
struct YSeek {
  double base_s = 0;
  double turnaround_s = 0;
  int turnarounds = 0;
  double total_s() const { return base_s + turnaround_s; }
};

// y_seek with the base seek supplied by the caller: `base(x0, x1, start, end)`
// must return base_seek_s(axis, x0, x1, start, end) for the speeds along the
// direction of travel (both >= 0). MemsMechanism passes a lookup in its
// precomputed Y table (model/y_seek_table.h); the turnaround logic is this one
// either way.
template <class BaseSeek>
YSeek y_seek_with(const Axis& axis, double x0, double v0, double x1, double v1, BaseSeek&& base) {
  YSeek s;
  // Direction of travel; with no distance to cover, the direction the sled
  // must end up moving in.
  double dir = x1 > x0 ? 1.0 : (x1 < x0 ? -1.0 : (v1 != 0 ? (v1 > 0 ? 1.0 : -1.0) : 1.0));
  if (x1 == x0) {
    if (v0 == v1) return s;
    if (v0 != 0 && v1 != 0) {  // same place, opposite directions: one reversal
      s.turnaround_s = turnaround_s(axis, x0, v0);
      s.turnarounds = 1;
      return s;
    }
  }
  double start_speed = v0 * dir;
  if (start_speed < 0) {  // moving away from the target: reverse first
    s.turnaround_s += turnaround_s(axis, x0, v0);
    ++s.turnarounds;
    start_speed = -start_speed;
  }
  double end_speed = v1 * dir;
  if (end_speed < 0) {  // must arrive moving back: overshoot and reverse at x1
    s.turnaround_s += turnaround_s(axis, x1, v1 * -1.0);
    ++s.turnarounds;
    end_speed = -end_speed;
  }
  s.base_s = base(x0, x1, start_speed, end_speed);
  return s;
}

inline YSeek y_seek(const Axis& axis, double x0_m, double v0_m_s, double x1_m, double v1_m_s) {
  return y_seek_with(axis, x0_m, v0_m_s, x1_m, v1_m_s,
                     [&axis](double x0, double x1, double start, double end) {
                       return base_seek_s(axis, x0, x1, start, end);
                     });
}

}  // namespace memstore::model
