// SPDX-License-Identifier: Apache-2.0
// Sense data in words (host/sense_text.*): decoded from the bytes the
// target's own builder (target/scsi/sense.cc) produces, in fixed and in
// descriptor format, for every reason the device can report.
#include "host/sense_text.h"

#include <gtest/gtest.h>

#include "target/scsi/sense.h"

namespace memstore::host {
namespace {

using scsi::Reason;

constexpr Reason kAllReasons[] = {
    Reason::kNoSense,
    Reason::kInvalidOpcode,
    Reason::kInvalidFieldInCdb,
    Reason::kInvalidFieldInParamList,
    Reason::kParamListLengthError,
    Reason::kLbaOutOfRange,
    Reason::kLunNotSupported,
    Reason::kSavingNotSupported,
    Reason::kNotParallelAccessible,
    Reason::kInsufficientResources,
    Reason::kMiscompare,
    Reason::kWriteError,
    Reason::kReadError,
    Reason::kInternalFailure,
    Reason::kPowerOnReset,
    Reason::kModeParametersChanged,
    Reason::kAccessDenied,
};

TEST(SenseText, EveryReasonTheDeviceProducesHasAName) {
  for (const Reason r : kAllReasons) {
    const scsi::SenseCode code = scsi::code_of(r);
    for (const bool descriptor : {false, true}) {
      const auto bytes = scsi::build_sense({r, std::nullopt, std::nullopt}, descriptor);
      const auto s = decode_sense(bytes);
      ASSERT_TRUE(s);
      EXPECT_EQ(s->descriptor_format, descriptor);
      EXPECT_EQ(s->key, static_cast<std::uint8_t>(code.key));
      EXPECT_EQ(s->asc, code.asc);
      EXPECT_EQ(s->ascq, code.ascq);
      EXPECT_EQ(asc_name(s->asc, s->ascq).rfind("ASC ", 0), std::string::npos)
          << "no name for " << int(code.asc) << "/" << int(code.ascq);
    }
  }
}

TEST(SenseText, FieldPointerInParameterListBothFormats) {
  const scsi::Sense sense = scsi::Sense::param(Reason::kInvalidFieldInParamList, 28);
  for (const bool descriptor : {false, true}) {
    const auto s = decode_sense(scsi::build_sense(sense, descriptor));
    ASSERT_TRUE(s);
    ASSERT_TRUE(s->field);
    EXPECT_EQ(*s->field, (SenseFieldPointer{false, 28, -1}));
    EXPECT_EQ(describe(*s),
              "ILLEGAL REQUEST: INVALID FIELD IN PARAMETER LIST (26h/00h) at parameter list byte "
              "28");
  }
}

TEST(SenseText, FieldPointerInCdbWithBit) {
  const auto s =
      decode_sense(scsi::build_sense(scsi::Sense::cdb(Reason::kInvalidFieldInCdb, 2, 5), false));
  ASSERT_TRUE(s);
  EXPECT_EQ(describe(*s), "ILLEGAL REQUEST: INVALID FIELD IN CDB (24h/00h) at CDB byte 2 bit 5");
}

TEST(SenseText, InformationIsTheLbaBothFormats) {
  const scsi::Sense sense{Reason::kLbaOutOfRange, std::nullopt, 6'750'000};
  for (const bool descriptor : {false, true}) {
    const auto s = decode_sense(scsi::build_sense(sense, descriptor));
    ASSERT_TRUE(s);
    ASSERT_TRUE(s->information);
    EXPECT_EQ(*s->information, 6'750'000u);
    EXPECT_EQ(describe(*s),
              "ILLEGAL REQUEST: LOGICAL BLOCK ADDRESS OUT OF RANGE (21h/00h), information 6750000");
  }
}

TEST(SenseText, VendorBatchNotParallelAccessibleInWords) {
  const auto s = decode_sense(scsi::build_sense({Reason::kNotParallelAccessible, {}, {}}, false));
  ASSERT_TRUE(s);
  EXPECT_EQ(s->asc, 0x26);
  EXPECT_EQ(s->ascq, 0x80);
  EXPECT_NE(describe(*s).find("BATCH NOT PARALLEL-ACCESSIBLE"), std::string::npos);
  EXPECT_NE(describe(*s).find("(26h/80h)"), std::string::npos);
}

TEST(SenseText, UnknownPairIsSpelledInHex) {
  EXPECT_EQ(asc_name(0x4B, 0x02), "ASC 4Bh ASCQ 02h");
  EXPECT_STREQ(sense_key_name(0xE), "MISCOMPARE");
  EXPECT_STREQ(sense_key_name(0xC), "RESERVED");
}

TEST(SenseText, FieldPointerOnlyForIllegalRequest) {
  // NOT READY's sense-key specific bytes are a progress indication.
  std::vector<std::uint8_t> b(18, 0);
  b[0] = 0x70;
  b[2] = 0x2;
  b[7] = 10;
  b[12] = 0x04;
  b[15] = 0x80;
  b[16] = 0x12;
  const auto s = decode_sense(b);
  ASSERT_TRUE(s);
  EXPECT_FALSE(s->field);
  EXPECT_EQ(describe(*s), "NOT READY: LOGICAL UNIT NOT READY, CAUSE NOT REPORTABLE (04h/00h)");
}

TEST(SenseText, MalformedSenseIsRefusedOrCutShort) {
  EXPECT_FALSE(decode_sense({}));
  EXPECT_FALSE(decode_sense(std::vector<std::uint8_t>{0x00, 0x00, 0x05}));  // not 70h-73h
  EXPECT_FALSE(decode_sense(std::vector<std::uint8_t>{0x70, 0x00}));
  // A fixed-format header whose additional length stops before the ASC.
  std::vector<std::uint8_t> short_fixed = {0x70, 0, 0x05, 0, 0, 0, 0, 0};
  const auto s = decode_sense(short_fixed);
  ASSERT_TRUE(s);
  EXPECT_EQ(s->key, 5);
  EXPECT_EQ(s->asc, 0);
  // A descriptor whose length runs past the data is ignored.
  std::vector<std::uint8_t> desc = {0x72, 0x05, 0x24, 0x00, 0, 0, 0, 8, 0x02, 0x20, 0x80, 0, 0, 0};
  const auto d = decode_sense(desc);
  ASSERT_TRUE(d);
  EXPECT_FALSE(d->field);
  EXPECT_EQ(d->asc, 0x24);
}

TEST(SenseText, DeferredErrorsAreMarked) {
  auto b = scsi::build_sense({Reason::kWriteError, {}, {}}, false);
  b[0] = 0x71;
  const auto s = decode_sense(b);
  ASSERT_TRUE(s);
  EXPECT_TRUE(s->deferred);
  EXPECT_EQ(describe(*s), "MEDIUM ERROR: WRITE ERROR (0Ch/00h) (deferred error)");
}

}  // namespace
}  // namespace memstore::host
