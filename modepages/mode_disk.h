// SPDX-License-Identifier: Apache-2.0
// The mode pages a rotating disk reports about its mechanism: Format Device
// (03h) and Rigid Disk Geometry (04h). SBC-2 §6.3.4 and §6.3.5 define them;
// SBC-3 lists both codes as obsolete, but disks still return them and tools
// (sg_modes, sdparm) decode them. Both are 24-byte page_0 pages (PS = 0,
// SPF = 0) and read-only here: a host may send them back unchanged only.
#pragma once

#include <cstdint>
#include <span>

#include "model/disk_presets.h"
#include "modepages/bytes.h"

namespace memstore::modepages {

// Format Device mode page 03h (SBC-2 §6.3.4), page length 16h:
//   2-3 TRACKS PER ZONE, 4-5 ALTERNATE SECTORS PER ZONE, 6-7 ALTERNATE TRACKS
//   PER ZONE, 8-9 ALTERNATE TRACKS PER LOGICAL UNIT, 10-11 SECTORS PER TRACK,
//   12-13 DATA BYTES PER PHYSICAL SECTOR, 14-15 INTERLEAVE, 16-17 TRACK SKEW
//   FACTOR, 18-19 CYLINDER SKEW FACTOR, byte 20 SSEC (7) HSEC (6) RMB (5)
//   SURF (4), 21-23 reserved.
inline constexpr std::uint8_t kFormatDevicePageCode = 0x03;
inline constexpr std::size_t kFormatDevicePageSize = 24;
struct FormatDevicePage {
  std::uint16_t tracks_per_zone = 0;
  std::uint16_t alternate_sectors_per_zone = 0;
  std::uint16_t alternate_tracks_per_zone = 0;
  std::uint16_t alternate_tracks_per_lu = 0;
  std::uint16_t sectors_per_track = 0;
  std::uint16_t bytes_per_sector = 0;
  std::uint16_t interleave = 1;
  std::uint16_t track_skew = 0;
  std::uint16_t cylinder_skew = 0;
  bool hard_sectored = true;  // HSEC
  bool removable = false;     // RMB
  // SURF = 0: logical blocks fill a cylinder before the next cylinder.
  bool surface_first = false;
  friend bool operator==(const FormatDevicePage&, const FormatDevicePage&) = default;
};
Bytes encode(const FormatDevicePage& page);
// REQUIRES: page.size() >= kFormatDevicePageSize.
FormatDevicePage decode_format_device_page(std::span<const std::uint8_t> page);

// Rigid Disk Geometry mode page 04h (SBC-2 §6.3.5), page length 16h:
//   2-4 NUMBER OF CYLINDERS, 5 NUMBER OF HEADS, 6-8 STARTING CYLINDER-WRITE
//   PRECOMPENSATION, 9-11 STARTING CYLINDER-REDUCED WRITE CURRENT, 12-13
//   DRIVE STEP RATE, 14-16 LANDING ZONE CYLINDER, 17 RPL (bits 1-0), 18
//   ROTATIONAL OFFSET, 19 reserved, 20-21 MEDIUM ROTATION RATE (rpm), 22-23
//   reserved.
inline constexpr std::uint8_t kRigidDiskPageCode = 0x04;
inline constexpr std::size_t kRigidDiskPageSize = 24;
struct RigidDiskPage {
  std::uint32_t cylinders = 0;  // 24 bits
  std::uint8_t heads = 0;
  // Write precompensation and reduced write current start at the number of
  // cylinders: the drive uses neither (SBC-2 §6.3.5).
  std::uint32_t write_precomp_cylinder = 0;
  std::uint32_t reduced_current_cylinder = 0;
  std::uint16_t rotation_rpm = 0;
  friend bool operator==(const RigidDiskPage&, const RigidDiskPage&) = default;
};
Bytes encode(const RigidDiskPage& page);
// REQUIRES: page.size() >= kRigidDiskPageSize.
RigidDiskPage decode_rigid_disk_page(std::span<const std::uint8_t> page);

// The preset's nominal rotation rate as SBC-3 §6.6.2 (VPD B1h) and page 04h
// give it: whole rpm, rounded, within 0401h..FFFEh.
std::uint16_t nominal_rotation_rpm(const model::ZonedDiskParams& disk);

// The two pages from a zoned disk's parameters. Page 03h describes zone 0,
// the outermost: its tracks (cylinders x surfaces), spare sectors, sectors
// per track and skews; page 04h the whole disk. Values beyond a field
// saturate at its maximum.
FormatDevicePage format_device_page_from(const model::ZonedDiskParams& disk);
RigidDiskPage rigid_disk_page_from(const model::ZonedDiskParams& disk);

}  // namespace memstore::modepages
