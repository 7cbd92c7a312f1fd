// SPDX-License-Identifier: Apache-2.0
// Small devices shared by the model tests.
#pragma once

#include "model/params.h"

namespace memstore::model::testing {

// The device of thesis Figs. 2.5 and 6.10 / Table 6.1: 9 tips, 3 active,
// one tip per block, Sx = Sy = 3, so p = 3, N = 9, ST = 9, SC = 27.
inline DeviceParams fig610_device() {
  DeviceParams p = *preset("g2");
  p.name = "fig610";
  p.tips = 9;
  p.active_tips = 3;
  p.tips_per_block = 1;
  p.block_bytes = 8;  // one 80-bit tip sector = 8 encoded bytes
  p.region_bits_x = 3;
  p.region_bits_y = 3 * 90 + 10;
  return p;
}

}  // namespace memstore::model::testing
