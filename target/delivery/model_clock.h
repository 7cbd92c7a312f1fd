// SPDX-License-Identifier: Apache-2.0
// The model's clock against the wall clock (docs/design.md, "Threads"): model
// time 0 is the wall instant the transport started (the epoch); in realtime
// and off timing one model ns is one wall ns, in scaled timing the model's
// clock runs `scale` times slower than the wall, so every modeled delay is
// delivered `scale` times as long.
//
// The timing is passed on each call, not kept: MODE SELECT of the control
// page (22h) can change it at run time. When it changes, the caller says so
// (retime) and the clock goes on from where it was: model time stays
// continuous, and the new rate applies from that instant on. (Rescaling the
// past instead would move the model's "now" by the whole uptime times the
// change of scale, so that after a day at 1x a switch to 2x would hold every
// command for a day.)
#pragma once

#include "target/delivery/clock.h"
#include "target/scsi/lun.h"

namespace memstore::delivery {

class ModelClock {
 public:
  explicit ModelClock(WallNs epoch) : epoch_(epoch), anchor_wall_(epoch) {}

  WallNs epoch() const { return epoch_; }
  // The model time at wall instant `wall` (truncated in scaled timing).
  scsi::Ns model_at(WallNs wall, const scsi::Timing& t) const;
  // The wall instant of model time `model` (truncated in scaled timing).
  WallNs wall_at(scsi::Ns model, const scsi::Timing& t) const;
  // The timing changed from `before` to `after` at wall instant `now`: the
  // model time of `now` stays what `before` made it.
  void retime(WallNs now, const scsi::Timing& before);

 private:
  WallNs epoch_;
  // The latest retime: its wall instant and its model time.
  WallNs anchor_wall_;
  scsi::Ns anchor_model_ = 0;
};

}  // namespace memstore::delivery
