// SPDX-License-Identifier: Apache-2.0
// The LBN layout of a zoned disk; described in the header.
#include "model/disk_layout.h"

#include <algorithm>

namespace memstore::model {

ZonedLayout::ZonedLayout(const ZonedDiskParams& params)
    : surfaces_(params.surfaces), serpentine_(params.cylinder_switch_on_surface) {
  for (const DiskZone& z : params.zones) {
    Zone zone{z, blocks_, 0, 0, 0};
    const std::int32_t cylinders = z.last_cylinder - z.first_cylinder + 1;
    const std::int32_t range_cylinders =
        params.spare_range_cylinders > 0 ? params.spare_range_cylinders : cylinders;
    const std::int64_t per_cylinder = std::int64_t{surfaces_} * z.sectors_per_track;
    zone.range_sectors = range_cylinders * per_cylinder;
    zone.range_lbns = zone.range_sectors - z.spare_sectors;
    // DiskSim's blocks per band (layout_g1_load.c): the sectors less the spares of every
    // full range; a slip moves LBNs on without costing one (its range's spares absorb it).
    const std::int64_t full_ranges = cylinders / range_cylinders;
    zone.lbns = std::int64_t{cylinders} * per_cylinder - full_ranges * z.spare_sectors;
    blocks_ += zone.lbns;
    zones_.push_back(std::move(zone));
  }
}

std::int64_t ZonedLayout::physical_of(const Zone& zone, std::int64_t rel) const {
  const std::int64_t range = rel / zone.range_lbns;
  const std::int64_t range_start = range * zone.range_sectors;
  // Each slip of this range at or before the sector reached so far pushes the LBN on.
  std::int64_t physical = range_start + rel % zone.range_lbns;
  for (std::int64_t slip : zone.z.slips) {
    if (slip >= range_start && slip <= physical) ++physical;
  }
  return physical;
}

std::optional<std::int64_t> ZonedLayout::rel_of(const Zone& zone, std::int64_t physical) const {
  const std::int64_t range = physical / zone.range_sectors;
  const std::int64_t range_start = range * zone.range_sectors;
  std::int64_t slipped_before = 0;
  for (std::int64_t slip : zone.z.slips) {
    if (slip == physical) return std::nullopt;
    if (slip >= range_start && slip < physical) ++slipped_before;
  }
  const std::int64_t in_range = physical - range_start - slipped_before;
  if (in_range >= zone.range_lbns) return std::nullopt;  // a spare at the range's end
  const std::int64_t rel = range * zone.range_lbns + in_range;
  if (rel >= zone.lbns) return std::nullopt;
  return rel;
}

const ZonedLayout::Zone& ZonedLayout::zone_of_lbn(Lbn lbn) const {
  auto it = std::upper_bound(zones_.begin(), zones_.end(), lbn,
                             [](Lbn l, const Zone& z) { return l < z.first_lbn; });
  return *(it - 1);
}

const ZonedLayout::Zone& ZonedLayout::zone_of_cylinder(std::int32_t cylinder) const {
  auto it = std::upper_bound(zones_.begin(), zones_.end(), cylinder,
                             [](std::int32_t c, const Zone& z) { return c < z.z.first_cylinder; });
  return *(it - 1);
}

std::int32_t ZonedLayout::track_in_cylinder(std::int32_t zone_cylinder,
                                            std::int32_t surface) const {
  // Mapping scheme 1: odd zone cylinders run their tracks from the last surface.
  return serpentine_ && zone_cylinder % 2 == 1 ? surfaces_ - 1 - surface : surface;
}

DiskAddress ZonedLayout::locate(Lbn lbn) const {
  const Zone& zone = zone_of_lbn(lbn);
  const std::int64_t physical = physical_of(zone, lbn - zone.first_lbn);
  const std::int64_t per_cylinder = std::int64_t{surfaces_} * zone.z.sectors_per_track;
  const auto zone_cylinder = static_cast<std::int32_t>(physical / per_cylinder);
  const auto track = static_cast<std::int32_t>(physical % per_cylinder / zone.z.sectors_per_track);
  return {zone.z.first_cylinder + zone_cylinder, track_in_cylinder(zone_cylinder, track),
          static_cast<std::int32_t>(physical % zone.z.sectors_per_track)};
}

std::optional<Lbn> ZonedLayout::lbn_at(const DiskAddress& a) const {
  if (a.cylinder < 0 || a.cylinder > zones_.back().z.last_cylinder || a.surface < 0 ||
      a.surface >= surfaces_ || a.sector < 0) {
    return std::nullopt;
  }
  const Zone& zone = zone_of_cylinder(a.cylinder);
  // A cylinder between two zones holds no LBN.
  if (a.cylinder > zone.z.last_cylinder || a.sector >= zone.z.sectors_per_track) {
    return std::nullopt;
  }
  const std::int32_t zone_cylinder = a.cylinder - zone.z.first_cylinder;
  const std::int64_t physical =
      (std::int64_t{zone_cylinder} * surfaces_ + track_in_cylinder(zone_cylinder, a.surface)) *
          zone.z.sectors_per_track +
      a.sector;
  const std::optional<std::int64_t> rel = rel_of(zone, physical);
  if (!rel) return std::nullopt;
  return zone.first_lbn + *rel;
}

std::int32_t ZonedLayout::sectors_per_track(std::int32_t cylinder) const {
  return zone_of_cylinder(cylinder).z.sectors_per_track;
}

Lbn ZonedLayout::track_last_lbn(Lbn lbn) const {
  const Zone& zone = zone_of_lbn(lbn);
  const DiskAddress a = locate(lbn);
  const std::int32_t zone_cylinder = a.cylinder - zone.z.first_cylinder;
  const std::int64_t spt = zone.z.sectors_per_track;
  const std::int64_t track_end =
      (std::int64_t{zone_cylinder} * surfaces_ + track_in_cylinder(zone_cylinder, a.surface) + 1) *
          spt -
      1;
  // The LBN of the last sector at or before track_end that is neither slipped nor a
  // spare. A track never spans two ranges (ranges are whole cylinders).
  const std::int64_t range = track_end / zone.range_sectors;
  const std::int64_t range_start = range * zone.range_sectors;
  std::int64_t slipped = 0;
  for (std::int64_t slip : zone.z.slips) {
    if (slip >= range_start && slip <= track_end) ++slipped;
  }
  const std::int64_t in_range = std::min(track_end - range_start - slipped, zone.range_lbns - 1);
  return zone.first_lbn + std::min(range * zone.range_lbns + in_range, zone.lbns - 1);
}

std::int32_t ZonedLayout::sector_slot(std::int32_t cylinder, std::int32_t surface,
                                      std::int32_t sector) const {
  const Zone& zone = zone_of_cylinder(cylinder);
  const std::int64_t c = cylinder - zone.z.first_cylinder;
  const std::int64_t t = track_in_cylinder(static_cast<std::int32_t>(c), surface);
  const std::int64_t skew =
      (t + (surfaces_ - 1) * c) * zone.z.track_skew_sectors + c * zone.z.cylinder_skew_sectors;
  return static_cast<std::int32_t>((skew + sector) % zone.z.sectors_per_track);
}

}  // namespace memstore::model
