// SPDX-License-Identifier: Apache-2.0
#include "apps/batching.h"

#include <algorithm>

namespace memstore::apps {

std::vector<Extent> merge_runs(std::span<const Lbn> lbns, Op op) {
  std::vector<Extent> out;
  for (const Lbn l : lbns) {
    if (!out.empty() && out.back().lbn + out.back().blocks == l && out.back().blocks < UINT32_MAX) {
      ++out.back().blocks;
    } else {
      out.push_back({op, l, 1});
    }
  }
  return out;
}

BatchLimits limits_of(const BlockDevice& d) {
  return {d.max_batch_descriptors(), d.max_batch_blocks(), d.geometry().page().blocks_per_sled};
}

std::vector<std::vector<Extent>> split_batches(std::span<const Extent> extents,
                                               const BatchLimits& limits) {
  std::vector<std::vector<Extent>> out;
  std::vector<Extent> cur;
  std::uint64_t cur_blocks = 0;
  std::uint64_t cur_sled = 0;
  auto flush = [&] {
    if (!cur.empty()) out.push_back(std::move(cur));
    cur.clear();
    cur_blocks = 0;
  };
  for (Extent e : extents) {
    while (e.blocks > 0) {
      const std::uint64_t sled = e.lbn / limits.blocks_per_sled;
      if (!cur.empty() && (sled != cur_sled || cur.size() == limits.max_descriptors ||
                           cur_blocks == limits.max_blocks)) {
        flush();
      }
      cur_sled = sled;
      const std::uint64_t to_sled_end = (sled + 1) * limits.blocks_per_sled - e.lbn;
      const std::uint64_t room = limits.max_blocks - cur_blocks;
      const auto take =
          static_cast<std::uint32_t>(std::min<std::uint64_t>({e.blocks, to_sled_end, room}));
      cur.push_back({e.op, e.lbn, take});
      cur_blocks += take;
      e.lbn += take;
      e.blocks -= take;
    }
  }
  flush();
  return out;
}

}  // namespace memstore::apps
