// SPDX-License-Identifier: Apache-2.0
// The LBN layout of a zoned disk: which (cylinder, surface, sector) holds each
// LBN, and where on the revolution each sector starts. Pure and immutable.
//
// Within a zone, LBNs fill a track, then the next track of the cylinder, then
// the next cylinder. Physical sectors are numbered the same way from the
// zone's first cylinder. A zone is cut into spare ranges: the whole zone
// (DiskSim's layout "g1" with "Sectors per zone" sparing, scheme 9) or runs of
// spare_range_cylinders cylinders ("Sectors per range", scheme 8). A range's
// spare sectors are its last ones; slipped sectors are skipped (the LBNs
// after a slip move on by one, up to the range's end, where the spares absorb
// it). Mapping scheme 1 (cylinder_switch_on_surface): on every odd cylinder of
// a zone (counted from the zone's first), the tracks run from the last surface
// to the first, so that a cylinder switch stays on the same surface; scheme 0:
// every cylinder runs from surface 0.
//
// Skew: track t (0-based, in LBN order) of zone cylinder c starts its sector
// 0 at (t + (surfaces - 1) c) * track_skew + c * cylinder_skew sectors
// (mod sectors per track) past the zone's angle 0, which is the platter's
// angle 0. Track and cylinder switches during a sequential transfer thus find
// the next LBN just arriving under the head when the skew covers the switch.
#pragma once

#include <cstdint>
#include <optional>
#include <vector>

#include "model/disk_address.h"
#include "model/disk_presets.h"
#include "model/geometry.h"

namespace memstore::model {

class ZonedLayout {
 public:
  // REQUIRES: validate(params) is empty.
  explicit ZonedLayout(const ZonedDiskParams& params);

  // Every LBN the zones hold (spares and slips left out).
  std::int64_t blocks() const { return blocks_; }
  std::int32_t surfaces() const { return surfaces_; }

  // REQUIRES: 0 <= lbn < blocks().
  DiskAddress locate(Lbn lbn) const;
  // The LBN at `a`, or nothing for a spare or slipped sector (or an address
  // off the disk).
  std::optional<Lbn> lbn_at(const DiskAddress& a) const;

  std::int32_t sectors_per_track(std::int32_t cylinder) const;
  // The last LBN on lbn's track. REQUIRES: as locate().
  Lbn track_last_lbn(Lbn lbn) const;
  // Where sector `sector` of (cylinder, surface) starts on the revolution, in
  // sectors of its zone from angle 0: [0, sectors_per_track).
  std::int32_t sector_slot(std::int32_t cylinder, std::int32_t surface, std::int32_t sector) const;

 private:
  struct Zone {
    DiskZone z;
    Lbn first_lbn = 0;
    std::int64_t lbns = 0;
    // The zone's spare ranges: each full one has range_sectors physical
    // sectors, of which range_lbns hold LBNs (the rest are its spares).
    std::int64_t range_sectors = 0;
    std::int64_t range_lbns = 0;
  };
  // A zone-relative LBN as a zone-relative physical sector, and back (nullopt
  // for a slipped or spare sector).
  std::int64_t physical_of(const Zone& zone, std::int64_t rel) const;
  std::optional<std::int64_t> rel_of(const Zone& zone, std::int64_t physical) const;
  const Zone& zone_of_lbn(Lbn lbn) const;
  const Zone& zone_of_cylinder(std::int32_t cylinder) const;
  // The track index in LBN order of a physical surface on a zone cylinder.
  std::int32_t track_in_cylinder(std::int32_t zone_cylinder, std::int32_t surface) const;

  std::vector<Zone> zones_;
  std::int32_t surfaces_;
  bool serpentine_;
  std::int64_t blocks_ = 0;
};

}  // namespace memstore::model
