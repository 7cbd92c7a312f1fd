// SPDX-License-Identifier: Apache-2.0
#include "model/seek_reference.h"

#include <algorithm>
#include <cmath>
#include <functional>

#include "model/seek_piecewise.h"

namespace memstore::model {
namespace {

struct State {
  double x;
  double v;
};

// One RK4 step of x' = v, v' = thrust - k x.
State rk4(State s, double thrust, double k, double h) {
  auto acc = [&](double x) { return thrust - k * x; };
  const double k1x = s.v, k1v = acc(s.x);
  const double k2x = s.v + 0.5 * h * k1v, k2v = acc(s.x + 0.5 * h * k1x);
  const double k3x = s.v + 0.5 * h * k2v, k3v = acc(s.x + 0.5 * h * k2x);
  const double k4x = s.v + h * k3v, k4v = acc(s.x + h * k3x);
  return {s.x + h / 6 * (k1x + 2 * k2x + 2 * k3x + k4x),
          s.v + h / 6 * (k1v + 2 * k2v + 2 * k3v + k4v)};
}

// Integrates from `s` until done(state) first holds; returns the elapsed time,
// with the crossing step located by bisection to well under a nanosecond.
double integrate_until(State& s, double thrust, double k, double step,
                       const std::function<bool(const State&)>& done) {
  double t = 0;
  for (int guard = 0; guard < 100'000'000 && !done(s); ++guard) {
    State next = rk4(s, thrust, k, step);
    if (done(next)) {
      double lo = 0, hi = step;
      for (int i = 0; i < 60; ++i) {
        const double mid = 0.5 * (lo + hi);
        (done(rk4(s, thrust, k, mid)) ? hi : lo) = mid;
      }
      s = rk4(s, thrust, k, hi);
      return t + hi;
    }
    s = next;
    t += step;
  }
  return t;
}

}  // namespace

double reference_base_seek_s(const Axis& axis, double x0, double x1, double v0, double v1,
                             double step) {
  if (x0 == x1) return 0;
  // Energy conservation fixes the switch point exactly for the continuous system.
  const SeekFrame f = seek_frame(axis, x0, x1, v0, v1);
  const double a = axis.accel_m_s2;
  const double k = axis.spring_per_m;
  State s{f.x0, v0};
  double t = integrate_until(s, a, k, step, [xm = f.xm](const State& st) { return st.x >= xm; });
  t += integrate_until(s, -a, k, step,
                       [to = f.x1](const State& st) { return st.x >= to || st.v <= 0; });
  return t;
}

double reference_turnaround_s(const Axis& axis, double x, double v, double step) {
  if (v == 0) return 0;
  // Mirror so the sled moves toward +; the actuator pushes toward -.
  const double sign = v > 0 ? 1.0 : -1.0;
  State s{x * sign, std::abs(v)};
  const double target = -std::abs(v);
  return integrate_until(s, -axis.accel_m_s2, axis.spring_per_m, step,
                         [target](const State& st) { return st.v <= target; });
}

}  // namespace memstore::model
