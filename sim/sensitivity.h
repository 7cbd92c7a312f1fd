// SPDX-License-Identifier: Apache-2.0
// Two of the thesis' parameter-sensitivity figures (§3.6), computed from the
// model's own pure seek functions (model/seek_piecewise.h).
//
// Fig. 3.6, "sustained bandwidth of a single tip given increasing per-tip
// data rates", for G1, G2 and G3 with their accelerations. A tip streams its
// column of region_bits_y bits at the access speed v = rate x bit width, then
// the device switches to the next track, which costs "the minimum turnaround
// time" (§3.1: "The sequential track switch time is equal to the minimum
// turnaround time"): Eq. 3.6 at the column's end, where the sled moves away
// from the centre and the springs help. A unidirectional device (G1) must
// instead get back to the column's start moving +Y: the model's Y seek from
// (+edge, +v) to (-edge, +v), two turnarounds and a base seek. The sustained
// rate is rate x t_column / (t_column + t_switch), in the x axis' units.
// Choices, named in docs/reproduction.md: the cylinder switch every Ny tracks
// is left out (the thesis' point is the turnaround); Eq. 3.6 is applied at
// any speed, even where the reversal would carry the sled past the media's
// edge (the model's validate() rejects such presets, so this uses Axis alone).
//
// Fig. 3.9, "the turnaround time at each displacement from center given that
// the sled is moving at the access velocity in the positive direction", for
// a G1, with the preset's springs and with spring factor 0: Eq. 3.6 at each
// displacement.
#pragma once

#include <vector>

#include "model/params.h"

namespace memstore::sim {

struct TipRatePoint {
  double rate_kbit_s = 0;       // the per-tip data rate set
  double sustained_kbit_s = 0;  // what the tip delivers over read + switch
  double column_ms = 0;         // one column at the access speed
  double switch_ms = 0;         // the sequential track switch after it
};

// REQUIRES: rate_bit_s > 0; params describe a MEMStore (bit width, region,
// acceleration, spring factor and bidirectional are read).
TipRatePoint tip_rate_point(const model::DeviceParams& params, double rate_bit_s);

struct TurnaroundPoint {
  double displacement_um = 0;     // sled displacement from centre in Y
  double with_springs_ms = 0;     // the preset's spring factor
  double without_springs_ms = 0;  // spring factor 0: 2 v / a everywhere
};

// `points` displacements evenly over the Y range, edge to edge.
// REQUIRES: points >= 2.
std::vector<TurnaroundPoint> turnaround_profile(const model::DeviceParams& params, int points);

}  // namespace memstore::sim
