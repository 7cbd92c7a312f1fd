// SPDX-License-Identifier: Apache-2.0
#include "sim/sensitivity.h"

#include "model/axis.h"
#include "model/seek_piecewise.h"

namespace memstore::sim {
namespace {

constexpr double kMsPerS = 1e3;

model::Axis y_axis(const model::DeviceParams& p, double spring_factor) {
  const double bit_m = p.bit_width_nm * 1e-9;
  return model::Axis::make(p.sled_accel_m_s2, spring_factor, p.region_bits_y * bit_m / 2);
}

}  // namespace

TipRatePoint tip_rate_point(const model::DeviceParams& p, double rate_bit_s) {
  const model::Axis axis = y_axis(p, p.spring_factor);
  const double v = rate_bit_s * p.bit_width_nm * 1e-9;
  const double edge = axis.max_offset_m;
  const double column_s = p.region_bits_y / rate_bit_s;
  // Bidirectional: reverse at the edge just read to (moving away from the
  // centre, so the springs help: the minimum turnaround, §3.1). G1 reads
  // only moving +Y: back to the other edge, arriving at +v.
  const double switch_s = p.bidirectional ? model::turnaround_s(axis, edge, v)
                                          : model::y_seek(axis, edge, v, -edge, v).total_s();
  TipRatePoint out;
  out.rate_kbit_s = rate_bit_s / 1e3;
  out.column_ms = column_s * kMsPerS;
  out.switch_ms = switch_s * kMsPerS;
  out.sustained_kbit_s = out.rate_kbit_s * column_s / (column_s + switch_s);
  return out;
}

std::vector<TurnaroundPoint> turnaround_profile(const model::DeviceParams& p, int points) {
  const model::Axis springs = y_axis(p, p.spring_factor);
  const model::Axis none = y_axis(p, 0);
  const double v = p.per_tip_rate_bit_s * p.bit_width_nm * 1e-9;
  std::vector<TurnaroundPoint> out;
  for (int i = 0; i < points; ++i) {
    const double x = springs.max_offset_m * (2.0 * i / (points - 1) - 1);
    out.push_back({x * 1e6, model::turnaround_s(springs, x, v) * kMsPerS,
                   model::turnaround_s(none, x, v) * kMsPerS});
  }
  return out;
}

}  // namespace memstore::sim
