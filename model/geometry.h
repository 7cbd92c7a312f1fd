// SPDX-License-Identifier: Apache-2.0
// Virtual geometry and the LBN <-> physical mapping (thesis §2.4, §6.3.2).
//
// After striping each block over tips_per_block tips the device behaves as N
// "virtual" tips (squares), p of which are active at once. Squares form an
// Nx x Ny grid with Nx = p; each holds Sx x Sy blocks (Sx bit columns, Sy
// tip-sector rows). LBNs fill a row of p squares across (one parallel access),
// then rows down a track, then the tracks (rows of squares) of a cylinder,
// then cylinders; every other track runs in the opposite Y direction (track
// reversals, Fig. 2.5) so a sequential transfer only turns around between
// tracks. Sleds hold consecutive LBN ranges.
//
// The thesis' LBN_{l,i} formula has a typo (its `i % Sx` should be the square's
// column within a row of squares); this code derives the mapping from the
// layout itself and the tests check it against Fig. 6.10.
#pragma once

#include <cstdint>
#include <vector>

#include "model/invariant_divisor.h"
#include "model/params.h"

namespace memstore::model {

using Lbn = std::int64_t;

struct PhysicalAddress {
  std::int32_t sled = 0;
  std::int32_t x = 0;       // cylinder: bit column within every square, 0..Sx-1
  std::int32_t y = 0;       // tip-sector row within every square, 0..Sy-1
  std::int32_t square = 0;  // 0..N-1, = track_in_cylinder * Nx + column
  friend bool operator==(const PhysicalAddress&, const PhysicalAddress&) = default;
};

struct Ensemble {
  Lbn first = 0;  // first LBN of the track holding the block
  Lbn last = 0;   // last LBN of that track (inclusive): last - first + 1 = ST
};

class Geometry {
 public:
  explicit Geometry(const DeviceParams& params);

  // Table 6.1 parameters.
  std::int32_t p() const { return p_; }
  std::int32_t n() const { return n_; }
  std::int32_t sx() const { return sx_; }
  std::int32_t sy() const { return sy_; }
  std::int32_t m() const { return m_; }
  std::int32_t nx() const { return p_; }
  std::int32_t ny() const { return ny_; }
  std::int32_t st() const { return st_; }
  std::int64_t sc() const { return std::int64_t{st_} * ny_; }
  std::int32_t sleds() const { return sleds_; }
  std::int32_t conflict_group() const { return g_; }
  std::int64_t blocks_per_sled() const { return blocks_per_sled_; }
  std::int64_t blocks() const { return blocks_per_sled_ * sleds_; }

  // REQUIRES: 0 <= lbn < blocks().
  PhysicalAddress to_physical(Lbn lbn) const { return locate(lbn).address; }
  // to_physical with what its divisions give on the way: track_of(lbn), and
  // lbn's column in its row (lbn - row_first(lbn)). One set of divisions for
  // the mechanism's per-request mapping. REQUIRES: 0 <= lbn < blocks().
  struct Location {
    PhysicalAddress address;
    std::int64_t track = 0;
    std::int32_t column = 0;
  };
  Location locate(Lbn lbn) const;
  // REQUIRES: every field of `a` in range.
  Lbn to_lbn(const PhysicalAddress& a) const;

  // Global track number (within the sled) and its layout direction: even
  // tracks run toward increasing y, odd ones back (track reversals).
  std::int64_t track_of(Lbn lbn) const { return by_st_.divide(within_sled(lbn)); }
  static bool track_runs_up(std::int64_t track) { return track % 2 == 0; }

  // E(l): every LBN at the same (x, y) as `lbn` in every square of its sled,
  // for cylinders x-M..x+M that exist (thesis §6.3.2), sorted ascending.
  // `micropositioning` < 0 means the device's own M.
  std::vector<Lbn> equivalence_class(Lbn lbn, std::int32_t micropositioning = -1) const;

  // get_ensemble(l) (thesis §6.3.4): the track containing `lbn`.
  Ensemble ensemble(Lbn lbn) const;

  // check_conflicting(a, b) (thesis §6.3.1, §6.3.4): true when the two blocks
  // cannot be transferred in the same parallel access: they are not
  // equivalent (different sled, row, or cylinder beyond M), they need the same
  // tip (same square), or their squares share components (same conflict group
  // of G squares). A block does not conflict with itself.
  bool conflicting(Lbn a, Lbn b) const;

  // The first LBN of the row of p blocks holding `lbn` (one parallel access).
  Lbn row_first(Lbn lbn) const { return by_p_.divide(lbn) * p_; }
  // Whether `lbn` begins a track (a multiple of ST), and a cylinder (of SC).
  bool starts_track(Lbn lbn) const { return by_st_.divide(lbn) * st_ == lbn; }
  bool starts_cylinder(Lbn lbn) const { return by_sc_.divide(lbn) * sc() == lbn; }

 private:
  static InvariantDivisor divisor(std::int64_t d);
  Lbn within_sled(Lbn lbn) const { return lbn - by_sled_.divide(lbn) * blocks_per_sled_; }

  std::int32_t p_, n_, sx_, sy_, m_, sleds_, g_;
  std::int32_t ny_, st_;
  std::int64_t blocks_per_sled_;
  // Every mapping divides by these, fixed by the geometry: multiply-high
  // instead of 64-bit divisions (model/invariant_divisor.h).
  InvariantDivisor by_sled_, by_sc_, by_st_, by_ny_, by_p_;
};

}  // namespace memstore::model
