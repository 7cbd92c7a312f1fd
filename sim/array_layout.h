// SPDX-License-Identifier: Apache-2.0
// Where the blocks of a disk array's logical volume lie on its devices (issue 19, the
// arrays of Uysal, Merchant and Alvarez, "Using MEMS-based storage in disk arrays", FAST
// 2003): RAID-0 striping in units of `unit_blocks`, over one group of devices, or over two.
//
// A StripeMap has up to two regions. Region A stripes the first units of the volume
// round-robin over `a_devices`, `a_rows` units deep on each; region B stripes the rest over
// `b_devices`, starting on each `a_rows` units in. Plain striping is region A alone
// (a_rows = kUnbounded). The mixed MEMS/disk stripe of cmd_array puts every device in region
// A until the MEMStores (the smaller devices) are full, then only the disks in region B, so
// the volume keeps the disks' capacity (docs/disk-models.md, "Disk arrays").
#pragma once

#include <cstdint>
#include <limits>
#include <vector>

#include "model/request.h"

namespace memstore::sim {

// One piece of a logical extent on one device of the array.
struct Piece {
  std::size_t device = 0;  // index into the array's devices
  model::Lbn lbn = 0;      // on that device
  std::int32_t blocks = 0;
  bool operator==(const Piece&) const = default;
};

// The device request that moves `piece`: both array simulations submit these.
inline model::Request piece_request(std::uint64_t id, model::Ns at, const Piece& piece,
                                    model::Op op) {
  model::Request r;
  r.id = id;
  r.arrival_ns = at;
  r.lbn = piece.lbn;
  r.blocks = piece.blocks;
  r.op = op;
  return r;
}

class StripeMap {
 public:
  static constexpr std::int64_t kUnbounded = std::numeric_limits<std::int64_t>::max() / 4;

  // REQUIRES: unit_blocks >= 1; a_devices not empty; b_devices not empty when a_rows is
  // bounded.
  StripeMap(std::int32_t unit_blocks, std::vector<std::size_t> a_devices,
            std::int64_t a_rows = kUnbounded, std::vector<std::size_t> b_devices = {});

  // [lbn, lbn + blocks) as pieces, in logical order, one per stripe unit touched.
  std::vector<Piece> pieces(model::Lbn lbn, std::int32_t blocks) const;
  // The first logical block region A does not hold (kUnbounded * unit when it is unbounded).
  model::Lbn region_a_blocks() const;

 private:
  std::int32_t unit_;
  std::vector<std::size_t> a_;
  std::int64_t a_rows_;
  std::vector<std::size_t> b_;
};

}  // namespace memstore::sim
