// SPDX-License-Identifier: Apache-2.0
#include "modepages/mode_disk.h"

#include <algorithm>
#include <cmath>

#include "modepages/mode_pages.h"

namespace memstore::modepages {
namespace {

constexpr std::uint16_t sat16(std::int64_t v) {
  return static_cast<std::uint16_t>(std::clamp<std::int64_t>(v, 0, 0xFFFF));
}
constexpr std::uint32_t sat24(std::int64_t v) {
  return static_cast<std::uint32_t>(std::clamp<std::int64_t>(v, 0, 0xFF'FFFF));
}

// SBC-3 §6.6.2: 0401h..FFFEh are rotation rates in rpm.
constexpr std::uint16_t kMinRpm = 0x0401;
constexpr std::uint16_t kMaxRpm = 0xFFFE;

}  // namespace

// --- Format Device (SBC-2 §6.3.4) ---------------------------------------------------------

Bytes encode(const FormatDevicePage& page) {
  Bytes out = page_frame(kFormatDevicePageCode, kFormatDevicePageSize);
  put_be(out, 2, 2, page.tracks_per_zone);
  put_be(out, 4, 2, page.alternate_sectors_per_zone);
  put_be(out, 6, 2, page.alternate_tracks_per_zone);
  put_be(out, 8, 2, page.alternate_tracks_per_lu);
  put_be(out, 10, 2, page.sectors_per_track);
  put_be(out, 12, 2, page.bytes_per_sector);
  put_be(out, 14, 2, page.interleave);
  put_be(out, 16, 2, page.track_skew);
  put_be(out, 18, 2, page.cylinder_skew);
  out[20] =
      static_cast<std::uint8_t>((page.hard_sectored ? 0x40 : 0) | (page.removable ? 0x20 : 0) |
                                (page.surface_first ? 0x10 : 0));  // SSEC = 0
  return out;
}

FormatDevicePage decode_format_device_page(std::span<const std::uint8_t> page) {
  return {.tracks_per_zone = get_be16(page, 2),
          .alternate_sectors_per_zone = get_be16(page, 4),
          .alternate_tracks_per_zone = get_be16(page, 6),
          .alternate_tracks_per_lu = get_be16(page, 8),
          .sectors_per_track = get_be16(page, 10),
          .bytes_per_sector = get_be16(page, 12),
          .interleave = get_be16(page, 14),
          .track_skew = get_be16(page, 16),
          .cylinder_skew = get_be16(page, 18),
          .hard_sectored = (page[20] & 0x40) != 0,
          .removable = (page[20] & 0x20) != 0,
          .surface_first = (page[20] & 0x10) != 0};
}

// --- Rigid Disk Geometry (SBC-2 §6.3.5) ---------------------------------------------------

Bytes encode(const RigidDiskPage& page) {
  Bytes out = page_frame(kRigidDiskPageCode, kRigidDiskPageSize);
  put_be(out, 2, 3, page.cylinders);
  out[5] = page.heads;
  put_be(out, 6, 3, page.write_precomp_cylinder);
  put_be(out, 9, 3, page.reduced_current_cylinder);
  // DRIVE STEP RATE, LANDING ZONE CYLINDER, RPL (no spindle synchronisation)
  // and ROTATIONAL OFFSET stay 0.
  put_be(out, 20, 2, page.rotation_rpm);
  return out;
}

RigidDiskPage decode_rigid_disk_page(std::span<const std::uint8_t> page) {
  return {.cylinders = static_cast<std::uint32_t>(get_be(page, 2, 3)),
          .heads = page[5],
          .write_precomp_cylinder = static_cast<std::uint32_t>(get_be(page, 6, 3)),
          .reduced_current_cylinder = static_cast<std::uint32_t>(get_be(page, 9, 3)),
          .rotation_rpm = get_be16(page, 20)};
}

std::uint16_t nominal_rotation_rpm(const model::ZonedDiskParams& disk) {
  const double rpm = std::round(disk.rotation_rpm);
  return static_cast<std::uint16_t>(std::clamp<double>(rpm, kMinRpm, kMaxRpm));
}

FormatDevicePage format_device_page_from(const model::ZonedDiskParams& disk) {
  const model::DiskZone& z = disk.zones.front();
  const std::int64_t zone_tracks =
      std::int64_t{z.last_cylinder - z.first_cylinder + 1} * disk.surfaces;
  return {.tracks_per_zone = sat16(zone_tracks),
          .alternate_sectors_per_zone = sat16(z.spare_sectors),
          .sectors_per_track = sat16(z.sectors_per_track),
          .bytes_per_sector = sat16(disk.block_bytes),
          .track_skew = sat16(z.track_skew_sectors),
          .cylinder_skew = sat16(z.cylinder_skew_sectors)};
}

RigidDiskPage rigid_disk_page_from(const model::ZonedDiskParams& disk) {
  const std::uint32_t cylinders = sat24(disk.cylinders);
  return {.cylinders = cylinders,
          .heads = static_cast<std::uint8_t>(std::clamp(disk.surfaces, 0, 0xFF)),
          .write_precomp_cylinder = cylinders,
          .reduced_current_cylinder = cylinders,
          .rotation_rpm = nominal_rotation_rpm(disk)};
}

}  // namespace memstore::modepages
