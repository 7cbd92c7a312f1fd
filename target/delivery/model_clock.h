// The model's clock against the wall clock (docs/design.md, "Threads"): model
// time 0 is the wall instant the transport started (the epoch); in realtime
// and off timing one model ns is one wall ns, in scaled timing the model's
// clock runs `scale` times slower than the wall, so every modeled delay is
// delivered `scale` times as long.
//
// The timing is passed on each call, not kept: MODE SELECT of the control
// page (22h) can change it at run time. A changed scale rescales the past
// too; the control page documents that a change applies only roughly from
// then on.
#pragma once

#include "target/delivery/clock.h"
#include "target/scsi/lun.h"

namespace memstore::delivery {

class ModelClock {
 public:
  explicit ModelClock(WallNs epoch) : epoch_(epoch) {}

  WallNs epoch() const { return epoch_; }
  // The model time at wall instant `wall` (truncated in scaled timing).
  scsi::Ns model_at(WallNs wall, const scsi::Timing& t) const;
  // The wall instant of model time `model` (truncated in scaled timing).
  WallNs wall_at(scsi::Ns model, const scsi::Timing& t) const;

 private:
  WallNs epoch_;
};

}  // namespace memstore::delivery
