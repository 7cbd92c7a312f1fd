#include "target/delivery/model_clock.h"

namespace memstore::delivery {

scsi::Ns ModelClock::model_at(WallNs wall, const scsi::Timing& t) const {
  const WallNs since = wall - epoch_;
  if (t.mode == scsi::TimingMode::kScaled) {
    return static_cast<scsi::Ns>(static_cast<double>(since) / t.scale);
  }
  return since;
}

WallNs ModelClock::wall_at(scsi::Ns model, const scsi::Timing& t) const {
  const double scale = t.mode == scsi::TimingMode::kScaled ? t.scale : 1.0;
  if (scale == 1.0) return epoch_ + model;  // exact, without a round trip through double
  return epoch_ + static_cast<WallNs>(static_cast<double>(model) * scale);
}

}  // namespace memstore::delivery
