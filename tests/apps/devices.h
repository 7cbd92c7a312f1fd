// SPDX-License-Identifier: Apache-2.0
// Devices for the application tests: G2, and a small device a whole scan
// finishes on quickly (p = 10, N = 40, Ny = 4, Sx = 100, Sy = 5: 20,000
// blocks), with or without micropositioning and conflict groups. The idle
// timeout is off so that gaps between batches never spin the sled down: the
// same batch sequence then costs the same on every device instance.
#pragma once

#include <memory>

#include "apps/sim_block_device.h"
#include "host/geometry.h"
#include "model/params.h"
#include "modepages/mode_vendor.h"

namespace memstore::apps::testing {

inline model::DeviceParams small_params(int micropositioning = 0, int conflict_group = 0) {
  model::DeviceParams p = *model::preset("g2");
  p.name = "small";
  p.tips = 2560;
  p.active_tips = 640;
  p.region_bits_x = 100;
  p.region_bits_y = 460;
  p.micropositioning = micropositioning;
  p.conflict_group = conflict_group;
  p.power.idle_timeout_ns = -1;
  return p;
}

inline model::DeviceParams g2_params() {
  return *model::preset("g2");
}

inline host::HostGeometry geometry_of(const model::DeviceParams& p) {
  return *host::HostGeometry::from_page(modepages::geometry_page_from(p));
}

inline std::unique_ptr<SimBlockDevice> sim(const model::DeviceParams& p, bool keep_data = false) {
  return SimBlockDevice::create(p, keep_data).value();
}

}  // namespace memstore::apps::testing
