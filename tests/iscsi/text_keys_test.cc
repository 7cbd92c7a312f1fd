// SPDX-License-Identifier: Apache-2.0
// Text data segments (RFC 7143 §6.1) and the value encodings of §5.1/§6.1:
// order kept, one test per parse error, limits, and each value helper.
#include "target/iscsi/text_keys.h"

#include <gtest/gtest.h>

#include <string>
#include <vector>

namespace memstore::iscsi {
namespace {

using Bytes = std::vector<std::uint8_t>;
using Kind = TextError::Kind;

Bytes seg(std::string_view s) {
  return Bytes(s.begin(), s.end());
}

std::vector<TextPair> must(const Expected<std::vector<TextPair>, TextError>& r) {
  if (!r.ok()) {
    ADD_FAILURE() << "parse failed: " << r.error().what;
    return {};
  }
  return *r;
}

void expect_error(const Expected<std::vector<TextPair>, TextError>& r, Kind kind,
                  std::size_t offset, std::string_view key = {}) {
  ASSERT_FALSE(r.ok()) << "parsed without error";
  const TextError& e = r.error();
  EXPECT_EQ(e.kind, kind) << e.what;
  EXPECT_EQ(e.offset, offset) << e.what;
  EXPECT_EQ(e.key, key) << e.what;
  EXPECT_FALSE(e.what.empty());
}

using namespace std::string_view_literals;

TEST(TextParse, KeepsOrderAndValues) {
  const auto pairs = must(parse_text(seg(
      "InitiatorName=iqn.1994-05.com.example:h\0SessionType=Normal\0AuthMethod=None,CHAP\0"sv)));
  ASSERT_EQ(pairs.size(), 3u);
  EXPECT_EQ(pairs[0], (TextPair{"InitiatorName", "iqn.1994-05.com.example:h"}));
  EXPECT_EQ(pairs[1], (TextPair{"SessionType", "Normal"}));
  EXPECT_EQ(pairs[2], (TextPair{"AuthMethod", "None,CHAP"}));
}

TEST(TextParse, EmptySegmentAndEmptyValue) {
  EXPECT_TRUE(must(parse_text({})).empty());
  EXPECT_EQ(must(parse_text(seg("TargetAlias=\0"sv))),
            (std::vector<TextPair>{{"TargetAlias", ""}}));
}

TEST(TextParse, ValueMayContainEquals) {
  EXPECT_EQ(must(parse_text(seg("X-com.example.k=a=b\0"sv))),
            (std::vector<TextPair>{{"X-com.example.k", "a=b"}}));
}

TEST(TextParse, SkipsEmptyEntries) {
  EXPECT_EQ(must(parse_text(seg("\0A=1\0\0B=2\0"sv))).size(), 2u);
}

TEST(TextParse, VendorAndUtf8Values) {
  const auto pairs = must(parse_text(seg("X#org.example_key=\xC3\xA9t\xC3\xA9\0"sv)));
  ASSERT_EQ(pairs.size(), 1u);
  EXPECT_EQ(pairs[0].value, "\xC3\xA9t\xC3\xA9");
}

TEST(TextParse, MissingTerminator) {
  expect_error(parse_text(seg("A=1\0B=2"sv)), Kind::kMissingTerminator, 4);
}

TEST(TextParse, MissingEquals) {
  expect_error(parse_text(seg("A=1\0Bogus\0"sv)), Kind::kMissingEquals, 4);
}

TEST(TextParse, InvalidKeys) {
  expect_error(parse_text(seg("=1\0"sv)), Kind::kInvalidKey, 0, "");
  expect_error(parse_text(seg("Bad Key=1\0"sv)), Kind::kInvalidKey, 0, "Bad Key");
  expect_error(parse_text(seg("K\xC3\xA9y=1\0"sv)), Kind::kInvalidKey, 0, "K\xC3\xA9y");
}

TEST(TextParse, KeyLengthLimit) {
  const std::string ok(63, 'K');
  EXPECT_EQ(must(parse_text(seg(ok + "=1" + '\0'))).size(), 1u);
  const std::string long_key(64, 'K');
  expect_error(parse_text(seg(long_key + "=1" + '\0')), Kind::kKeyTooLong, 0, ok);
}

TEST(TextParse, ValueNotUtf8) {
  for (const std::string_view bad : {"\xFF"sv, "\xC3"sv, "\xC0\x80"sv, "\xED\xA0\x80"sv,
                                     "\xF4\x90\x80\x80"sv, "\xE0\x80\x80"sv}) {
    expect_error(parse_text(seg("A=" + std::string(bad) + '\0')), Kind::kInvalidValue, 0, "A");
  }
}

TEST(TextParse, ValueLengthLimit) {
  const std::string v255(255, 'v');
  EXPECT_EQ(must(parse_text(seg("A=" + v255 + '\0'))).size(), 1u);
  expect_error(parse_text(seg("A=" + v255 + "v" + '\0')), Kind::kValueTooLong, 0, "A");
}

TEST(TextParse, LongValueKeysMayExceed255) {
  const std::string challenge = "0x" + std::string(2048, 'a');
  EXPECT_EQ(must(parse_text(seg("CHAP_C=" + challenge + '\0'))).size(), 1u);
  TextLimits limits;
  limits.max_value_bytes = 4;
  limits.long_value_keys = {};
  expect_error(parse_text(seg("CHAP_C=12345\0"sv), limits), Kind::kValueTooLong, 0, "CHAP_C");
}

TEST(TextParse, SegmentLimit) {
  TextLimits limits;
  const std::string many(limits.max_segment_bytes - 4, 'x');
  Bytes big = seg("CHAP_R=" + many.substr(7 + 1 + 4) + '\0');
  big.resize(limits.max_segment_bytes - 4);
  big.back() = 0;
  EXPECT_EQ(must(parse_text(big, limits)).size(), 1u);
  expect_error(parse_text(Bytes(limits.max_segment_bytes + 1, 'A'), limits), Kind::kSegmentTooLong,
               0);
  limits.max_segment_bytes = 4;
  expect_error(parse_text(seg("A=12\0"sv), limits), Kind::kSegmentTooLong, 0);
}

TEST(TextParse, DuplicateKey) {
  expect_error(parse_text(seg("A=1\0B=2\0A=3\0"sv)), Kind::kDuplicateKey, 8, "A");
}

TEST(TextSerialize, RoundTrip) {
  const std::vector<TextPair> pairs = {
      {"HeaderDigest", "CRC32C,None"}, {"MaxRecvDataSegmentLength", "262144"}, {"TargetAlias", ""}};
  const Bytes bytes = serialize_text(pairs);
  EXPECT_EQ(bytes, seg("HeaderDigest=CRC32C,None\0MaxRecvDataSegmentLength=262144\0"
                       "TargetAlias=\0"sv));
  EXPECT_EQ(must(parse_text(bytes)), pairs);
  EXPECT_TRUE(serialize_text({}).empty());
}

// ---- Values ----

TEST(TextValues, SpecialValues) {
  EXPECT_EQ(special_value_of("Reject"), SpecialValue::kReject);
  EXPECT_EQ(special_value_of("Irrelevant"), SpecialValue::kIrrelevant);
  EXPECT_EQ(special_value_of("NotUnderstood"), SpecialValue::kNotUnderstood);
  EXPECT_EQ(special_value_of("reject"), SpecialValue::kNone);
  EXPECT_EQ(special_value_of(""), SpecialValue::kNone);
}

TEST(TextValues, Numerical) {
  EXPECT_EQ(parse_numerical("0"), 0u);
  EXPECT_EQ(parse_numerical("8192"), 8192u);
  EXPECT_EQ(parse_numerical("18446744073709551615"), UINT64_MAX);
  EXPECT_EQ(parse_numerical("0x2000"), 0x2000u);
  EXPECT_EQ(parse_numerical("0XfF"), 0xFFu);
  EXPECT_EQ(parse_numerical("0x0000000000000000001"), 1u);  // leading zeros in hex are fine
  EXPECT_EQ(parse_numerical("0xFFFFFFFFFFFFFFFF"), UINT64_MAX);
}

TEST(TextValues, NumericalRejects) {
  for (const std::string_view bad :
       {""sv, "18446744073709551616"sv, "0x10000000000000000"sv, "0x"sv, "-1"sv, "+1"sv, "01"sv,
        "1 "sv, "1a"sv, "0xG"sv, "Reject"sv}) {
    EXPECT_EQ(parse_numerical(bad), std::nullopt) << bad;
  }
}

TEST(TextValues, LargeNumerical) {
  EXPECT_EQ(parse_large_numerical("0x0102ff"), (Bytes{0x01, 0x02, 0xFF}));
  EXPECT_EQ(parse_large_numerical("0x102"), (Bytes{0x01, 0x02}));  // implied leading zero
  EXPECT_EQ(parse_large_numerical("0bAQL/"), (Bytes{0x01, 0x02, 0xFF}));
  EXPECT_EQ(parse_large_numerical("0BAQI="), (Bytes{0x01, 0x02}));
  EXPECT_EQ(parse_large_numerical("0bAQ=="), (Bytes{0x01}));
  for (const std::string_view bad :
       {"0x"sv, "0b"sv, "0xZZ"sv, "0bAQ="sv, "0bA*=="sv, "0b===="sv, "1234"sv, ""sv}) {
    EXPECT_EQ(parse_large_numerical(bad), std::nullopt) << bad;
  }
  const Bytes bytes = {0x00, 0xAB, 0x10};
  EXPECT_EQ(format_hex(bytes), "0x00ab10");
  EXPECT_EQ(parse_large_numerical(format_hex(bytes)), bytes);
}

TEST(TextValues, Boolean) {
  EXPECT_EQ(parse_boolean("Yes"), true);
  EXPECT_EQ(parse_boolean("No"), false);
  EXPECT_EQ(parse_boolean("yes"), std::nullopt);
  EXPECT_EQ(parse_boolean(""), std::nullopt);
  EXPECT_EQ(format_boolean(true), "Yes");
  EXPECT_EQ(format_boolean(false), "No");
}

TEST(TextValues, Lists) {
  EXPECT_EQ(split_value_list("CRC32C,None"), (std::vector<std::string_view>{"CRC32C", "None"}));
  EXPECT_EQ(split_value_list("None"), (std::vector<std::string_view>{"None"}));
  EXPECT_EQ(split_value_list("a,,b"), (std::vector<std::string_view>{"a", "", "b"}));
  EXPECT_EQ(split_value_list("a,"), (std::vector<std::string_view>{"a", ""}));
  EXPECT_TRUE(split_value_list("").empty());
  const std::vector<std::string_view> items = {"CHAP", "None"};
  EXPECT_EQ(join_value_list(items), "CHAP,None");
  EXPECT_EQ(join_value_list({}), "");
}

}  // namespace
}  // namespace memstore::iscsi
