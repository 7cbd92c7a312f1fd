#include "model/seek_piecewise.h"

#include <algorithm>
#include <cmath>

namespace memstore::model {
namespace {

// Time to cover [xa, xb] (xa < xb, travel toward +) under net acceleration
// a(x) = thrust - k x, starting at speed v. Returns the time and updates v to
// the speed at xb.
double phase_s(double thrust, double k, double xa, double xb, double& v, int chunks) {
  const double dx = (xb - xa) / chunks;
  if (dx <= 0) return 0;
  double t = 0;
  double a_start = thrust - k * xa;
  for (int i = 1; i <= chunks; ++i) {
    const double a_end = thrust - k * (xa + dx * i);
    const double a = 0.5 * (a_start + a_end);  // thesis: a_i = (a(x_i) + a(x_{i+1})) / 2
    const double v2 = std::max(0.0, v * v + 2 * a * dx);
    const double v_next = std::sqrt(v2);
    // Constant acceleration over the piece: distance = mean speed * time.
    const double sum = v + v_next;
    t += sum > 0 ? 2 * dx / sum : 0;
    v = v_next;
    a_start = a_end;
  }
  return t;
}

}  // namespace

double base_seek_s(const Axis& axis, double x0, double x1, double v0, double v1, int chunks) {
  if (x0 == x1) return 0;
  // Work in a frame where travel is toward +x; the spring is symmetric.
  if (x1 < x0) {
    x0 = -x0;
    x1 = -x1;
  }
  const double a = axis.accel_m_s2;
  const double k = axis.spring_per_m;
  // Energy per unit mass: 1/2 (v1^2 - v0^2) = a (2 xm - x0 - x1) - k/2 (x1^2 - x0^2).
  double xm = 0.5 * (x0 + x1) + (0.5 * (v1 * v1 - v0 * v0) + 0.5 * k * (x1 * x1 - x0 * x0)) / (2 * a);
  xm = std::clamp(xm, x0, x1);
  double v = v0;
  double t = phase_s(a, k, x0, xm, v, chunks);
  t += phase_s(-a, k, xm, x1, v, chunks);
  return t;
}

double turnaround_s(const Axis& axis, double x, double v) {
  if (v == 0) return 0;
  // Reversing a sled moving with velocity v needs net acceleration against v:
  // the actuator plus the spring (-k x), which helps when x has v's sign.
  const double toward_reverse = axis.accel_m_s2 + axis.spring_per_m * (v > 0 ? x : -x);
  return 2 * std::abs(v) / toward_reverse;
}

YSeek y_seek(const Axis& axis, double x0, double v0, double x1, double v1) {
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
  s.base_s = base_seek_s(axis, x0, x1, start_speed, end_speed);
  return s;
}

}  // namespace memstore::model
