// SPDX-License-Identifier: Apache-2.0
// READ DEFECT DATA (10) and (12): the empty lists, their headers, the
// allocation length, and the refusals (SBC-3, SPC-4 §4.5.2.4.2 for the
// field pointers).
#include <gmock/gmock.h>

#include "target/scsi/command_table.h"
#include "tests/scsi/lun_fixture.h"

namespace memstore::scsi {
namespace {

using ::testing::ElementsAre;
using testing::LunTest;

constexpr std::uint8_t kReadDefectData10 = 0x37;
constexpr std::uint8_t kReqPlist = 0x10;
constexpr std::uint8_t kReqGlist = 0x08;

std::vector<std::uint8_t> read_defect_data(std::uint8_t byte2, std::uint16_t alloc = 0xFFFF) {
  return {kReadDefectData10,
          0,
          byte2,
          0,
          0,
          0,
          0,
          static_cast<std::uint8_t>(alloc >> 8),
          static_cast<std::uint8_t>(alloc),
          0};
}

class ReadDefectData : public LunTest {};

TEST_F(ReadDefectData, BothListsAreThereAndEmpty) {
  const ScsiResult r = run(read_defect_data(kReqPlist | kReqGlist | 0x0));  // short block
  ASSERT_EQ(r.status, Status::kGood);
  // PLISTV, GLISTV, DEFECT LIST FORMAT 000b; DEFECT LIST LENGTH 0.
  EXPECT_THAT(r.data_in, ElementsAre(0, 0x18, 0, 0));
  EXPECT_EQ(r.complete_ns, now) << "not timed: no media is touched";
}

TEST_F(ReadDefectData, TheHeaderSaysWhichListsAndWhichFormat) {
  EXPECT_THAT(run(read_defect_data(kReqGlist | 0x5)).data_in, ElementsAre(0, 0x0D, 0, 0));
  EXPECT_THAT(run(read_defect_data(kReqPlist | 0x3)).data_in, ElementsAre(0, 0x13, 0, 0));
  EXPECT_THAT(run(read_defect_data(0x4)).data_in, ElementsAre(0, 0x04, 0, 0));  // header only
  EXPECT_THAT(run(read_defect_data(kReqGlist | 0x6)).data_in, ElementsAre(0, 0x0E, 0, 0));
}

TEST_F(ReadDefectData, TheAllocationLengthCutsTheHeader) {
  EXPECT_THAT(run(read_defect_data(kReqGlist, 2)).data_in, ElementsAre(0, 0x08));
  const ScsiResult none = run(read_defect_data(kReqGlist, 0));
  EXPECT_EQ(none.status, Status::kGood);
  EXPECT_TRUE(none.data_in.empty());
}

TEST_F(ReadDefectData, AReservedFormatIsAnInvalidFieldAtItsFirstBit) {
  for (const int format : {0x1, 0x2, 0x7}) {
    const ScsiResult r = run(read_defect_data(static_cast<std::uint8_t>(kReqGlist | format)));
    ASSERT_EQ(r.status, Status::kCheckCondition) << format;
    EXPECT_THAT(kcq(r), ElementsAre(0x5, 0x24, 0x00)) << format;  // INVALID FIELD IN CDB
    EXPECT_THAT(field(r), ElementsAre(1, 2, 2)) << format;        // CDB, bit 2 of byte 2
  }
}

TEST_F(ReadDefectData, ReservedBitsAreRefused) {
  std::vector<std::uint8_t> cdb = read_defect_data(kReqGlist | 0x20);  // byte 2 bit 5
  ScsiResult r = run(cdb);
  EXPECT_THAT(kcq(r), ElementsAre(0x5, 0x24, 0x00));
  EXPECT_THAT(field(r), ElementsAre(1, 5, 2));
  cdb = read_defect_data(kReqGlist);
  cdb[1] = 0x01;
  r = run(cdb);
  EXPECT_THAT(field(r), ElementsAre(1, 0, 1));
  cdb = read_defect_data(kReqGlist);
  cdb[5] = 0x80;  // bytes 3..6 are reserved
  r = run(cdb);
  EXPECT_THAT(field(r), ElementsAre(1, 7, 5));
}

TEST_F(ReadDefectData, ReportedAsSupportedWithItsUsageMask) {
  // REPORT SUPPORTED OPERATION CODES, one command (SPC-4 §6.35).
  const ScsiResult r = run({0xA3, 0x0C, 0x01, kReadDefectData10, 0, 0, 0, 0, 1, 0, 0, 0});
  ASSERT_EQ(r.status, Status::kGood);
  EXPECT_THAT(r.data_in,
              ElementsAre(0, 0x03, 0, 10, kReadDefectData10, 0, 0x1F, 0, 0, 0, 0, 0xFF, 0xFF, 0));
}

TEST_F(ReadDefectData, OnlyTheReservationHolderReadsThemUnderAnSpc2Reservation) {
  ASSERT_EQ(run({0x16}, {}, 1).status, Status::kGood);  // RESERVE(6) by nexus 1
  EXPECT_EQ(run(read_defect_data(kReqGlist), {}, 2).status, Status::kReservationConflict);
  EXPECT_EQ(run(read_defect_data(kReqGlist), {}, 1).status, Status::kGood);
}

TEST_F(ReadDefectData, ADiskLunHasNoneEither) {
  LunConfig config;
  config.disk = model::disk_preset("atlas10k");
  lun = testing::make_lun(config);
  EXPECT_THAT(run(read_defect_data(kReqPlist | kReqGlist)).data_in, ElementsAre(0, 0x18, 0, 0));
}

std::vector<std::uint8_t> read_defect_data12(std::uint8_t byte1, std::uint32_t alloc = 0xFFFF) {
  std::vector<std::uint8_t> cdb(12, 0);
  cdb[0] = 0xB7;
  cdb[1] = byte1;
  for (int i = 0; i < 4; ++i) cdb[6 + i] = static_cast<std::uint8_t>(alloc >> (24 - 8 * i));
  return cdb;
}

TEST_F(ReadDefectData, TwelveHasAnEightByteHeader) {
  // PLISTV, GLISTV, long block format; GENERATION CODE 0 (not supported),
  // DEFECT LIST LENGTH 0 in bytes 4..7.
  EXPECT_THAT(run(read_defect_data12(kReqPlist | kReqGlist | 0x3)).data_in,
              ElementsAre(0, 0x1B, 0, 0, 0, 0, 0, 0));
  std::vector<std::uint8_t> cdb = read_defect_data12(kReqGlist, 6);
  cdb[5] = 9;  // ADDRESS DESCRIPTOR INDEX 9: past an empty list, the header alone
  EXPECT_THAT(run(cdb).data_in, ElementsAre(0, 0x08, 0, 0, 0, 0));
}

TEST_F(ReadDefectData, TwelveRefusesAReservedFormatAtByteOne) {
  ScsiResult r = run(read_defect_data12(kReqGlist | 0x7));
  ASSERT_EQ(r.status, Status::kCheckCondition);
  EXPECT_THAT(kcq(r), ElementsAre(0x5, 0x24, 0x00));
  EXPECT_THAT(field(r), ElementsAre(1, 2, 1));
  std::vector<std::uint8_t> cdb = read_defect_data12(kReqGlist);
  cdb[10] = 0x01;  // reserved byte
  r = run(cdb);
  EXPECT_THAT(field(r), ElementsAre(1, 0, 10));
}

TEST(ReadDefectDataTable, OneEntryDescribesIt) {
  bool bad_sa = false;
  const std::vector<std::uint8_t> cdb = read_defect_data(kReqGlist);
  const CommandSpec* spec = find_command(cdb, bad_sa);
  ASSERT_NE(spec, nullptr);
  EXPECT_EQ(spec->cdb_length, 10);
  EXPECT_EQ(spec->direction, DataDirection::kIn);
  EXPECT_EQ(spec->unit, LengthUnit::kAllocation);
  EXPECT_EQ(spec->length.offset, 7);
  EXPECT_EQ(spec->media, Media::kNone);
  EXPECT_FALSE(spec->timed);
  // SBC-3's reservation table: allowed under Write Exclusive, a conflict
  // under Exclusive Access, as READ (the AccessRules tests).
  EXPECT_EQ(spec->access, Access::kRead);
}

}  // namespace
}  // namespace memstore::scsi
