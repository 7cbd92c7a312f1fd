// SPDX-License-Identifier: Apache-2.0
// The thesis' application interface (§6.3.4) computed on the host from mode
// page 20h alone (docs/vendor-interface.md, "Vendor page 20h"): get_parallelism,
// get_equivalent (with micropositioning), check_conflicting and
// get_ensemble, plus the LBN <-> (sled, x, y, square) mapping of §6.3.2
// they rest on.
//
// This is deliberately a second implementation, written from the thesis and
// the page, not a call into model::Geometry: the tests compare the two, and
// a host program never links the device model.
//
// Layout (thesis §2.4, Figs. 2.5 and 6.10): LBNs fill a row of Nx = p squares,
// then the Sy rows of a track, then the Ny tracks of a cylinder, then the Sx
// cylinders of a sled; every other track runs backwards in Y (track
// reversals). Sleds hold consecutive LBN ranges, each laid out alike.
#pragma once

#include <cstdint>
#include <optional>
#include <span>
#include <vector>

#include "host/result.h"
#include "modepages/mode_vendor.h"

namespace memstore::host {

using Lbn = std::uint64_t;

// get_ensemble's answer: the track holding the block, inclusive at both
// ends, so last - first + 1 = ST (thesis §6.3.4).
struct Ensemble {
  Lbn first = 0;
  Lbn last = 0;
  friend bool operator==(const Ensemble&, const Ensemble&) = default;
};

// Where a block lies (thesis §6.3.2): cylinder x_l, row y_l within its
// square, and the square i (= track within the cylinder × Nx + column).
struct Location {
  std::uint32_t sled = 0;
  std::uint32_t x = 0;
  std::uint32_t y = 0;
  std::uint32_t square = 0;
  friend bool operator==(const Location&, const Location&) = default;
};

class HostGeometry {
 public:
  // Checks the page's derived fields against its base fields (Nx = p,
  // Ny = N / p, ST = Sy·Nx, SC = ST·Ny, blocks per sled = SC·Sx, G <= N):
  // a page that disagrees with itself is a kBadResponse naming the field.
  static Result<HostGeometry> from_page(const modepages::GeometryPage& page);
  // Decodes the page bytes (header included) first.
  static Result<HostGeometry> from_page_bytes(std::span<const std::uint8_t> page);

  const modepages::GeometryPage& page() const { return g_; }

  // get_parallelism(): p, the blocks one media access can transfer.
  std::uint32_t parallelism() const { return g_.p; }
  std::uint32_t micropositioning() const { return g_.m; }
  std::uint32_t conflict_group() const { return g_.conflict_group; }
  std::uint64_t blocks() const { return g_.blocks_per_sled * g_.sleds; }

  // REQUIRES: lbn < blocks().
  Location locate(Lbn lbn) const;
  // REQUIRES: every field of `at` in range.
  Lbn lbn_at(const Location& at) const;

  // True when the block lies on a tip that page 20h lists as failed: it
  // fails, or a spare serves it in an access of its own; either way it
  // shares no media access with other blocks.
  bool on_failed_tip(Lbn lbn) const;

  // get_equivalent(l): E_l, the blocks at l's row in every square of its
  // sled, on cylinders x_l - M .. x_l + M that exist (thesis §6.3.2), in
  // ascending order; l itself included. Blocks on failed tips are left out;
  // a block on a failed tip is equivalent to itself alone. `micropositioning` replaces the
  // device's M (0 gives the N blocks at exactly l's position). The result
  // has up to (2M + 1)·N entries. REQUIRES: lbn < blocks().
  std::vector<Lbn> equivalent(Lbn lbn, std::optional<std::uint32_t> micropositioning = {}) const;

  // check_conflicting(a, b) (thesis §6.3.1, §6.3.4): true when the two
  // blocks cannot be transferred in the same media access with the sled
  // positioned for `a`: b is not in E_a, or both need the same tip (same
  // square: one tip reads one column at a time), or their squares share
  // components (page 20h's conflict group: ⌊i/G⌋ = ⌊j/G⌋). A block does not
  // conflict with itself. A block on a failed tip conflicts with every
  // other block. REQUIRES: a, b < blocks().
  bool conflicting(Lbn a, Lbn b) const;

  // get_ensemble(l): the track containing l (thesis §6.3.4).
  // REQUIRES: lbn < blocks().
  Ensemble ensemble(Lbn lbn) const;

  // True when the blocks can be read or written in one media access: at
  // most p blocks, no two conflicting, none listed twice (a block read and
  // written in one batch is two transfers by the same tip). Conservative
  // with M > 0: check_conflicting positions the sled at one of the two
  // blocks, so blocks more than M (and at most 2M) cylinders apart are
  // refused, though a sled centred between them reaches both, and the
  // device's batch planner uses that. REQUIRES: every block < blocks().
  bool parallel_accessible(std::span<const Lbn> blocks) const;

 private:
  explicit HostGeometry(const modepages::GeometryPage& g) : g_(g) {}
  modepages::GeometryPage g_;
};

}  // namespace memstore::host
