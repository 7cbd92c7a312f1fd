// SPDX-License-Identifier: Apache-2.0
// CDB builders and response decoders of host/scsi_commands.*: exact CDB
// bytes, and finding a page in MODE SENSE(10) data however it is laid out.
#include "host/scsi_commands.h"

#include <gtest/gtest.h>

namespace memstore::host {
namespace {

TEST(ScsiCommands, CdbBytes) {
  EXPECT_EQ(inquiry_cdb(96), (Bytes{0x12, 0, 0, 0, 96, 0}));
  EXPECT_EQ(mode_sense10_cdb(0x20, PageControl::kCurrent, 1024),
            (Bytes{0x5A, 0x08, 0x20, 0, 0, 0, 0, 0x04, 0x00, 0}));
  EXPECT_EQ(mode_sense10_cdb(0x22, PageControl::kChangeable, 64),
            (Bytes{0x5A, 0x08, 0x62, 0, 0, 0, 0, 0, 64, 0}));
  EXPECT_EQ(mode_select10_cdb(24), (Bytes{0x55, 0x10, 0, 0, 0, 0, 0, 0, 24, 0}));
  EXPECT_EQ(log_sense_cdb(0x31, 1024), (Bytes{0x4D, 0, 0x71, 0, 0, 0, 0, 0x04, 0, 0}));
  EXPECT_EQ(read16_cdb(0x0102030405060708, 9),
            (Bytes{0x88, 0, 1, 2, 3, 4, 5, 6, 7, 8, 0, 0, 0, 9, 0, 0}));
  EXPECT_EQ(write16_cdb(5, 1, true), (Bytes{0x8A, 0x08, 0, 0, 0, 0, 0, 0, 0, 5, 0, 0, 0, 1, 0, 0}));
  EXPECT_EQ(read_capacity16_cdb(), (Bytes{0x9E, 0x10, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 32, 0, 0}));
}

TEST(ScsiCommands, ModeSelectListClearsPs) {
  const Bytes list = mode_select10_list(Bytes{0xA2, 0x02, 0x11, 0x22});
  EXPECT_EQ(list, (Bytes{0, 0, 0, 0, 0, 0, 0, 0, 0x22, 0x02, 0x11, 0x22}));
}

TEST(ScsiCommands, FindsAPageAfterBlockDescriptorsAndOtherPages) {
  // Header(10) with an 8-byte block descriptor, then pages 08h and 20h.
  Bytes d = {0, 0, 0, 0, 0, 0, 0, 8, 1, 2, 3, 4, 5, 6, 7, 8};
  const Bytes p08 = {0x08, 0x02, 0xAA, 0xBB};
  const Bytes p20 = {0x20, 0x03, 1, 2, 3};
  d.insert(d.end(), p08.begin(), p08.end());
  d.insert(d.end(), p20.begin(), p20.end());
  d[1] = static_cast<std::uint8_t>(d.size() - 2);
  auto found = find_mode_page(d, 0x20);
  ASSERT_TRUE(found);
  EXPECT_EQ(Bytes(found->begin(), found->end()), p20);
  EXPECT_FALSE(find_mode_page(d, 0x21));
  // MODE DATA LENGTH shorter than the buffer: the page past it is not there.
  d[1] = static_cast<std::uint8_t>(6 + 8 + 4);
  EXPECT_FALSE(find_mode_page(d, 0x20));
  // A truncated page is not returned.
  Bytes t = {0, 10, 0, 0, 0, 0, 0, 0, 0x20, 0x30, 1, 2};
  EXPECT_FALSE(find_mode_page(t, 0x20));
  EXPECT_FALSE(find_mode_page(Bytes{0, 6, 0}, 0x20));
}

TEST(ScsiCommands, SkipsSubpageFormatPages) {
  Bytes d = {0, 0, 0, 0, 0, 0, 0, 0};
  const Bytes sub = {0x60, 0x01, 0x00, 0x02, 0xEE, 0xEE};  // 20h subpage 01h (SPF)
  const Bytes p20 = {0x20, 0x01, 7};
  d.insert(d.end(), sub.begin(), sub.end());
  d.insert(d.end(), p20.begin(), p20.end());
  d[1] = static_cast<std::uint8_t>(d.size() - 2);
  auto found = find_mode_page(d, 0x20);
  ASSERT_TRUE(found);
  EXPECT_EQ(Bytes(found->begin(), found->end()), p20);
}

TEST(ScsiCommands, DecodesInquiryAndCapacity) {
  Bytes inq(36, ' ');
  inq[0] = 0x00;
  const std::string v = "MEMSTORE", p = "G2 MEMStore", r = "0.1";
  std::copy(v.begin(), v.end(), inq.begin() + 8);
  std::copy(p.begin(), p.end(), inq.begin() + 16);
  std::copy(r.begin(), r.end(), inq.begin() + 32);
  const auto q = decode_inquiry(inq);
  ASSERT_TRUE(q);
  EXPECT_EQ(q->vendor, "MEMSTORE");
  EXPECT_EQ(q->product, "G2 MEMStore");
  EXPECT_EQ(q->revision, "0.1");
  EXPECT_EQ(device_type_name(q->device_type), "direct access block device");
  EXPECT_FALSE(decode_inquiry(Bytes(35, 0)));

  const auto c16 = decode_read_capacity16(Bytes{0, 0, 0, 0, 0, 0x66, 0xFF, 0x2F, 0, 0, 2, 0});
  ASSERT_TRUE(c16);
  EXPECT_EQ(c16->blocks, 6'750'000u);
  EXPECT_EQ(c16->block_size, 512u);
  const auto c10 = decode_read_capacity10(Bytes{0, 0, 0, 9, 0, 0, 0x10, 0});
  ASSERT_TRUE(c10);
  EXPECT_EQ(c10->blocks, 10u);
  EXPECT_EQ(c10->block_size, 4096u);
  EXPECT_FALSE(decode_read_capacity16(Bytes(11, 0)));
}

}  // namespace
}  // namespace memstore::host
