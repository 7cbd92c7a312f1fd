// SPDX-License-Identifier: Apache-2.0
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
      g_(params.conflict_group),
      ny_(p_ > 0 ? n_ / p_ : 0),
      st_(sy_ * p_),
      blocks_per_sled_(std::int64_t{st_} * ny_ * sx_),
      // Parameters that validate() refuses can still build a Geometry; their
      // zero divisors become 1 so that only using them is wrong.
      by_sled_(divisor(blocks_per_sled_)),
      by_sc_(divisor(sc())),
      by_st_(divisor(st_)),
      by_ny_(divisor(ny_)),
      by_p_(divisor(p_)) {}

InvariantDivisor Geometry::divisor(std::int64_t d) {
  return InvariantDivisor(d > 0 ? static_cast<std::uint64_t>(d) : 1);
}

Geometry::Location Geometry::locate(Lbn lbn) const {
  // The quotients and remainders of the layout (see the header) by ST, Ny and
  // p: l / SC = (l / ST) / Ny since SC = ST Ny, and l % p = (l % ST) % p since
  // p divides ST.
  Location where;
  PhysicalAddress& a = where.address;
  const std::int64_t sled = by_sled_.divide(lbn);
  const Lbn l = lbn - sled * blocks_per_sled_;
  const std::int64_t track = by_st_.divide(l);
  const std::int64_t x = by_ny_.divide(track);
  const std::int64_t in_track = l - track * st_;
  const std::int64_t row_in_track = by_p_.divide(in_track);
  const std::int64_t track_in_cylinder = track - x * ny_;
  a.sled = static_cast<std::int32_t>(sled);
  a.x = static_cast<std::int32_t>(x);
  const auto row = static_cast<std::int32_t>(row_in_track);
  a.y = track_runs_up(track) ? row : sy_ - 1 - row;
  const std::int64_t column = in_track - row_in_track * p_;
  a.square = static_cast<std::int32_t>(track_in_cylinder * p_ + column);
  where.track = track;
  // lbn % p, as row_first takes it: p divides the sled's and the track's sizes.
  where.column = static_cast<std::int32_t>(column);
  return where;
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
  const Lbn first = by_st_.divide(lbn) * st_;
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
