// SPDX-License-Identifier: Apache-2.0
// ORWRITE(16) (SBC-3 §5.9) and GET LBA STATUS (SBC-3 §5.20) on a G2 LUN.
#include <gmock/gmock.h>

#include "modepages/bytes.h"
#include "modepages/log_pages.h"
#include "tests/scsi/lun_fixture.h"

namespace memstore::scsi {
namespace {

using ::testing::ElementsAre;
using ::testing::IsEmpty;
using testing::LunTest;
using testing::make_lun;

std::vector<std::uint8_t> pattern(std::size_t n, std::uint8_t seed) {
  std::vector<std::uint8_t> v(n);
  for (std::size_t i = 0; i < n; ++i) v[i] = static_cast<std::uint8_t>(seed + i * 13);
  return v;
}

std::vector<std::uint8_t> orwrite16(std::uint64_t lba, std::uint32_t blocks,
                                    std::uint8_t byte1 = 0) {
  std::vector<std::uint8_t> cdb(16, 0);
  cdb[0] = 0x8B;
  cdb[1] = byte1;
  modepages::put_be(cdb, 2, 8, lba);
  modepages::put_be(cdb, 10, 4, blocks);
  return cdb;
}

std::vector<std::uint8_t> read16(std::uint64_t lba, std::uint32_t blocks) {
  std::vector<std::uint8_t> cdb(16, 0);
  cdb[0] = 0x88;
  modepages::put_be(cdb, 2, 8, lba);
  modepages::put_be(cdb, 10, 4, blocks);
  return cdb;
}

std::vector<std::uint8_t> get_lba_status(std::uint64_t lba, std::uint32_t alloc) {
  std::vector<std::uint8_t> cdb(16, 0);
  cdb[0] = 0x9E;
  cdb[1] = 0x12;
  modepages::put_be(cdb, 2, 8, lba);
  modepages::put_be(cdb, 10, 4, alloc);
  return cdb;
}

constexpr std::uint64_t kG2Blocks = 6'750'000;

// ---------------------------------------------------------------------------
// ORWRITE

TEST_F(LunTest, OrwriteOrsTheDataIntoEachBlock) {
  const auto medium = pattern(4 * 512, 3);
  const auto data = pattern(4 * 512, 91);
  ASSERT_EQ(run({0x2A, 0, 0, 0, 0x20, 0, 0, 0, 4}, medium).status, Status::kGood);
  const ScsiResult r = run(orwrite16(0x2000, 4), data);
  ASSERT_EQ(r.status, Status::kGood);
  EXPECT_EQ(r.transfer_bytes, 4u * 512);
  std::vector<std::uint8_t> expected(medium.size());
  for (std::size_t i = 0; i < expected.size(); ++i) expected[i] = medium[i] | data[i];
  EXPECT_EQ(run(read16(0x2000, 4)).data_in, expected);
  // Neighbours are untouched; never-written blocks OR onto zeros.
  EXPECT_EQ(run(read16(0x2004, 1)).data_in, std::vector<std::uint8_t>(512, 0));
  ASSERT_EQ(run(orwrite16(0x3000, 1), pattern(512, 5)).status, Status::kGood);
  EXPECT_EQ(run(read16(0x3000, 1)).data_in, pattern(512, 5));
}

TEST_F(LunTest, OrwriteOfZeroBlocksDoesNothing) {
  const ScsiResult r = run(orwrite16(0, 0));
  EXPECT_EQ(r.status, Status::kGood);
  EXPECT_EQ(r.complete_ns, now) << "no media access";
  // ...but the LBA is still checked.
  EXPECT_THAT(kcq(run(orwrite16(kG2Blocks + 1, 0))), ElementsAre(5, 0x21, 0));
  EXPECT_EQ(run(orwrite16(kG2Blocks, 0)).status, Status::kGood);
}

TEST_F(LunTest, OrwriteChecks) {
  const auto block = pattern(512, 1);
  const ScsiResult past = run(orwrite16(kG2Blocks - 1, 2), pattern(1024, 1));
  EXPECT_THAT(kcq(past), ElementsAre(5, 0x21, 0));
  EXPECT_THAT(field(past), IsEmpty());
  EXPECT_THAT(kcq(run(orwrite16(0x8000000000000000ULL, 1), block)), ElementsAre(5, 0x21, 0));
  EXPECT_THAT(kcq(run(orwrite16(~0ULL, 1), block)), ElementsAre(5, 0x21, 0));
  // ORPROTECT: no protection information.
  for (std::uint8_t p = 1; p < 8; ++p) {
    const ScsiResult r = run(orwrite16(0, 1, static_cast<std::uint8_t>(p << 5)), block);
    EXPECT_THAT(kcq(r), ElementsAre(5, 0x24, 0));
  }
  EXPECT_THAT(field(run(orwrite16(0, 1, 0x20), block)), ElementsAre(1, 5, 1));
  // Beyond MAXIMUM TRANSFER LENGTH.
  EXPECT_THAT(field(run(orwrite16(0, 0x10001), block)), ElementsAre(1, -1, 10));
  // DPO and FUA are accepted (the mode pages report DPOFUA).
  EXPECT_EQ(run(orwrite16(0, 1, 0x18), block).status, Status::kGood);
}

TEST_F(LunTest, OrwriteIsTimedAsAReadThenAWrite) {
  constexpr std::uint64_t kLba = 0x40000;
  constexpr std::uint32_t kBlocks = 64;
  // The same read on a second, identical LUN.
  const auto other = make_lun();
  ScsiCommand rc;
  const auto read_cdb = read16(kLba, kBlocks);
  rc.cdb = read_cdb;
  rc.arrival_ns = now + 1'000'000;
  const ScsiResult read = other->execute(rc);
  ASSERT_EQ(read.status, Status::kGood);

  const ScsiResult r = run(orwrite16(kLba, kBlocks), pattern(kBlocks * 512, 7));
  ASSERT_EQ(r.status, Status::kGood);
  ASSERT_EQ(now, rc.arrival_ns);
  // Both passes in the breakdown, back to back on an idle device.
  EXPECT_EQ(r.breakdown.transfer_ns, 2 * read.breakdown.transfer_ns);
  EXPECT_EQ(r.complete_ns - now, r.breakdown.service_ns());
  EXPECT_GT(r.complete_ns - now, read.complete_ns - now);
  // The positioning log counts two media accesses.
  const ScsiResult log = run({0x4D, 0, 0x31, 0, 0, 0, 0, 0x10, 0});
  const auto decoded = modepages::decode_positioning_log(log.data_in);
  ASSERT_TRUE(decoded);
  EXPECT_EQ((*decoded)[modepages::PositioningMetric::kTransfer].count, 2u);
}

TEST_F(LunTest, OrwriteIsInReportSupportedOperationCodes) {
  const ScsiResult r = run({0xA3, 0x0C, 0x01, 0x8B, 0, 0, 0, 0, 0, 0xFF});
  ASSERT_EQ(r.status, Status::kGood);
  EXPECT_THAT(r.data_in, ElementsAre(0, 0x03, 0, 16, 0x8B, 0x18, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF,
                                     0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0x1F, 0x00));
}

// ---------------------------------------------------------------------------
// GET LBA STATUS

struct Descriptor {
  std::uint64_t lba;
  std::uint32_t blocks;
  int status;  // 0 mapped, 1 deallocated
  bool operator==(const Descriptor&) const = default;
};

std::vector<Descriptor> descriptors(const ScsiResult& r) {
  std::vector<Descriptor> out;
  EXPECT_EQ(r.status, Status::kGood);
  if (r.data_in.size() < 8) return out;
  EXPECT_EQ(modepages::get_be32(r.data_in, 0) + 4, r.data_in.size());
  for (std::size_t at = 8; at + 16 <= r.data_in.size(); at += 16) {
    out.push_back({modepages::get_be64(r.data_in, at), modepages::get_be32(r.data_in, at + 8),
                   r.data_in[at + 12] & 0x0F});
  }
  return out;
}

TEST_F(LunTest, GetLbaStatusOfAFreshLunIsOneDeallocatedExtent) {
  const ScsiResult r = run(get_lba_status(0, 24));
  ASSERT_EQ(r.data_in.size(), 24u);
  EXPECT_EQ(modepages::get_be32(r.data_in, 0), 20u);  // PARAMETER DATA LENGTH
  EXPECT_THAT(descriptors(r), ElementsAre(Descriptor{0, kG2Blocks, 1}));
  EXPECT_THAT(descriptors(run(get_lba_status(kG2Blocks - 1, 24))),
              ElementsAre(Descriptor{kG2Blocks - 1, 1, 1}));
}

TEST_F(LunTest, GetLbaStatusFollowsWritesAndUnmap) {
  // The memory store tracks 4 KiB units (8 blocks of 512 bytes).
  ASSERT_EQ(run({0x2A, 0, 0, 0, 0, 0, 0, 0x01, 0x2C}, pattern(300 * 512, 1)).status,
            Status::kGood);  // blocks 0..299: units 0-37
  EXPECT_THAT(descriptors(run(get_lba_status(0, 0x1000))),
              ElementsAre(Descriptor{0, 304, 0}, Descriptor{304, kG2Blocks - 304, 1}));
  // UNMAP whole units.
  std::vector<std::uint8_t> list = {0, 22, 0, 16,  0, 0, 0, 0,   0, 0, 0, 0,
                                    0, 0,  0, 128, 0, 0, 0, 128, 0, 0, 0, 0};
  ASSERT_EQ(run({0x42, 0, 0, 0, 0, 0, 0, 0, 24}, list).status, Status::kGood);
  EXPECT_THAT(descriptors(run(get_lba_status(0, 0x1000))),
              ElementsAre(Descriptor{0, 128, 0}, Descriptor{128, 128, 1}, Descriptor{256, 48, 0},
                          Descriptor{304, kG2Blocks - 304, 1}));
  // The allocation length bounds the descriptors, and the first starts at
  // the asked LBA (libiscsi's GetLBAStatus.UnmapSingle).
  EXPECT_THAT(descriptors(run(get_lba_status(129, 24))), ElementsAre(Descriptor{129, 127, 1}));
  EXPECT_THAT(descriptors(run(get_lba_status(1, 40))),
              ElementsAre(Descriptor{1, 127, 0}, Descriptor{128, 128, 1}));
  // Unmapping part of a unit keeps it mapped ("mapped or unknown").
  list[15] = 0;
  list[19] = 1;  // LBA 0, one block
  ASSERT_EQ(run({0x42, 0, 0, 0, 0, 0, 0, 0, 24}, list).status, Status::kGood);
  EXPECT_EQ(descriptors(run(get_lba_status(0, 24)))[0], (Descriptor{0, 128, 0}));
}

TEST_F(LunTest, GetLbaStatusChecks) {
  EXPECT_THAT(kcq(run(get_lba_status(kG2Blocks, 24))), ElementsAre(5, 0x21, 0));
  EXPECT_THAT(kcq(run(get_lba_status(0x8000000000000000ULL, 24))), ElementsAre(5, 0x21, 0));
  EXPECT_THAT(kcq(run(get_lba_status(~0ULL, 24))), ElementsAre(5, 0x21, 0));
  // The allocation length cuts the data, not PARAMETER DATA LENGTH.
  const ScsiResult cut = run(get_lba_status(0, 8));
  EXPECT_THAT(cut.data_in, ElementsAre(0, 0, 0, 20, 0, 0, 0, 0));
  auto reserved = get_lba_status(0, 24);
  reserved[14] = 0x01;
  EXPECT_THAT(field(run(reserved)), ElementsAre(1, 0, 14));
}

TEST_F(LunTest, ProvisioningPagesAgreeWithGetLbaStatus) {
  // READ CAPACITY(16): LBPME (GET LBA STATUS and UNMAP work) and LBPRZ.
  const ScsiResult rc = run({0x9E, 0x10, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 32});
  EXPECT_EQ(rc.data_in[14] & 0xC0, 0xC0);
  // VPD B2h: LBPU, LBPWS, LBPWS10, LBPRZ; no anchored LBAs (ANC_SUP = 0);
  // thin provisioned.
  const ScsiResult b2 = run({0x12, 1, 0xB2, 0, 0xFF});
  ASSERT_EQ(b2.status, Status::kGood);
  EXPECT_EQ(b2.data_in[5], 0xE4);
  EXPECT_EQ(b2.data_in[6] & 0x07, 2);
}

}  // namespace
}  // namespace memstore::scsi
