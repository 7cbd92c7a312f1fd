// SPDX-License-Identifier: Apache-2.0
#include "target/delivery/model_clock.h"

#include <limits>

namespace memstore::delivery {
namespace {

// A scaled time in ns, saturated at the int64 range (at the smallest scale,
// 0.001, the model's clock passes 2^63 ns after 106 days at that rate):
// the arithmetic stays defined, and a delivery at the end of time never
// comes, which is what such a clock means.
std::int64_t saturated_ns(double ns) {
  constexpr double kMax = 9.2e18;  // just below 2^63
  if (ns != ns) return 0;
  if (!(ns < kMax)) return std::numeric_limits<std::int64_t>::max();
  if (!(ns > -kMax)) return std::numeric_limits<std::int64_t>::min();
  return static_cast<std::int64_t>(ns);
}

std::int64_t saturated_add(std::int64_t a, std::int64_t b) {
  std::int64_t sum = 0;
  if (!__builtin_add_overflow(a, b, &sum)) return sum;
  return b < 0 ? std::numeric_limits<std::int64_t>::min()
               : std::numeric_limits<std::int64_t>::max();
}

double scale_of(const scsi::Timing& t) {
  return t.mode == scsi::TimingMode::kScaled ? t.scale : 1.0;
}

}  // namespace

scsi::Ns ModelClock::model_at(WallNs wall, const scsi::Timing& t) const {
  const WallNs since = wall - anchor_wall_;
  const double scale = scale_of(t);
  // Exact, without a round trip through double, at 1x.
  if (scale == 1.0) return saturated_add(anchor_model_, since);
  return saturated_add(anchor_model_, saturated_ns(static_cast<double>(since) / scale));
}

WallNs ModelClock::wall_at(scsi::Ns model, const scsi::Timing& t) const {
  const double scale = scale_of(t);
  const scsi::Ns ahead = model - anchor_model_;
  if (scale == 1.0) return saturated_add(anchor_wall_, ahead);
  return saturated_add(anchor_wall_, saturated_ns(static_cast<double>(ahead) * scale));
}

void ModelClock::retime(WallNs now, const scsi::Timing& before) {
  anchor_model_ = model_at(now, before);
  anchor_wall_ = now;
}

}  // namespace memstore::delivery
