// SPDX-License-Identifier: Apache-2.0
// Planning a batch (thesis §6.3.3-6.3.5): a set of (op, LBN, count) extents
// grouped into as few parallel media steps as the geometry allows.
//
// A media step positions the sled once at (x, y) and transfers up to p
// blocks: each from a different square (one tip per square), from different
// conflict groups when the device has shared components (G > 0), and from
// cylinders within x +- M when the tips can microposition (thesis §6.3.1).
#pragma once

#include <cstdint>
#include <span>
#include <vector>

#include "model/geometry.h"
#include "model/request.h"

namespace memstore::model {

struct BatchExtent {
  Op op = Op::kRead;
  Lbn lbn = 0;
  std::int32_t blocks = 1;
};

struct MediaStep {
  std::int32_t sled = 0;
  std::int32_t x = 0;     // cylinder the sled is positioned at
  std::int32_t y = 0;     // row
  std::vector<Lbn> lbns;  // ascending
};

// Greedy plan: blocks are bucketed by (sled, y); within a bucket, windows of
// 2M+1 cylinders are taken from the lowest cylinder up, and the blocks of a
// window fill steps first-fit under the square and conflict-group rules. With
// M = 0 and no conflict groups this is optimal: ceil(blocks at (x, y) / p)
// steps per position. Steps come out sorted by (sled, x, y).
// REQUIRES: every extent inside the device.
std::vector<MediaStep> plan_batch(const Geometry& geometry, std::span<const BatchExtent> extents);

}  // namespace memstore::model
