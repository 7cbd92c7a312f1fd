// SPDX-License-Identifier: Apache-2.0
// What comes from the command table besides dispatch: field reading, the
// blocks a CDB addresses, the allocation-length cut, the CDB length TCMU
// passes on, fault rules' block ranges and the answers for an absent LUN.
#include "target/scsi/command_table.h"

#include <gtest/gtest.h>

#include "target/scsi/fault_range.h"
#include "target/scsi/report_luns.h"
#include "tests/scsi/cdb_builders.h"

namespace memstore::scsi {
namespace {

const CommandSpec& spec_of(std::uint8_t opcode) {
  const CommandSpec* s = find_layout(opcode);
  EXPECT_NE(s, nullptr) << int{opcode};
  return *s;
}

TEST(CommandTable, FieldsAreBigEndianAndMasked) {
  const std::vector<std::uint8_t> cdb{0x08, 0xFF, 0x12, 0x34, 0x00, 0};  // READ(6)
  EXPECT_EQ(cdb_field(cdb, spec_of(0x08).lba), 0x1F1234U);               // 21 bits
  EXPECT_EQ(cdb_blocks(spec_of(0x08), cdb, 1000), 256U);                 // 0 means 256
  const auto r16 = testing::read16(0x0102030405060708, 0x0A0B0C0D);
  EXPECT_EQ(cdb_field(r16, spec_of(0x88).lba), 0x0102030405060708U);
  EXPECT_EQ(cdb_field(r16, spec_of(0x88).length), 0x0A0B0C0DU);
  EXPECT_EQ(cdb_field(r16, CdbField{}), 0U);  // no such field
}

TEST(CommandTable, WriteSameOfZeroBlocksReachesTheEnd) {
  std::vector<std::uint8_t> ws16(16, 0);
  ws16[0] = 0x93;
  ws16[9] = 100;  // LBA 100, NUMBER OF LOGICAL BLOCKS 0
  EXPECT_EQ(cdb_blocks(spec_of(0x93), ws16, 1000), 900U);
  EXPECT_EQ(cdb_blocks(spec_of(0x93), ws16, 50), 0U);
  // Not a block count: no blocks.
  EXPECT_EQ(cdb_blocks(spec_of(0x12), std::vector<std::uint8_t>(6, 0xFF), 1000), 0U);
}

TEST(CommandTable, AllocationLengthCutsDataIn) {
  std::vector<std::uint8_t> data(100, 0xAA);
  const std::vector<std::uint8_t> inquiry{0x12, 0, 0, 0x00, 36, 0};
  cut_to_allocation_length(spec_of(0x12), inquiry, data);
  EXPECT_EQ(data.size(), 36U);
  std::vector<std::uint8_t> rl(12, 0);
  rl[0] = 0xA0;
  rl[9] = 200;  // more than there is: nothing cut
  cut_to_allocation_length(spec_of(0xA0), rl, data);
  EXPECT_EQ(data.size(), 36U);
  // READ's TRANSFER LENGTH is no allocation length.
  cut_to_allocation_length(spec_of(0x28), testing::rw10(0x28, 0, 1), data);
  EXPECT_EQ(data.size(), 36U);
}

TEST(CommandTable, CdbLengthIsTheTablesAndTheGroupsElsewhere) {
  for (const CommandSpec& s : command_table()) {
    std::vector<std::uint8_t> cdb(16, 0);
    cdb[0] = s.opcode;
    EXPECT_EQ(cdb_length_of(cdb.data()), s.cdb_length) << s.name;
  }
  const auto len = [](std::vector<std::uint8_t> cdb) {
    cdb.resize(16, 0);
    return cdb_length_of(cdb.data());
  };
  EXPECT_EQ(len({0x04}), 6U);                         // FORMAT UNIT, not in the table
  EXPECT_EQ(len({0x5C}), 10U);                        // group 2
  EXPECT_EQ(len({0x9F}), 16U);                        // group 4
  EXPECT_EQ(len({0xB5}), 12U);                        // group 5
  EXPECT_EQ(len({0xE0}), 10U);                        // vendor group 7, as Linux sizes it
  EXPECT_EQ(len({0x7F, 0, 0, 0, 0, 0, 0, 24}), 32U);  // variable length
}

TEST(CommandTable, FaultRangesAreTheMediumAccesses) {
  for (const CommandSpec& s : command_table()) {
    std::vector<std::uint8_t> cdb(s.cdb_length, 0);
    cdb[0] = s.opcode;
    const auto r = block_range(cdb, 1000);
    EXPECT_EQ(r.has_value(), s.media != Media::kNone) << s.name;
    if (r) {
      EXPECT_EQ(r->op, s.media == Media::kWrite ? FaultOp::kWrite : FaultOp::kRead) << s.name;
    }
  }
  const auto r = block_range(testing::rw10(0x2A, 7, 3), 1000);
  ASSERT_TRUE(r);
  EXPECT_EQ(r->lba, 7U);
  EXPECT_EQ(r->blocks, 3U);
  EXPECT_FALSE(block_range(std::vector<std::uint8_t>{0x2A, 0, 0}, 1000));  // too short
}

TEST(AbsentLun, ReportLunsListsTheTargetsCutToTheAllocationLength) {
  const std::uint16_t ids[] = {0, 1, 2};
  std::vector<std::uint8_t> rl(16, 0);
  rl[0] = 0xA0;
  rl[9] = 0xFF;
  AbsentLunAnswer a = absent_lun(ids, rl);
  EXPECT_EQ(a.status, Status::kGood);
  EXPECT_EQ(a.data_in.size(), 8U + 3 * 8);
  rl[9] = 16;
  a = absent_lun(ids, rl);
  EXPECT_EQ(a.data_in.size(), 16U);
  // Without the target's list, REPORT LUNS is one more command for a LUN
  // that is not there.
  a = absent_lun(rl);
  EXPECT_EQ(a.status, Status::kCheckCondition);
  rl[2] = 0x05;  // SELECT REPORT 05h
  a = absent_lun(ids, rl);
  EXPECT_EQ(a.status, Status::kCheckCondition);
  ASSERT_GE(a.sense.size(), 14U);
  EXPECT_EQ(a.sense[12], 0x24);  // INVALID FIELD IN CDB
}

TEST(AbsentLun, InquiryIsCutToTheAllocationLength) {
  const std::uint16_t ids[] = {0};
  const std::vector<std::uint8_t> inquiry{0x12, 0, 0, 0, 5, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0};
  const AbsentLunAnswer a = absent_lun(ids, inquiry);
  EXPECT_EQ(a.status, Status::kGood);
  ASSERT_EQ(a.data_in.size(), 5U);
  EXPECT_EQ(a.data_in[0], 0x7F);
}

}  // namespace
}  // namespace memstore::scsi
