// SPDX-License-Identifier: Apache-2.0
// data_out_length(): the transport's bound on a command's data-out, against
// the command table (every command that moves data out has its field) and
// against what the LUN itself consumes.
#include "target/scsi/data_out_length.h"

#include <gtest/gtest.h>

#include "target/scsi/command_table.h"
#include "tests/scsi/cdb_builders.h"
#include "tests/scsi/lun_fixture.h"

namespace memstore::scsi {
namespace {

using testing::LunTest;

constexpr std::uint32_t kBs = 512;

// A CDB of the spec's length with every field byte 01h: a non-zero
// transfer length wherever the command keeps one.
std::vector<std::uint8_t> ones(const CommandSpec& spec) {
  std::vector<std::uint8_t> cdb(spec.cdb_length, 0x01);
  cdb[0] = spec.opcode;
  cdb[1] = spec.service_action.value_or(0x02);  // VERIFY: BYTCHK 01b
  return cdb;
}

TEST(DataOutLength, EveryCommandThatMovesDataOutHasItsField) {
  for (const CommandSpec& spec : command_table()) {
    const std::uint64_t n = data_out_length(ones(spec), kBs);
    if (spec.direction == DataDirection::kOut) {
      EXPECT_GT(n, 0U) << spec.name;
    } else {
      EXPECT_EQ(n, 0U) << spec.name;
    }
  }
}

TEST(DataOutLength, FieldsAndUnits) {
  EXPECT_EQ(data_out_length(testing::rw10(0x2A, 0, 8), kBs), 8U * kBs);
  EXPECT_EQ(data_out_length(testing::write16(0, 70000), 4096), 70000ULL * 4096);
  std::vector<std::uint8_t> w6{0x0A, 0, 0, 0, 0, 0};  // 0 blocks: 256
  EXPECT_EQ(data_out_length(w6, kBs), 256U * kBs);
  std::vector<std::uint8_t> caw(16, 0);
  caw[0] = 0x89;
  caw[13] = 2;  // compare and write data: twice the blocks
  EXPECT_EQ(data_out_length(caw, kBs), 4U * kBs);
  std::vector<std::uint8_t> ws16(16, 0);
  ws16[0] = 0x93;
  ws16[13] = 100;
  EXPECT_EQ(data_out_length(ws16, kBs), kBs);
  ws16[1] = 0x01;  // NDOB
  EXPECT_EQ(data_out_length(ws16, kBs), 0U);
  std::vector<std::uint8_t> verify = testing::rw10(0x2F, 0, 8);
  EXPECT_EQ(data_out_length(verify, kBs), 0U);  // BYTCHK 00b: no data
  verify[1] = 0x06;                             // BYTCHK 11b: one block
  EXPECT_EQ(data_out_length(verify, kBs), kBs);
  std::vector<std::uint8_t> wb(10, 0);
  wb[0] = 0x3B;
  wb[6] = 0x01;  // 3-byte parameter list length
  EXPECT_EQ(data_out_length(wb, kBs), 0x10000U);
  EXPECT_EQ(data_out_length(std::vector<std::uint8_t>{0x2A, 0}, kBs), 0U);  // too short
  EXPECT_EQ(data_out_length(std::vector<std::uint8_t>{}, kBs), 0U);
}

// The LUN consumes exactly what the transport computed for it.
class DataOutAgainstLun : public LunTest {};

TEST_F(DataOutAgainstLun, TheLunConsumesWhatTheCdbSays) {
  const std::uint32_t bs = lun->block_size();
  std::vector<std::vector<std::uint8_t>> cdbs{testing::rw10(0x2A, 0, 4), testing::write16(8, 3),
                                              testing::rw10(0x2E, 16, 2)};
  std::vector<std::uint8_t> unmap = testing::rw10(0x42, 0, 0);
  unmap[2] = unmap[3] = unmap[4] = unmap[5] = 0;
  unmap[8] = 24;
  cdbs.push_back(unmap);
  for (auto& cdb : cdbs) {
    const std::uint64_t n = data_out_length(cdb, bs);
    std::vector<std::uint8_t> out(static_cast<std::size_t>(n), 0);
    if (cdb[0] == 0x42) {
      out = {0, 22, 0, 16, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 1, 0, 0, 0, 0};
    }
    const ScsiResult r = run(cdb, out);
    EXPECT_EQ(r.status, Status::kGood) << int{cdb[0]};
    EXPECT_EQ(r.transfer_bytes, n) << int{cdb[0]};
  }
}

}  // namespace
}  // namespace memstore::scsi
