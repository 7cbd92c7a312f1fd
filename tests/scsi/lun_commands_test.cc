// SPDX-License-Identifier: Apache-2.0
// Command responses with exact bytes, and the data semantics a host relies on.
#include <gmock/gmock.h>

#include <algorithm>
#include <numeric>

#include "model/geometry.h"
#include "tests/scsi/lun_fixture.h"

namespace memstore::scsi {
namespace {

using ::testing::ElementsAre;
using ::testing::ElementsAreArray;
using testing::LunTest;

std::vector<std::uint8_t> pattern(std::size_t n, std::uint8_t seed) {
  std::vector<std::uint8_t> v(n);
  for (std::size_t i = 0; i < n; ++i) v[i] = static_cast<std::uint8_t>(seed + i * 7);
  return v;
}

TEST_F(LunTest, StandardInquiry) {
  const ScsiResult r = run({0x12, 0, 0, 0, 96});
  ASSERT_EQ(r.status, Status::kGood);
  ASSERT_EQ(r.data_in.size(), 96u);
  EXPECT_EQ(r.data_in[0], 0x00);         // connected direct-access block device
  EXPECT_EQ(r.data_in[2], 0x06);         // SPC-4
  EXPECT_EQ(r.data_in[3] & 0x1F, 0x12);  // HISUP, response data format 2
  EXPECT_EQ(r.data_in[4], 91);           // additional length
  EXPECT_EQ(r.data_in[7] & 0x02, 0x02);  // CMDQUE
  EXPECT_EQ(std::string(r.data_in.begin() + 8, r.data_in.begin() + 16), "MEMSTORE");
}

TEST_F(LunTest, AllocationLengthTruncates) {
  const ScsiResult r = run({0x12, 0, 0, 0, 5});
  EXPECT_EQ(r.data_in.size(), 5u);
  EXPECT_EQ(r.data_in[4], 91);  // the length field still tells the full size
}

TEST_F(LunTest, SupportedVpdPages) {
  const ScsiResult r = run({0x12, 1, 0x00, 0, 0xFF});
  ASSERT_EQ(r.status, Status::kGood);
  EXPECT_THAT(r.data_in, ElementsAre(0, 0x00, 0, 6, 0x00, 0x80, 0x83, 0xB0, 0xB1, 0xB2));
}

TEST_F(LunTest, BlockLimitsPublishParallelismAndTrack) {
  const ScsiResult r = run({0x12, 1, 0xB0, 0, 0xFF});
  ASSERT_EQ(r.status, Status::kGood);
  ASSERT_EQ(r.data_in.size(), 64u);
  EXPECT_EQ((r.data_in[6] << 8) | r.data_in[7], 10);  // OPTIMAL TRANSFER LENGTH GRANULARITY = p
  EXPECT_EQ(modepages::get_be32(r.data_in, 8), 0x10000u);  // MAXIMUM TRANSFER LENGTH
  EXPECT_EQ(modepages::get_be32(r.data_in, 12), 270u);     // OPTIMAL TRANSFER LENGTH = ST
}

TEST_F(LunTest, ReadCapacity) {
  const ScsiResult r10 = run({0x25});
  EXPECT_THAT(r10.data_in, ElementsAre(0x00, 0x66, 0xFF, 0x2F, 0, 0, 0x02, 0x00));
  const ScsiResult r16 = run({0x9E, 0x10, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 32});
  ASSERT_EQ(r16.data_in.size(), 32u);
  EXPECT_THAT(std::vector<std::uint8_t>(r16.data_in.begin(), r16.data_in.begin() + 12),
              ElementsAre(0, 0, 0, 0, 0, 0x66, 0xFF, 0x2F, 0, 0, 0x02, 0x00));
  EXPECT_EQ(r16.data_in[14], 0xC0);  // LBPME, LBPRZ
}

TEST_F(LunTest, WriteThenReadReturnsTheData) {
  const auto data = pattern(8 * 512, 3);
  ASSERT_EQ(run({0x2A, 0, 0, 0, 0x10, 0, 0, 0, 8}, data).status, Status::kGood);
  const ScsiResult r = run({0x28, 0, 0, 0, 0x10, 0, 0, 0, 8});
  ASSERT_EQ(r.status, Status::kGood);
  EXPECT_EQ(r.data_in, data);
  // Never-written blocks read as zeros (LBPRZ).
  const ScsiResult z = run({0x28, 0, 0, 0x20, 0, 0, 0, 0, 1});
  EXPECT_TRUE(std::all_of(z.data_in.begin(), z.data_in.end(), [](auto b) { return b == 0; }));
}

TEST_F(LunTest, EveryReadWriteCdbSizeAddressesTheSameBlock) {
  const auto data = pattern(512, 9);
  ASSERT_EQ(run({0x0A, 0x00, 0x12, 0x34, 1}, data).status, Status::kGood);  // WRITE(6) LBA 0x1234
  EXPECT_EQ(run({0x08, 0x00, 0x12, 0x34, 1}).data_in, data);
  EXPECT_EQ(run({0xA8, 0, 0, 0, 0x12, 0x34, 0, 0, 0, 1}).data_in, data);
  EXPECT_EQ(run({0x88, 0, 0, 0, 0, 0, 0, 0, 0x12, 0x34, 0, 0, 0, 1}).data_in, data);
}

TEST_F(LunTest, MediaCommandsCompleteAtTheModeledTime) {
  const ScsiResult r = run({0x28, 0, 0, 0x30, 0, 0, 0, 0, 8});
  ASSERT_EQ(r.status, Status::kGood);
  EXPECT_EQ(r.complete_ns - now, r.breakdown.service_ns());
  EXPECT_GT(r.breakdown.service_ns(), 128'000);
  const ScsiResult t = run({0x00});
  EXPECT_EQ(t.complete_ns, now);  // no media: done on arrival
}

TEST_F(LunTest, WriteSameWithUnmapDeallocates) {
  const auto data = pattern(512, 1);
  ASSERT_EQ(run({0x2A, 0, 0, 0, 0, 0x40, 0, 0, 1}, data).status, Status::kGood);
  ASSERT_EQ(run({0x41, 0x08, 0, 0, 0, 0x40, 0, 0, 1}, std::vector<std::uint8_t>(512, 0)).status,
            Status::kGood);
  const ScsiResult r = run({0x28, 0, 0, 0, 0, 0x40, 0, 0, 1});
  EXPECT_TRUE(std::all_of(r.data_in.begin(), r.data_in.end(), [](auto b) { return b == 0; }));
}

TEST_F(LunTest, UnmapCommand) {
  ASSERT_EQ(run({0x2A, 0, 0, 0, 0, 0x50, 0, 0, 2}, pattern(1024, 5)).status, Status::kGood);
  std::vector<std::uint8_t> list = {0, 22, 0, 16, 0, 0, 0, 0,     // header
                                    0, 0,  0, 0,  0, 0, 0, 0x50,  // LBA
                                    0, 0,  0, 2,  0, 0, 0, 0};    // 2 blocks
  ASSERT_EQ(run({0x42, 0, 0, 0, 0, 0, 0, 0, 24}, list).status, Status::kGood);
  const ScsiResult r = run({0x28, 0, 0, 0, 0, 0x50, 0, 0, 2});
  EXPECT_TRUE(std::all_of(r.data_in.begin(), r.data_in.end(), [](auto b) { return b == 0; }));
  // A descriptor past the end: LBA OUT OF RANGE, nothing unmapped.
  std::vector<std::uint8_t> bad = list;
  bad[8 + 4] = 0xFF;
  const ScsiResult e = run({0x42, 0, 0, 0, 0, 0, 0, 0, 24}, bad);
  EXPECT_THAT(kcq(e), ElementsAre(5, 0x21, 0));
}

TEST_F(LunTest, CompareAndWrite) {
  const auto old_data = pattern(512, 11);
  const auto new_data = pattern(512, 77);
  ASSERT_EQ(run({0x2A, 0, 0, 0, 0, 0x60, 0, 0, 1}, old_data).status, Status::kGood);
  std::vector<std::uint8_t> both = old_data;
  both.insert(both.end(), new_data.begin(), new_data.end());
  const std::vector<std::uint8_t> cdb = {0x89, 0, 0, 0, 0, 0, 0, 0, 0, 0x60, 0, 0, 0, 1};
  ASSERT_EQ(run(cdb, both).status, Status::kGood);
  EXPECT_EQ(run({0x28, 0, 0, 0, 0, 0x60, 0, 0, 1}).data_in, new_data);
  // Now the verify data is stale: MISCOMPARE, INFORMATION = first differing byte.
  const ScsiResult m = run(cdb, both);
  ASSERT_EQ(m.status, Status::kCheckCondition);
  EXPECT_THAT(kcq(m), ElementsAre(0x0E, 0x1D, 0));
  std::size_t first = 0;
  while (old_data[first] == new_data[first]) ++first;
  EXPECT_EQ(modepages::get_be32(m.sense, 3), first);
  EXPECT_EQ(run({0x28, 0, 0, 0, 0, 0x60, 0, 0, 1}).data_in, new_data);  // unchanged
}

TEST_F(LunTest, VerifyWithByteCheck) {
  const auto data = pattern(512, 21);
  ASSERT_EQ(run({0x2A, 0, 0, 0, 0, 0x70, 0, 0, 1}, data).status, Status::kGood);
  EXPECT_EQ(run({0x2F, 0x02, 0, 0, 0, 0x70, 0, 0, 1}, data).status, Status::kGood);
  auto wrong = data;
  wrong[100] ^= 1;
  const ScsiResult m = run({0x2F, 0x02, 0, 0, 0, 0x70, 0, 0, 1}, wrong);
  EXPECT_THAT(kcq(m), ElementsAre(0x0E, 0x1D, 0));
  EXPECT_EQ(modepages::get_be32(m.sense, 3), 100u);
}

TEST_F(LunTest, ReportSupportedOperationCodesFromTheTable) {
  const ScsiResult all = run({0xA3, 0x0C, 0, 0, 0, 0, 0, 0, 0x10, 0});
  ASSERT_EQ(all.status, Status::kGood);
  EXPECT_EQ(modepages::get_be32(all.data_in, 0), command_table().size() * 8);
  const ScsiResult one = run({0xA3, 0x0C, 0x01, 0x28, 0, 0, 0, 0, 0, 0xFF});
  ASSERT_EQ(one.status, Status::kGood);
  EXPECT_THAT(one.data_in, ElementsAre(0, 0x03, 0, 10, 0x28, 0x1C, 0xFF, 0xFF, 0xFF, 0xFF, 0x1F,
                                       0xFF, 0xFF, 0x00));
  // Both vendor batch carriers are listed.
  bool write_buffer = false, read_buffer = false;
  for (std::size_t i = 4; i + 8 <= all.data_in.size(); i += 8) {
    write_buffer |= all.data_in[i] == 0x3B;
    read_buffer |= all.data_in[i] == 0x3C;
  }
  EXPECT_TRUE(write_buffer && read_buffer);
}

// The geometry page, decoded here by hand from docs/vendor-interface.md's table (not with
// the library's decoder), gives back the model's geometry.
TEST_F(LunTest, GeometryPageDecodedIndependently) {
  const ScsiResult r = run({0x1A, 0x08, 0x20, 0, 0xFF});
  ASSERT_EQ(r.status, Status::kGood);
  ASSERT_GE(r.data_in.size(), 4u + 60u);
  const std::uint8_t* p = r.data_in.data() + 4;  // after the 4-byte header, no block descriptor
  auto u32 = [&](int at) {
    return static_cast<std::int64_t>((p[at] << 24) | (p[at + 1] << 16) | (p[at + 2] << 8) |
                                     p[at + 3]);
  };
  std::int64_t per_sled = 0;
  for (int i = 42; i < 50; ++i) per_sled = (per_sled << 8) | p[i];
  const model::Geometry& g = lun->geometry();
  EXPECT_EQ(p[0], 0x20);
  EXPECT_EQ(p[1], 58);
  EXPECT_EQ((p[2] << 8) | p[3], 1);  // format version
  EXPECT_EQ(p[4] & 0x01, 1);         // bidirectional
  EXPECT_EQ(p[5], 1);                // sleds
  EXPECT_EQ(u32(6), g.p());
  EXPECT_EQ(u32(10), g.n());
  EXPECT_EQ(u32(14), g.sx());
  EXPECT_EQ(u32(18), g.sy());
  EXPECT_EQ(u32(22), g.m());
  EXPECT_EQ(u32(26), g.nx());
  EXPECT_EQ(u32(30), g.ny());
  EXPECT_EQ(u32(34), g.st());
  EXPECT_EQ(u32(38), g.sc());
  EXPECT_EQ(per_sled, g.blocks_per_sled());
  EXPECT_EQ(u32(50), 0);  // G
}

TEST_F(LunTest, LogPagesReportPositioningStatistics) {
  const ScsiResult supported = run({0x4D, 0, 0x00, 0, 0, 0, 0, 0x01, 0});
  ASSERT_EQ(supported.status, Status::kGood);
  EXPECT_THAT(std::vector<std::uint8_t>(supported.data_in.begin() + 4, supported.data_in.end()),
              ElementsAre(0x00, 0x30, 0x31));
  run({0x28, 0, 0, 0x10, 0, 0, 0, 0, 8});
  run({0x28, 0, 0, 0x30, 0, 0, 0, 0, 8});
  const ScsiResult pos = run({0x4D, 0, 0x31, 0, 0, 0, 0, 0x10, 0});
  ASSERT_EQ(pos.status, Status::kGood);
  const auto decoded = modepages::decode_positioning_log(pos.data_in);
  ASSERT_TRUE(decoded);
  EXPECT_EQ((*decoded)[modepages::PositioningMetric::kTransfer].count, 2u);
  EXPECT_GT((*decoded)[modepages::PositioningMetric::kTransfer].mean, 128'000u);
}

}  // namespace
}  // namespace memstore::scsi
