// SPDX-License-Identifier: Apache-2.0
// Fault injection seen from a real initiator (libiscsi, through the host
// library's transport): for every action, the exact status, sense and
// INFORMATION, against the LUNs faults_test.sh configures, one rule each.
// MEMSTORE_FAULTS_TARGET is the target's URL without the LUN
// ("iscsi://127.0.0.1:PORT/iqn..."); MEMSTORE_FAULTS_PATTERN, when set, is
// where the seeded rule's firing pattern is written for the script to
// compare across runs.
#include <gtest/gtest.h>

#include <chrono>
#include <cstdlib>
#include <fstream>

#include "host/transport.h"

namespace memstore::host {
namespace {

// The LUNs of faults_test.sh, one per action.
enum Lun : int {
  kMediumError = 0,
  kSense = 1,
  kDelay = 2,
  kTimeout = 3,
  kBusy = 4,
  kTaskSetFull = 5,
  kConflict = 6,
  kUnitAttention = 7,
  kSpaceExhausted = 8,
  kFailedTip = 9,
  kMediaRegion = 10,
  kSeededA = 11,
  kSeededB = 12,
  kDropConnection = 13,
  kSlowSeek = 14,
  kWithholdR2t = 15,
};

std::unique_ptr<Transport> open(int lun, int timeout_s = 30) {
  const char* target = std::getenv("MEMSTORE_FAULTS_TARGET");
  if (target == nullptr) ADD_FAILURE() << "MEMSTORE_FAULTS_TARGET is not set";
  TransportOptions o;
  o.timeout_s = timeout_s;
  o.initiator_name = "iqn.2026-11.org.memstore:faults-test";
  auto t = open_transport(std::string(target) + "/" + std::to_string(lun), o);
  if (!t.ok()) ADD_FAILURE() << t.error().message;
  return std::move(t).value();
}

Bytes rw16(std::uint8_t op, std::uint64_t lba, std::uint32_t blocks) {
  Bytes cdb(16, 0);
  cdb[0] = op;
  for (int i = 0; i < 8; ++i) cdb[2 + i] = static_cast<std::uint8_t>(lba >> (56 - 8 * i));
  for (int i = 0; i < 4; ++i) cdb[10 + i] = static_cast<std::uint8_t>(blocks >> (24 - 8 * i));
  return cdb;
}

Result<ScsiResponse> read16(Transport& t, std::uint64_t lba, std::uint32_t blocks) {
  const Bytes cdb = rw16(0x88, lba, blocks);
  return t.execute({cdb, DataDirection::kIn, {}, blocks * 512});
}

Result<ScsiResponse> write16(Transport& t, std::uint64_t lba, std::uint32_t blocks) {
  const Bytes cdb = rw16(0x8A, lba, blocks);
  const Bytes data(blocks * 512, 0x5A);
  return t.execute({cdb, DataDirection::kOut, data, 0});
}

Result<ScsiResponse> test_unit_ready(Transport& t) {
  const Bytes cdb(6, 0);
  return t.execute({cdb, DataDirection::kNone, {}, 0});
}

// Sense key, ASC, ASCQ, of fixed (70h) or descriptor (72h) sense.
std::vector<int> kcq(const ScsiResponse& r) {
  const Bytes& s = r.sense;
  if (s.size() >= 14 && (s[0] & 0x7F) == 0x70) return {s[2] & 0x0F, s[12], s[13]};
  if (s.size() >= 4 && (s[0] & 0x7F) == 0x72) return {s[1] & 0x0F, s[2], s[3]};
  return {};
}

// INFORMATION: fixed format when VALID, or the information descriptor.
std::optional<std::uint64_t> information(const ScsiResponse& r) {
  const Bytes& s = r.sense;
  if (s.size() >= 7 && s[0] == 0xF0) {
    return (std::uint64_t{s[3]} << 24) | (s[4] << 16) | (s[5] << 8) | s[6];
  }
  if (s.size() >= 8 && (s[0] & 0x7F) == 0x72) {
    for (std::size_t at = 8; at + 12 <= s.size(); at += 2 + s[at + 1]) {
      if (s[at] != 0x00 || (s[at + 2] & 0x80) == 0) continue;
      std::uint64_t v = 0;
      for (int i = 0; i < 8; ++i) v = (v << 8) | s[at + 4 + static_cast<std::size_t>(i)];
      return v;
    }
  }
  return std::nullopt;
}

// Sets D_SENSE in the Control mode page (SPC-4 §7.5.8): MODE SENSE(6) of
// page 0Ah, then MODE SELECT(6) of it with the bit set.
void descriptor_sense(Transport& t) {
  const Bytes sense_cdb = {0x1A, 0x08, 0x0A, 0, 255, 0};
  auto got = t.execute({sense_cdb, DataDirection::kIn, {}, 255});
  ASSERT_TRUE(got.ok() && got->status == kStatusGood);
  Bytes page(got->data_in.begin() + 4, got->data_in.end());  // after the mode header
  page[0] &= 0x3F;                                           // PS is reserved in MODE SELECT
  page[2] |= 0x04;                                           // D_SENSE
  Bytes data = {0, 0, 0, 0};
  data.insert(data.end(), page.begin(), page.end());
  const Bytes select = {0x15, 0x10, 0, 0, static_cast<std::uint8_t>(data.size()), 0};
  auto set = t.execute({select, DataDirection::kOut, data, 0});
  ASSERT_TRUE(set.ok());
  ASSERT_EQ(set->status, kStatusGood) << "MODE SELECT of D_SENSE";
}

TEST(Faults, MediumErrorNamesTheFirstBadLbaInBothSenseFormats) {
  auto t = open(kMediumError);
  auto r = read16(*t, 996, 8);
  ASSERT_TRUE(r.ok());
  EXPECT_EQ(r->status, kStatusCheckCondition);
  EXPECT_EQ(kcq(*r), (std::vector<int>{3, 0x11, 0}));
  EXPECT_EQ(information(*r), 1000U);
  EXPECT_EQ(read16(*t, 990, 8)->status, kStatusGood);
  descriptor_sense(*t);
  r = read16(*t, 1003, 2);
  ASSERT_TRUE(r.ok());
  EXPECT_EQ(r->sense.at(0), 0x72);
  EXPECT_EQ(kcq(*r), (std::vector<int>{3, 0x11, 0}));
  EXPECT_EQ(information(*r), 1003U);
}

TEST(Faults, SenseCarriesTheRulesCode) {
  auto t = open(kSense);
  auto r = write16(*t, 0, 1);
  ASSERT_TRUE(r.ok());
  EXPECT_EQ(r->status, kStatusCheckCondition);
  EXPECT_EQ(kcq(*r), (std::vector<int>{4, 0x44, 0}));
  EXPECT_EQ(read16(*t, 0, 1)->status, kStatusGood);  // the rule is for writes
}

TEST(Faults, DelayIsAddedToTheModeledTime) {
  auto t = open(kDelay);
  const auto start = std::chrono::steady_clock::now();
  ASSERT_EQ(read16(*t, 0, 8)->status, kStatusGood);
  const auto took = std::chrono::steady_clock::now() - start;
  EXPECT_GE(took, std::chrono::milliseconds(200));
  EXPECT_LT(took, std::chrono::milliseconds(2000));
}

TEST(Faults, TimeoutNeverAnswersAndTheLunServesAfterwards) {
  {
    auto t = open(kTimeout, 2);
    auto r = read16(*t, 0, 1);
    ASSERT_FALSE(r.ok());
    // libiscsi's own command timeout, or the transport's wait.
    const std::string& m = r.error().message;
    EXPECT_TRUE(m.find("timed out") != std::string::npos ||
                m.find("no answer") != std::string::npos)
        << m;
  }
  auto again = open(kTimeout);
  EXPECT_EQ(test_unit_ready(*again)->status, kStatusGood);
}

TEST(Faults, StatusActions) {
  const std::pair<int, std::uint8_t> cases[] = {
      {kBusy, 0x08}, {kTaskSetFull, 0x28}, {kConflict, 0x18}};
  for (const auto& [lun, status] : cases) {
    auto t = open(lun);
    auto r = write16(*t, 5, 1);
    ASSERT_TRUE(r.ok());
    EXPECT_EQ(r->status, status) << "LUN " << lun;
    EXPECT_TRUE(r->sense.empty());
  }
}

// The rule is on READ CAPACITY(10): libiscsi's login sends a TEST UNIT
// READY of its own, which would take a TEST UNIT READY rule's one firing.
TEST(Faults, UnitAttentionIsReportedOnce) {
  auto t = open(kUnitAttention);
  const Bytes capacity = {0x25, 0, 0, 0, 0, 0, 0, 0, 0, 0};
  auto r = t->execute({capacity, DataDirection::kIn, {}, 8});
  ASSERT_TRUE(r.ok());
  EXPECT_EQ(r->status, kStatusCheckCondition);
  EXPECT_EQ(kcq(*r), (std::vector<int>{6, 0x2A, 0x09}));
  EXPECT_EQ(test_unit_ready(*t)->status, kStatusGood);  // reported, so cleared
  EXPECT_EQ(t->execute({capacity, DataDirection::kIn, {}, 8})->status, kStatusGood);
}

TEST(Faults, SpaceExhaustedIsDataProtect) {
  auto t = open(kSpaceExhausted);
  auto r = write16(*t, 77, 2);
  ASSERT_TRUE(r.ok());
  EXPECT_EQ(kcq(*r), (std::vector<int>{7, 0x27, 0x07}));
  EXPECT_EQ(information(*r), 77U);
}

TEST(Faults, FailedTipFailsItsBlocksOnly) {
  auto t = open(kFailedTip);
  auto r = read16(*t, 0, 8);  // LBNs 0..7 lie on tips 0..7 (the first row of squares)
  ASSERT_TRUE(r.ok());
  EXPECT_EQ(kcq(*r), (std::vector<int>{3, 0x11, 0}));
  EXPECT_EQ(information(*r), 3U);
  EXPECT_EQ(read16(*t, 4, 4)->status, kStatusGood);
  auto w = write16(*t, 3, 1);
  EXPECT_EQ(kcq(*w), (std::vector<int>{3, 0x0C, 0}));
}

TEST(Faults, MediaRegionFailsTheBlocksInIt) {
  auto t = open(kMediaRegion);
  auto r = read16(*t, 0, 4);  // x = 0, y = 0 is LBN 0 (model/geometry.h)
  ASSERT_TRUE(r.ok());
  EXPECT_EQ(kcq(*r), (std::vector<int>{3, 0x11, 0}));
  EXPECT_EQ(information(*r), 0U);
  EXPECT_EQ(read16(*t, 1, 8)->status, kStatusGood);
}

// The connection ends with no response; libiscsi either reports the lost
// connection or logs in again and retries. Either way the LUN serves a new
// session, and the rule fired once (faults_test.sh reads its count).
TEST(Faults, DropConnectionEndsTheConnection) {
  {
    auto t = open(kDropConnection, 5);
    auto r = write16(*t, 9, 1);
    if (!r.ok()) {
      EXPECT_FALSE(r.error().message.empty());
    }
  }
  auto again = open(kDropConnection);
  auto r = read16(*again, 9, 1);
  ASSERT_TRUE(r.ok());
  EXPECT_EQ(r->status, kStatusGood);
  EXPECT_EQ(r->data_in, Bytes(512, 0x5A));  // the write took effect
}

// Every positioning of LUN 14's sled takes 100 times as long: a seek across
// the G2 (about 0.5 ms healthy) takes tens of ms, and the data is intact.
TEST(Faults, SlowSeekDelaysTheCommandsThatSeek) {
  auto t = open(kSlowSeek);
  ASSERT_EQ(write16(*t, 3'000'123, 1)->status, kStatusGood);
  ASSERT_EQ(read16(*t, 0, 1)->status, kStatusGood);
  const auto start = std::chrono::steady_clock::now();
  auto r = read16(*t, 3'000'123, 1);
  const auto took = std::chrono::steady_clock::now() - start;
  ASSERT_TRUE(r.ok());
  EXPECT_EQ(r->status, kStatusGood);
  EXPECT_EQ(r->data_in, Bytes(512, 0x5A));
  EXPECT_GE(took, std::chrono::milliseconds(30));
}

// A 1 MiB WRITE needs R2Ts whatever FirstBurstLength libiscsi negotiates;
// in the rule's range none comes, the command times out, and the LUN then
// serves a new session, writes outside the range included.
TEST(Faults, WithholdR2tLeavesTheWriteWaiting) {
  {
    auto t = open(kWithholdR2t, 3);
    const auto start = std::chrono::steady_clock::now();
    auto r = write16(*t, 2000, 2048);
    EXPECT_FALSE(r.ok() && r->status == kStatusGood) << "the write was served";
    EXPECT_GE(std::chrono::steady_clock::now() - start, std::chrono::seconds(2));
  }
  auto again = open(kWithholdR2t);
  EXPECT_EQ(test_unit_ready(*again)->status, kStatusGood);
  auto w = write16(*again, 5000, 2048);
  ASSERT_TRUE(w.ok());
  EXPECT_EQ(w->status, kStatusGood);
}

std::string pattern(int lun) {
  auto t = open(lun);
  std::string p;
  for (int i = 0; i < 64; ++i) {
    auto r = read16(*t, static_cast<std::uint64_t>(i) * 8, 1);
    p += r.ok() && r->status == 0x08 ? 'B' : '.';
  }
  return p;
}

TEST(Faults, TheSameSeedFiresOnTheSameCommands) {
  const std::string a = pattern(kSeededA);
  EXPECT_EQ(a, pattern(kSeededB));
  EXPECT_NE(a.find('B'), std::string::npos);
  EXPECT_NE(a.find('.'), std::string::npos);
  if (const char* out = std::getenv("MEMSTORE_FAULTS_PATTERN")) std::ofstream(out) << a << "\n";
}

}  // namespace
}  // namespace memstore::host
