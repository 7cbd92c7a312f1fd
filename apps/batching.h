// SPDX-License-Identifier: Apache-2.0
// Turning a set of blocks into MEMS BATCH-sized pieces: runs of consecutive
// LBNs become one descriptor each, and the descriptors are cut into batches
// within mode page 20h's limits (descriptors, blocks) and one sled each
// (parallel access happens within a sled).
#pragma once

#include <cstdint>
#include <span>
#include <vector>

#include "apps/block_device.h"

namespace memstore::apps {

// Runs of consecutive blocks of `lbns` (ascending, distinct) as extents.
std::vector<Extent> merge_runs(std::span<const Lbn> lbns, Op op);

struct BatchLimits {
  std::uint32_t max_descriptors = 1;
  std::uint32_t max_blocks = 1;
  std::uint64_t blocks_per_sled = 1;
};
BatchLimits limits_of(const BlockDevice& device);

// `extents` in order, cut into batches: an extent is split where a batch
// fills up or a sled ends; no batch spans two sleds.
// REQUIRES: every limit >= 1.
std::vector<std::vector<Extent>> split_batches(std::span<const Extent> extents,
                                               const BatchLimits& limits);

}  // namespace memstore::apps
