#include "model/geometry.h"

#include <algorithm>
#include <cstdlib>

namespace memstore::model {

Geometry::Geometry(const DeviceParams& params)
    : p_(params.active_tips / params.tips_per_block),
      n_(params.tips / params.tips_per_block),
      sx_(params.region_bits_x),
      // Tip-sector rows along Y: each row is servo + data bits, with one more
      // servo field closing the column (thesis Fig. 2.4).
      sy_((params.region_bits_y - params.servo_bits_per_sector) /
          (params.servo_bits_per_sector + params.data_bits_per_sector)),
      m_(params.micropositioning),
      sleds_(params.sleds),
      g_(params.conflict_group) {}

PhysicalAddress Geometry::to_physical(Lbn lbn) const {
  PhysicalAddress a;
  a.sled = static_cast<std::int32_t>(lbn / blocks_per_sled());
  const Lbn l = lbn % blocks_per_sled();
  a.x = static_cast<std::int32_t>(l / sc());
  const std::int64_t track = l / st();
  const auto track_in_cylinder = static_cast<std::int32_t>(track % ny());
  const auto row_in_track = static_cast<std::int32_t>((l % st()) / p_);
  a.y = track_runs_up(track) ? row_in_track : sy_ - 1 - row_in_track;
  a.square = track_in_cylinder * p_ + static_cast<std::int32_t>(l % p_);
  return a;
}

Lbn Geometry::to_lbn(const PhysicalAddress& a) const {
  const std::int32_t track_in_cylinder = a.square / p_;
  const std::int64_t track = std::int64_t{a.x} * ny() + track_in_cylinder;
  const std::int32_t row_in_track = track_runs_up(track) ? a.y : sy_ - 1 - a.y;
  return a.sled * blocks_per_sled() + track * st() + std::int64_t{row_in_track} * p_ +
         a.square % p_;
}

std::vector<Lbn> Geometry::equivalence_class(Lbn lbn, std::int32_t micropositioning) const {
  const std::int32_t m = micropositioning < 0 ? m_ : micropositioning;
  const PhysicalAddress home = to_physical(lbn);
  const std::int32_t x_lo = std::max(0, home.x - m);
  const std::int32_t x_hi = std::min(sx_ - 1, home.x + m);
  std::vector<Lbn> out;
  out.reserve(static_cast<std::size_t>(n_) * static_cast<std::size_t>(x_hi - x_lo + 1));
  PhysicalAddress a = home;
  for (a.x = x_lo; a.x <= x_hi; ++a.x) {
    for (a.square = 0; a.square < n_; ++a.square) out.push_back(to_lbn(a));
  }
  std::sort(out.begin(), out.end());
  return out;
}

Ensemble Geometry::ensemble(Lbn lbn) const {
  const Lbn first = lbn / st() * st();
  return {first, first + st() - 1};
}

bool Geometry::conflicting(Lbn a, Lbn b) const {
  if (a == b) return false;
  const PhysicalAddress pa = to_physical(a);
  const PhysicalAddress pb = to_physical(b);
  if (pa.sled != pb.sled || pa.y != pb.y || std::abs(pa.x - pb.x) > m_) return true;
  if (pa.square == pb.square) return true;  // one tip reads one column at a time
  return g_ > 0 && pa.square / g_ == pb.square / g_;
}

}  // namespace memstore::model
