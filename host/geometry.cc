// SPDX-License-Identifier: Apache-2.0
#include "host/geometry.h"

#include <algorithm>
#include <limits>
#include <string>

namespace memstore::host {
namespace {

Error inconsistent(const std::string& what) {
  return bad_response("mode page 20h is inconsistent: " + what);
}

std::string num(std::uint64_t v) {
  return std::to_string(v);
}

}  // namespace

Result<HostGeometry> HostGeometry::from_page(const modepages::GeometryPage& g) {
  if (g.p == 0 || g.n == 0 || g.sx == 0 || g.sy == 0 || g.sleds == 0) {
    return inconsistent("p, N, Sx, Sy and the number of sleds must be at least 1 (p = " + num(g.p) +
                        ", N = " + num(g.n) + ", Sx = " + num(g.sx) + ", Sy = " + num(g.sy) +
                        ", sleds = " + num(g.sleds) + ")");
  }
  // Table 6.1: Nx = p, Ny = N / p, ST = Sy × Nx, SC = ST × Ny.
  if (g.n % g.p != 0) return inconsistent("p = " + num(g.p) + " does not divide N = " + num(g.n));
  if (g.nx != g.p) return inconsistent("Nx is " + num(g.nx) + " but p = " + num(g.p));
  if (g.ny != g.n / g.p) {
    return inconsistent("Ny is " + num(g.ny) + " but N / p = " + num(g.n / g.p));
  }
  const std::uint64_t st = std::uint64_t{g.sy} * g.nx;
  if (g.st != st) return inconsistent("ST is " + num(g.st) + " but Sy × Nx = " + num(st));
  const std::uint64_t sc = st * g.ny;
  if (g.sc != sc) return inconsistent("SC is " + num(g.sc) + " but ST × Ny = " + num(sc));
  constexpr std::uint64_t kMax = std::numeric_limits<std::uint64_t>::max();
  if (sc > kMax / g.sx || sc * g.sx != g.blocks_per_sled) {
    return inconsistent("blocks per sled is " + num(g.blocks_per_sled) + " but SC × Sx = " +
                        (sc > kMax / g.sx ? std::string("more than 2^64") : num(sc * g.sx)));
  }
  if (g.blocks_per_sled > kMax / g.sleds) {
    return inconsistent("the device would hold more than 2^64 blocks");
  }
  if (g.conflict_group > g.n) {
    return inconsistent("conflict group size " + num(g.conflict_group) +
                        " is larger than N = " + num(g.n));
  }
  if (g.conflict_relation != (g.conflict_group > 0)) {
    return inconsistent("the conflict relation flag (byte 4 bit 1) disagrees with G = " +
                        num(g.conflict_group));
  }
  for (const modepages::FailedTip& t : g.failed_tips) {
    if (t.sled >= g.sleds || t.tip >= g.n) {
      return inconsistent("failed tip " + num(t.tip) + " of sled " + num(t.sled) +
                          " is outside the device (N = " + num(g.n) + ", sleds = " + num(g.sleds) +
                          ")");
    }
  }
  return HostGeometry(g);
}

Result<HostGeometry> HostGeometry::from_page_bytes(std::span<const std::uint8_t> page) {
  const auto decoded = modepages::decode_geometry_page(page);
  if (!decoded) {
    return bad_response(
        "mode page 20h does not decode (wrong length, or a format version other than " +
        num(modepages::kVendorPageVersion) + ")");
  }
  return from_page(*decoded);
}

// Thesis §6.3.2, first step: l -> (x_l, y_l), on the sled-local LBN.
Location HostGeometry::locate(Lbn lbn) const {
  const std::uint64_t l = lbn % g_.blocks_per_sled;
  const std::uint64_t track = l / g_.st;  // within the sled
  const std::uint64_t row_in_track = (l / g_.nx) % g_.sy;
  Location at;
  at.sled = static_cast<std::uint32_t>(lbn / g_.blocks_per_sled);
  at.x = static_cast<std::uint32_t>(l / g_.sc);  // x_l = ⌊l / SC⌋
  // y_l: reversed on every other track (track reversals).
  at.y = static_cast<std::uint32_t>(track % 2 == 0 ? row_in_track : g_.sy - 1 - row_in_track);
  at.square = static_cast<std::uint32_t>((track % g_.ny) * g_.nx + l % g_.nx);
  return at;
}

// Thesis §6.3.2, LBN_{l,i}, with two corrections: the column within a row
// of squares is i % Nx (the thesis prints i % Sx), and the track reversal
// follows the parity of the track number x·Ny + ⌊i/Nx⌋ (the thesis' x_l +
// ⌊i/Nx⌋ is the same only when Ny is odd, as in Fig. 6.10).
Lbn HostGeometry::lbn_at(const Location& at) const {
  const std::uint64_t track_in_cylinder = at.square / g_.nx;
  const std::uint64_t column = at.square % g_.nx;
  const std::uint64_t track = std::uint64_t{at.x} * g_.ny + track_in_cylinder;
  const std::uint64_t row = track % 2 == 0 ? at.y : g_.sy - 1 - at.y;
  return std::uint64_t{at.sled} * g_.blocks_per_sled + std::uint64_t{at.x} * g_.sc +
         track_in_cylinder * g_.st + row * g_.nx + column;
}

bool HostGeometry::on_failed_tip(Lbn lbn) const {
  if (g_.failed_tips.empty()) return false;
  const Location at = locate(lbn);
  return std::any_of(g_.failed_tips.begin(), g_.failed_tips.end(),
                     [&](const auto& t) { return t.sled == at.sled && t.tip == at.square; });
}

std::vector<Lbn> HostGeometry::equivalent(Lbn lbn,
                                          std::optional<std::uint32_t> micropositioning) const {
  if (on_failed_tip(lbn)) return {lbn};
  const std::uint64_t m = micropositioning.value_or(g_.m);
  const Location home = locate(lbn);
  // Cylinders x_l - M .. x_l + M, cut to 0 .. Sx - 1.
  const std::uint64_t x_lo = home.x >= m ? home.x - m : 0;
  const std::uint64_t x_hi = std::min<std::uint64_t>(std::uint64_t{home.x} + m, g_.sx - 1);
  std::vector<Lbn> e;
  e.reserve(static_cast<std::size_t>((x_hi - x_lo + 1) * g_.n));
  Location at = home;
  for (std::uint64_t x = x_lo; x <= x_hi; ++x) {
    at.x = static_cast<std::uint32_t>(x);
    for (std::uint32_t i = 0; i < g_.n; ++i) {
      at.square = i;
      const Lbn l = lbn_at(at);
      if (!on_failed_tip(l)) e.push_back(l);
    }
  }
  std::sort(e.begin(), e.end());
  return e;
}

bool HostGeometry::conflicting(Lbn a, Lbn b) const {
  if (a == b) return false;
  if (on_failed_tip(a) || on_failed_tip(b)) return true;
  const Location la = locate(a);
  const Location lb = locate(b);
  const std::uint32_t dx = la.x > lb.x ? la.x - lb.x : lb.x - la.x;
  if (la.sled != lb.sled || la.y != lb.y || dx > g_.m) return true;  // b not in E_a
  if (la.square == lb.square) return true;
  const std::uint32_t g = g_.conflict_group;
  return g > 0 && la.square / g == lb.square / g;
}

Ensemble HostGeometry::ensemble(Lbn lbn) const {
  const Lbn first = lbn - lbn % g_.st;
  return {first, first + g_.st - 1};
}

bool HostGeometry::parallel_accessible(std::span<const Lbn> blocks) const {
  if (blocks.size() > g_.p) return false;
  for (std::size_t i = 0; i < blocks.size(); ++i) {
    for (std::size_t j = i + 1; j < blocks.size(); ++j) {
      // The same block twice needs its tip twice.
      if (blocks[i] == blocks[j] || conflicting(blocks[i], blocks[j])) return false;
    }
  }
  return true;
}

}  // namespace memstore::host
