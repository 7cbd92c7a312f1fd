// SPDX-License-Identifier: Apache-2.0
// RAID-0 striping over one or two groups of devices; described in the header.
#include "sim/array_layout.h"

#include <algorithm>

namespace memstore::sim {

StripeMap::StripeMap(std::int32_t unit_blocks, std::vector<std::size_t> a_devices,
                     std::int64_t a_rows, std::vector<std::size_t> b_devices)
    : unit_(unit_blocks), a_(std::move(a_devices)), a_rows_(a_rows), b_(std::move(b_devices)) {}

model::Lbn StripeMap::region_a_blocks() const {
  if (a_rows_ >= kUnbounded) return kUnbounded;
  return a_rows_ * static_cast<std::int64_t>(a_.size()) * unit_;
}

std::vector<Piece> StripeMap::pieces(model::Lbn lbn, std::int32_t blocks) const {
  std::vector<Piece> out;
  const std::int64_t a_units =
      a_rows_ >= kUnbounded ? kUnbounded : a_rows_ * static_cast<std::int64_t>(a_.size());
  model::Lbn at = lbn;
  std::int64_t left = blocks;
  while (left > 0) {
    const std::int64_t unit = at / unit_;
    const std::int64_t within = at % unit_;
    const auto take = static_cast<std::int32_t>(std::min<std::int64_t>(left, unit_ - within));
    Piece p;
    if (unit < a_units) {
      const auto n = static_cast<std::int64_t>(a_.size());
      p.device = a_[static_cast<std::size_t>(unit % n)];
      p.lbn = (unit / n) * unit_ + within;
    } else {
      const std::int64_t u = unit - a_units;
      const auto n = static_cast<std::int64_t>(b_.size());
      p.device = b_[static_cast<std::size_t>(u % n)];
      p.lbn = (a_rows_ + u / n) * unit_ + within;
    }
    p.blocks = take;
    // Consecutive units on one device (one device in the group) join into one piece.
    if (!out.empty() && out.back().device == p.device &&
        out.back().lbn + out.back().blocks == p.lbn) {
      out.back().blocks += take;
    } else {
      out.push_back(p);
    }
    at += take;
    left -= take;
  }
  return out;
}

}  // namespace memstore::sim
