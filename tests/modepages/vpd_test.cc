// SPDX-License-Identifier: Apache-2.0
// Standard INQUIRY data and VPD pages, byte for byte (SPC-4 §6.4.2, §7.8;
// SBC-3 §6.6).
#include <gtest/gtest.h>

#include <string>

#include "model/params.h"
#include "modepages/vpd_pages.h"

namespace memstore::modepages {
namespace {

Bytes ascii(const std::string& s) {
  return Bytes(s.begin(), s.end());
}

Bytes cat(std::initializer_list<Bytes> parts) {
  Bytes out;
  for (const Bytes& p : parts) out.insert(out.end(), p.begin(), p.end());
  return out;
}

LunIdentity identity() {
  LunIdentity id;
  id.serial = "S1";
  id.naa_id = 0x0123456789ABCDEF;
  return id;
}

TEST(StandardInquiry, ExactBytes) {
  const Bytes expected = cat({
      {0x00, 0x00, 0x06, 0x12, 0x5B, 0x00, 0x00, 0x02},
      ascii("MEMSTORE"),
      ascii("MEMStore G2     "),
      ascii("0001"),
      Bytes(22, 0),                          // 36..57
      {0x00, 0xA0, 0x04, 0x60, 0x04, 0xC0},  // SAM-5, SPC-4, SBC-3
      Bytes(10, 0),                          // descriptors 4..8
      Bytes(22, 0),                          // 74..95
  });
  EXPECT_EQ(standard_inquiry(identity()), expected);
  EXPECT_EQ(expected.size(), 96u);
}

TEST(StandardInquiry, PadsTruncatesAndSanitisesAscii) {
  LunIdentity id = identity();
  id.vendor = "AB\x01";
  id.product = "0123456789abcdefXYZ";
  id.revision = "7";
  const Bytes b = standard_inquiry(id);
  EXPECT_EQ(Bytes(b.begin() + 8, b.begin() + 16), ascii("AB_     "));
  EXPECT_EQ(Bytes(b.begin() + 16, b.begin() + 32), ascii("0123456789abcdef"));
  EXPECT_EQ(Bytes(b.begin() + 32, b.begin() + 36), ascii("7   "));
}

TEST(StandardInquiry, AtMostEightVersionDescriptors) {
  LunIdentity id = identity();
  id.version_descriptors = {1, 2, 3, 4, 5, 6, 7, 8, kVersionIscsi};
  const Bytes b = standard_inquiry(id);
  ASSERT_EQ(b.size(), 96u);
  EXPECT_EQ(get_be16(b, 58), 1);
  EXPECT_EQ(get_be16(b, 72), 8);
  EXPECT_EQ(get_be16(b, 74), 0);  // the ninth is dropped
}

TEST(Vpd, SupportedPagesComeFromTheTable) {
  EXPECT_EQ(vpd_page(0x00, {}),
            (Bytes{0x00, 0x00, 0x00, 0x06, 0x00, 0x80, 0x83, 0xB0, 0xB1, 0xB2}));
  for (std::uint8_t code : supported_vpd_pages()) EXPECT_TRUE(vpd_page(code, {})) << int{code};
}

TEST(Vpd, UnsupportedPagesAreNullopt) {
  for (const std::uint8_t code :
       std::initializer_list<std::uint8_t>{0x01, 0x81, 0x86, 0x89, 0xB3, 0xC0, 0xFF}) {
    EXPECT_FALSE(vpd_page(code, {})) << int{code};
  }
}

TEST(Vpd, UnitSerialNumber) {
  VpdInputs in;
  in.identity = identity();
  in.identity.serial = "abc123";
  EXPECT_EQ(vpd_page(0x80, in), cat({{0x00, 0x80, 0x00, 0x06}, ascii("abc123")}));
}

TEST(Vpd, DeviceIdentificationNaaAndT10VendorId) {
  VpdInputs in;
  in.identity = identity();
  const Bytes expected = cat({
      {0x00, 0x83, 0x00, 0x2A},
      {0x01, 0x03, 0x00, 0x08, 0x31, 0x23, 0x45, 0x67, 0x89, 0xAB, 0xCD, 0xEF},
      {0x02, 0x01, 0x00, 0x1A},
      ascii("MEMSTORE"),
      ascii("MEMStore G2     "),
      ascii("S1"),
  });
  EXPECT_EQ(vpd_page(0x83, in), expected);
}

TEST(Vpd, NaaNibbleIsAlwaysThree) {
  VpdInputs in;
  in.identity.naa_id = 0xF000000000000001;
  const Bytes b = *vpd_page(0x83, in);
  EXPECT_EQ(Bytes(b.begin() + 8, b.begin() + 16),
            (Bytes{0x30, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x01}));
}

TEST(Vpd, DeviceIdentificationAppendsTransportDesignators) {
  const Bytes port = {0x00, 0x00, 0x00, 0x01};
  const Bytes relative = make_designator(CodeSet::kBinary, Association::kTargetPort,
                                         DesignatorType::kRelativeTargetPort, port, 0x5);
  EXPECT_EQ(relative, (Bytes{0x51, 0x94, 0x00, 0x04, 0x00, 0x00, 0x00, 0x01}));
  const Bytes extra[] = {relative};
  VpdInputs in;
  in.identity = identity();
  in.extra_designators = extra;
  const Bytes b = *vpd_page(0x83, in);
  EXPECT_EQ(get_be16(b, 2), 0x2A + 8);
  EXPECT_EQ(Bytes(b.end() - 8, b.end()), relative);
}

TEST(Vpd, BlockLimits) {
  VpdInputs in;
  in.limits = block_limits_for(model::Geometry(*model::preset("g2")));
  in.limits.wsnz = true;
  in.limits.max_compare_and_write = 1;
  in.limits.max_transfer = 0x10000;
  in.limits.max_unmap_lba_count = 0x12345;
  in.limits.max_unmap_descriptors = 64;
  in.limits.optimal_unmap_granularity = 1;
  in.limits.unmap_granularity_alignment = 0;
  in.limits.max_write_same = 0x100000;
  const Bytes expected = cat({
      {0x00, 0xB0, 0x00, 0x3C},
      {0x01, 0x01, 0x00, 0x0A},  // WSNZ, compare and write 1, granularity p = 10
      {0x00, 0x01, 0x00, 0x00},  // maximum transfer length
      {0x00, 0x00, 0x01, 0x0E},  // optimal transfer length ST = 270
      {0x00, 0x00, 0x00, 0x00},  // maximum prefetch length
      {0x00, 0x01, 0x23, 0x45},
      {0x00, 0x00, 0x00, 0x40},
      {0x00, 0x00, 0x00, 0x01},
      {0x80, 0x00, 0x00, 0x00},  // UGAVALID, alignment 0
      {0x00, 0x00, 0x00, 0x00, 0x00, 0x10, 0x00, 0x00},
      Bytes(20, 0),
  });
  EXPECT_EQ(vpd_page(0xB0, in), expected);
}

TEST(Vpd, BlockLimitsWithoutAlignmentLeavesUgavalidClear) {
  const Bytes b = *vpd_page(0xB0, {});
  EXPECT_EQ(b.size(), 64u);
  EXPECT_EQ(Bytes(b.begin() + 4, b.end()), Bytes(60, 0));
}

TEST(Vpd, BlockDeviceCharacteristicsDefaultReportsNothing) {
  EXPECT_EQ(vpd_page(0xB1, {}), cat({{0x00, 0xB1, 0x00, 0x3C}, Bytes(60, 0)}));
}

TEST(Vpd, BlockDeviceCharacteristicsNonRotatingSmall) {
  VpdInputs in;
  in.rotation = {kNonRotating, FormFactor::kBelow1_8in};
  EXPECT_EQ(vpd_page(0xB1, in),
            cat({{0x00, 0xB1, 0x00, 0x3C, 0x00, 0x01, 0x00, 0x05}, Bytes(56, 0)}));
  in.rotation = {7200, FormFactor::k3_5in};
  EXPECT_EQ(vpd_page(0xB1, in),
            cat({{0x00, 0xB1, 0x00, 0x3C, 0x1C, 0x20, 0x00, 0x02}, Bytes(56, 0)}));
}

TEST(Vpd, RotationRateValidity) {
  EXPECT_TRUE(valid_rotation_rate(0));
  EXPECT_TRUE(valid_rotation_rate(1));
  EXPECT_FALSE(valid_rotation_rate(2));
  EXPECT_FALSE(valid_rotation_rate(0x0400));
  EXPECT_TRUE(valid_rotation_rate(0x0401));
  EXPECT_TRUE(valid_rotation_rate(0xFFFE));
  EXPECT_FALSE(valid_rotation_rate(0xFFFF));
}

TEST(Vpd, LogicalBlockProvisioningThin) {
  EXPECT_EQ(vpd_page(0xB2, {}), (Bytes{0x00, 0xB2, 0x00, 0x04, 0x00, 0xE4, 0x02, 0x00}));
  VpdInputs in;
  in.provisioning = {3, false, true, false, false, 0};
  EXPECT_EQ(vpd_page(0xB2, in), (Bytes{0x00, 0xB2, 0x00, 0x04, 0x03, 0x40, 0x00, 0x00}));
}

}  // namespace
}  // namespace memstore::modepages
