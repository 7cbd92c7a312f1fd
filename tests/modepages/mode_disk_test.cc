// SPDX-License-Identifier: Apache-2.0
// Format Device (03h) and Rigid Disk Geometry (04h) from a zoned disk's
// parameters (modepages/mode_disk.h): round trips, where each figure comes
// from, saturation, and a disk's ModeState (its page set and MODE SELECT of a
// read-only page sent back unchanged).
#include "modepages/mode_disk.h"

#include <gmock/gmock.h>
#include <gtest/gtest.h>

#include "model/disk_layout.h"
#include "modepages/mode_sense.h"

namespace memstore::modepages {
namespace {

using ::testing::ElementsAre;

TEST(ModeDisk, PagesRoundTrip) {
  const FormatDevicePage f{.tracks_per_zone = 0x1234,
                           .alternate_sectors_per_zone = 7,
                           .alternate_tracks_per_zone = 2,
                           .alternate_tracks_per_lu = 3,
                           .sectors_per_track = 500,
                           .bytes_per_sector = 4096,
                           .interleave = 1,
                           .track_skew = 40,
                           .cylinder_skew = 90,
                           .hard_sectored = false,
                           .removable = true,
                           .surface_first = true};
  const Bytes fb = encode(f);
  ASSERT_EQ(fb.size(), kFormatDevicePageSize);
  EXPECT_EQ(fb[20], 0x30);  // RMB, SURF
  EXPECT_EQ(decode_format_device_page(fb), f);
  const RigidDiskPage r{.cylinders = 0xABCDEF,
                        .heads = 12,
                        .write_precomp_cylinder = 5,
                        .reduced_current_cylinder = 6,
                        .rotation_rpm = 15000};
  const Bytes rb = encode(r);
  ASSERT_EQ(rb.size(), kRigidDiskPageSize);
  EXPECT_EQ(decode_rigid_disk_page(rb), r);
}

TEST(ModeDisk, FiguresComeFromThePreset) {
  model::ZonedDiskParams d = *model::disk_preset("disk20k");
  const FormatDevicePage f = format_device_page_from(d);
  EXPECT_EQ(f.sectors_per_track, d.zones[0].sectors_per_track);
  EXPECT_EQ(f.sectors_per_track, 732);  // docs/disk-models.md: 125 MB/s in zone 0
  EXPECT_EQ(f.track_skew, d.zones[0].track_skew_sectors);
  EXPECT_EQ(f.alternate_sectors_per_zone, 0);  // no spares
  const RigidDiskPage r = rigid_disk_page_from(d);
  EXPECT_EQ(r.rotation_rpm, 20000);
  EXPECT_EQ(r.heads, d.surfaces);
  EXPECT_EQ(r.cylinders, static_cast<std::uint32_t>(d.cylinders));
  // Beyond a field: saturated, not wrapped; the rpm stays a rate SBC-3 defines.
  d.cylinders = 1 << 25;
  d.surfaces = 300;
  d.rotation_rpm = 70000;
  EXPECT_EQ(rigid_disk_page_from(d).cylinders, 0xFFFFFFu);
  EXPECT_EQ(rigid_disk_page_from(d).heads, 0xFF);
  EXPECT_EQ(nominal_rotation_rpm(d), 0xFFFE);
  d.rotation_rpm = 10024.6;
  EXPECT_EQ(nominal_rotation_rpm(d), 10025);
}

TEST(ModeDisk, ADisksModeStateHasItsPagesAndNoMemstorePage) {
  const model::ZonedDiskParams d = *model::disk_preset("atlas10k");
  const auto blocks = static_cast<std::uint64_t>(model::ZonedLayout(d).blocks());
  ModeState state(d, blocks, ModeOptions{});
  std::vector<int> codes;
  for (const auto& [code, subpage] : state.supported_pages()) codes.push_back(code);
  EXPECT_THAT(codes, ElementsAre(0x03, 0x04, 0x08, 0x0A, 0x1C, 0x22));
  EXPECT_EQ(state.blocks(), blocks);
  EXPECT_EQ(state.idle_timeout_ns(), -1);  // no page 1Ah, no power model
  // Page 04h sent back unchanged is accepted; a changed cylinder count is not.
  Bytes list(4, 0);
  const Bytes page = encode(rigid_disk_page_from(d));
  list.insert(list.end(), page.begin(), page.end());
  EXPECT_TRUE(mode_select(state, false, true, false, list).ok());
  list[4 + 4] ^= 1;
  const FieldStatus s = mode_select(state, false, true, false, list);
  ASSERT_FALSE(s.ok());
  EXPECT_EQ(s.error().kind, FieldError::Kind::kInvalidFieldInParamList);
  EXPECT_EQ(s.error().byte, 8);
}

}  // namespace
}  // namespace memstore::modepages
