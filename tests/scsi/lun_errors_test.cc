// SPDX-License-Identifier: Apache-2.0
// Malformed CDBs against the expected sense: one row per error path.
#include <gmock/gmock.h>

#include <cctype>
#include <ostream>
#include <string>

#include "tests/scsi/lun_fixture.h"

namespace memstore::scsi {
namespace {

using ::testing::ElementsAreArray;
using testing::LunTest;

struct Row {
  const char* what;
  std::vector<std::uint8_t> cdb;
  std::vector<int> kcq;    // sense key, ASC, ASCQ
  std::vector<int> field;  // C/D, bit (-1 none), byte; empty: no field pointer
};

class MalformedCdb : public LunTest, public ::testing::WithParamInterface<Row> {};

// G2: 6,750,000 blocks, last LBA 0x66FF2F.
const Row kRows[] = {
    {"unknown opcode", {0xC0}, {5, 0x20, 0}, {1, 7, 0}},
    {"unknown service action of 9Eh", {0x9E, 0x11}, {5, 0x24, 0}, {1, 4, 1}},
    {"reserved bit in TEST UNIT READY", {0x00, 0x01}, {5, 0x24, 0}, {1, 0, 1}},
    {"NACA in CONTROL", {0x00, 0, 0, 0, 0, 0x04}, {5, 0x24, 0}, {1, 2, 5}},
    {"RDPROTECT in READ(10)", {0x28, 0x20, 0, 0, 0, 0, 0, 0, 1}, {5, 0x24, 0}, {1, 5, 1}},
    {"READ(10) past the end", {0x28, 0, 0x00, 0x66, 0xFF, 0x30, 0, 0, 1}, {5, 0x21, 0}, {}},
    {"READ(10) crossing the end", {0x28, 0, 0x00, 0x66, 0xFF, 0x2F, 0, 0, 2}, {5, 0x21, 0}, {}},
    {"READ(16) LBA overflow",
     {0x88, 0, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0, 0, 0, 1},
     {5, 0x21, 0},
     {}},
    {"READ(16) beyond max transfer",
     {0x88, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 1, 0, 1},
     {5, 0x24, 0},
     {1, -1, 10}},
    {"INQUIRY page code without EVPD", {0x12, 0, 0x80, 0, 0xFF}, {5, 0x24, 0}, {1, -1, 2}},
    {"INQUIRY unsupported VPD page", {0x12, 1, 0x99, 0, 0xFF}, {5, 0x24, 0}, {1, -1, 2}},
    {"READ CAPACITY(10) LBA without PMI", {0x25, 0, 0, 0, 0, 1}, {5, 0x24, 0}, {1, -1, 2}},
    {"MODE SENSE unsupported page", {0x1A, 0, 0x05, 0, 0xFF}, {5, 0x24, 0}, {1, 5, 2}},
    {"LOG SENSE unsupported page", {0x4D, 0, 0x3E, 0, 0, 0, 0, 0x10, 0}, {5, 0x24, 0}, {1, 5, 2}},
    {"LOG SENSE SP bit", {0x4D, 0x01, 0x00, 0, 0, 0, 0, 0x10, 0}, {5, 0x24, 0}, {1, 0, 1}},
    {"REPORT LUNS bad select", {0xA0, 0, 0x05, 0, 0, 0, 0, 0, 0x10, 0}, {5, 0x24, 0}, {1, 7, 2}},
    {"WRITE SAME(10) zero blocks (WSNZ)", {0x41, 0, 0, 0, 0, 0, 0, 0, 0}, {5, 0x24, 0}, {1, -1, 7}},
    {"WRITE BUFFER microcode mode", {0x3B, 0x05, 0, 0, 0, 0, 0, 0, 0}, {5, 0x24, 0}, {1, 4, 1}},
    {"READ BUFFER unknown batch id",
     {0x3C, 0x01, 0x07, 0, 0, 0, 0, 0x10, 0},
     {5, 0x24, 0},
     {1, -1, 2}},
    {"START STOP UNIT LOEJ", {0x1B, 0, 0, 0, 0x02}, {5, 0x24, 0}, {1, 1, 4}},
    {"COMPARE AND WRITE too long", {0x89, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0}, {}, {}},
};

TEST_P(MalformedCdb, GivesTheRightSense) {
  const Row& row = GetParam();
  const ScsiResult r = run(row.cdb);
  if (row.kcq.empty()) {
    EXPECT_EQ(r.status, Status::kGood) << row.what;
    return;
  }
  ASSERT_EQ(r.status, Status::kCheckCondition) << row.what;
  EXPECT_THAT(kcq(r), ElementsAreArray(row.kcq)) << row.what;
  EXPECT_THAT(field(r), ElementsAreArray(row.field)) << row.what;
}

void PrintTo(const Row& r, std::ostream* os) {
  *os << r.what;
}

std::string row_name(const ::testing::TestParamInfo<Row>& info) {
  std::string name;
  for (const char* c = info.param.what; *c != '\0'; ++c) {
    name += std::isalnum(static_cast<unsigned char>(*c)) ? *c : '_';
  }
  return name;
}

INSTANTIATE_TEST_SUITE_P(Table, MalformedCdb, ::testing::ValuesIn(kRows), row_name);

TEST_F(LunTest, OutOfRangeReadCarriesTheLbaInInformation) {
  const ScsiResult r = run({0x28, 0, 0x00, 0x66, 0xFF, 0x30, 0, 0, 1});
  ASSERT_EQ(r.sense.size(), 18u);
  EXPECT_EQ(r.sense[0], 0xF0);  // VALID, current, fixed
  EXPECT_THAT(std::vector<int>(r.sense.begin() + 3, r.sense.begin() + 7),
              ElementsAreArray({0x00, 0x66, 0xFF, 0x30}));
}

TEST_F(LunTest, DescriptorSenseWhenControlPageAsksForIt) {
  // MODE SELECT(6) of the Control page with D_SENSE (byte 2 bit 2) set.
  std::vector<std::uint8_t> list = {0, 0, 0, 0, 0x0A, 0x0A, 0x04, 0, 0, 0, 0, 0, 0xFF, 0xFF, 0, 0};
  const ScsiResult current = run({0x1A, 0x08, 0x0A, 0, 0xFF});
  ASSERT_EQ(current.status, Status::kGood);
  // Take the page as the LUN reports it and flip D_SENSE.
  list.assign(current.data_in.begin(), current.data_in.end());
  list[0] = 0;      // MODE DATA LENGTH is reserved in MODE SELECT
  list[2] = 0;      // so is the device-specific parameter (SBC-3 §6.4.1)
  list[4] &= 0x7F;  // PS is reserved in MODE SELECT
  list[4 + 2] |= 0x04;
  const ScsiResult sel = run({0x15, 0x10, 0, 0, static_cast<std::uint8_t>(list.size())}, list);
  ASSERT_EQ(sel.status, Status::kGood) << ::testing::PrintToString(sel.sense);
  const ScsiResult r = run({0x00, 0x01});
  ASSERT_EQ(r.status, Status::kCheckCondition);
  ASSERT_GE(r.sense.size(), 16u);
  EXPECT_EQ(r.sense[0], 0x72);
  EXPECT_EQ(r.sense[1], 0x05);
  EXPECT_EQ(r.sense[2], 0x24);
  EXPECT_EQ(r.sense[7], 8);      // one sense-key specific descriptor
  EXPECT_EQ(r.sense[8], 0x02);   // its type
  EXPECT_EQ(r.sense[12], 0xC8);  // SKSV, C/D, BPV, bit 0
  EXPECT_EQ(r.sense[14], 1);     // byte 1
}

}  // namespace
}  // namespace memstore::scsi
