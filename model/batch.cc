// SPDX-License-Identifier: Apache-2.0
#include "model/batch.h"

#include <algorithm>
#include <map>
#include <tuple>

namespace memstore::model {
namespace {

struct Block {
  PhysicalAddress at;
  Lbn lbn;
};

// Steps being filled for one window, with the squares and groups they use.
struct OpenStep {
  MediaStep step;
  std::vector<std::int32_t> squares;
  std::vector<std::int32_t> groups;
};

}  // namespace

std::vector<MediaStep> plan_batch(const Geometry& g, std::span<const BatchExtent> extents) {
  std::vector<Block> blocks;
  for (const BatchExtent& e : extents) {
    for (Lbn l = e.lbn; l < e.lbn + e.blocks; ++l) blocks.push_back({g.to_physical(l), l});
  }
  std::sort(blocks.begin(), blocks.end(), [](const Block& a, const Block& b) {
    return std::tie(a.at.sled, a.at.y, a.at.x, a.lbn) < std::tie(b.at.sled, b.at.y, b.at.x, b.lbn);
  });

  std::vector<MediaStep> out;
  const std::int32_t width = 2 * g.m() + 1;
  std::size_t i = 0;
  while (i < blocks.size()) {
    // One window: same sled and row, cylinders [x_lo, x_lo + 2M].
    const PhysicalAddress lo = blocks[i].at;
    std::size_t j = i;
    while (j < blocks.size() && blocks[j].at.sled == lo.sled && blocks[j].at.y == lo.y &&
           blocks[j].at.x < lo.x + width) {
      ++j;
    }
    const std::int32_t base_x = std::min(lo.x + g.m(), g.sx() - 1);
    std::vector<OpenStep> open;
    for (std::size_t k = i; k < j; ++k) {
      const std::int32_t square = blocks[k].at.square;
      const std::int32_t group = g.conflict_group() > 0 ? square / g.conflict_group() : -1;
      auto fits = [&](const OpenStep& s) {
        return static_cast<std::int32_t>(s.step.lbns.size()) < g.p() &&
               std::find(s.squares.begin(), s.squares.end(), square) == s.squares.end() &&
               (group < 0 || std::find(s.groups.begin(), s.groups.end(), group) == s.groups.end());
      };
      auto it = std::find_if(open.begin(), open.end(), fits);
      if (it == open.end()) {
        open.push_back({MediaStep{lo.sled, base_x, lo.y, {}}, {}, {}});
        it = std::prev(open.end());
      }
      it->step.lbns.push_back(blocks[k].lbn);
      it->squares.push_back(square);
      if (group >= 0) it->groups.push_back(group);
    }
    for (OpenStep& s : open) {
      std::sort(s.step.lbns.begin(), s.step.lbns.end());
      out.push_back(std::move(s.step));
    }
    i = j;
  }
  std::sort(out.begin(), out.end(), [](const MediaStep& a, const MediaStep& b) {
    return std::tie(a.sled, a.x, a.y) < std::tie(b.sled, b.x, b.y);
  });
  return out;
}

}  // namespace memstore::model
