// SPDX-License-Identifier: Apache-2.0
// Parameter sets of zoned disks with real mechanics (issue 19): the Quantum
// Atlas 10K as DiskSim 4.0 validated it, and the disk-array paper's
// extrapolated 20,000 rpm drive. Parameters only: the layout is in
// disk_layout.h, the mechanics in disk_zoned.h, the cache in disk_cache.h.
//
// The preset also serves the SCSI side later (mode pages 03h/04h, VPD B1h):
// rotation_rpm, cylinders, surfaces and zones[0].sectors_per_track are the
// figures a real disk reports there.
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "base/expected.h"
#include "model/params.h"
#include "model/request.h"

namespace memstore::model {

// One recording zone (band): a run of cylinders with the same number of
// sectors per track. Sector counts and skews are in sectors of this zone.
struct DiskZone {
  std::int32_t first_cylinder = 0;
  std::int32_t last_cylinder = 0;  // inclusive
  std::int32_t sectors_per_track = 0;
  // Rotational offset of a track's first sector after a head switch, and
  // the extra offset after a cylinder switch, counted from the zone's start.
  std::int32_t track_skew_sectors = 0;
  std::int32_t cylinder_skew_sectors = 0;
  // Spare sectors held back (no LBN maps there): at the end of the zone, or
  // at the end of every spare range (ZonedDiskParams::spare_range_cylinders).
  std::int32_t spare_sectors = 0;
  // Slipped (defective) sectors, as zone-relative physical sector numbers
  // (cylinder-major, then track, then sector): LBNs skip them, within their
  // spare range.
  std::vector<std::int64_t> slips;
};

// One point of a measured seek curve: the seek time for a distance.
struct SeekPoint {
  std::int32_t distance_cylinders = 0;
  Ns time_ns = 0;
};

// Controller overheads in front of the media, by kind of command and kind
// of the command before it (the drive's firmware differs between them).
struct DiskOverheads {
  Ns read_hit_after_read_ns = 0;
  Ns read_hit_after_write_ns = 0;
  Ns read_miss_after_read_ns = 0;
  Ns read_miss_after_write_ns = 0;
  Ns write_after_read_ns = 0;  // write-back: the data goes to the cache
  Ns write_after_write_ns = 0;
};

// The on-board cache.
struct DiskCacheParams {
  std::int32_t segments = 0;        // read segments; 0 disables the cache
  std::int32_t segment_blocks = 0;  // blocks one segment holds
  // Write-back: a write completes once its data is in the buffer; the
  // media write follows and must finish before any other command that needs
  // the media.
  bool write_back = false;
};

struct ZonedDiskParams {
  std::string name;
  double rotation_rpm = 0;
  std::int32_t surfaces = 0;
  std::int32_t cylinders = 0;
  std::int32_t block_bytes = 512;
  // Zones in cylinder order from cylinder 0. A cylinder between two zones
  // belongs to none and holds no LBN (the Cheetah 4LP has one after each zone).
  std::vector<DiskZone> zones;
  // Where a zone keeps its spares: 0 = at its end (DiskSim's sparing scheme 9,
  // "sectors per zone"); N = at the end of every run of N cylinders of the zone
  // (scheme 8, "sectors per range"; a last, shorter run has none).
  std::int32_t spare_range_cylinders = 0;
  // DiskSim's "LBN-to-PBN mapping scheme": true (1) = on every odd cylinder of
  // a zone the tracks run from the last surface back, so a cylinder switch
  // stays on its surface; false (0) = every cylinder starts on surface 0.
  bool cylinder_switch_on_surface = true;
  // Linear interpolation between the points, as DiskSim's "extracted" seek
  // type, and linear extrapolation past the last. Distance 0 costs nothing.
  std::vector<SeekPoint> seek_curve;
  Ns head_switch_ns = 0;
  // Added to a write's positioning whenever the arm moved or switched heads.
  Ns write_settle_ns = 0;
  // Zero-latency access (read- and write-on-arrival): a head that lands inside
  // the sectors of a track it must access starts at the next sector and picks
  // up the ones it missed one revolution later.
  bool zero_latency = false;
  // Host interface time per block (the slower of bus and drive decides).
  Ns bus_ns_per_block = 0;
  DiskOverheads overheads;
  DiskCacheParams cache;
};

// "atlas10k", "disk20k", "cheetah4lp", "superdisk".
std::vector<std::string> disk_preset_names();
std::optional<ZonedDiskParams> disk_preset(std::string_view name);

// Empty when the set describes a disk; otherwise one entry per problem,
// keyed by field name.
std::vector<ParamError> validate(const ZonedDiskParams& p);

// Applies one "key=value" override (the keys are listed in the .cc): the
// cache and overhead knobs a validation or an experiment varies. A failure
// names the key and leaves `p` unchanged.
BasicStatus<ParamError> apply_disk_override(ZonedDiskParams& p, std::string_view key_value);

// Mean seek time over cylinder pairs drawn uniformly and independently
// (distance d > 0 has probability 2 (C - d) / C^2): the "average seek" of a
// spec sheet, used to scale the 20,000 rpm preset.
double mean_random_seek_ns(const ZonedDiskParams& p);

// The seek curve at a distance (DiskSim's interpolation, see seek_curve).
Ns curve_seek_ns(const std::vector<SeekPoint>& curve, std::int32_t distance_cylinders);

}  // namespace memstore::model
