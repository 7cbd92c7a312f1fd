// SPDX-License-Identifier: Apache-2.0
// CHAP (RFC 1994, RFC 7143 §12.1.3): the exchange with a fixed challenge, and
// one test per failure. Expected MD5 values computed with Python's hashlib:
//   md5(bytes([42]) + b"initiatorsecret1" + bytes(range(16)))
//   md5(bytes([7]) + b"targetsecret22" + bytes(range(0xf0, 0x100)))
#include "target/iscsi/chap.h"

#include <gtest/gtest.h>

#include <algorithm>
#include <numeric>

#include "tests/error_text.h"

namespace memstore::iscsi {
namespace {

constexpr char kResponse[] = "0xa5cd4c4cc5e63021e6da5072644eb7bf";
constexpr char kResponseBase64[] = "0bpc1MTMXmMCHm2lByZE63vw==";
constexpr char kMutualChallenge[] = "0xf0f1f2f3f4f5f6f7f8f9fafbfcfdfeff";
constexpr char kMutualChallengeBase64[] = "0b8PHy8/T19vf4+fr7/P3+/w==";
constexpr char kMutualResponse[] = "0xbeb13a4f3bd078a5f92b1c4549c6553e";

// Identifier 42, then the challenge 00 01 .. 0f.
void fixed_random(std::span<std::uint8_t> out) {
  if (out.size() == 1) {
    out[0] = 42;
  } else {
    std::iota(out.begin(), out.end(), std::uint8_t{0});
  }
}

ChapConfig one_way() {
  return {"iqn.1994-05.com.example:host", "initiatorsecret1", {}, {}};
}
ChapConfig mutual() {
  ChapConfig c = one_way();
  c.mutual_user = "iqn.2024-01.org.memstore:disk";
  c.mutual_secret = "targetsecret22";
  return c;
}

ChapAuthenticator started(ChapConfig c) {
  ChapAuthenticator a(std::move(c), fixed_random);
  const ChapStep s = a.step({{"CHAP_A", "7,5"}});
  EXPECT_EQ(s.status, ChapStatus::kContinue);
  EXPECT_EQ(s.keys, (KeyList{{"CHAP_A", "5"},
                             {"CHAP_I", "42"},
                             {"CHAP_C", "0x000102030405060708090a0b0c0d0e0f"}}));
  return a;
}

TEST(ChapTest, KnownMd5Vector) {
  std::vector<std::uint8_t> challenge(16);
  std::iota(challenge.begin(), challenge.end(), std::uint8_t{0});
  EXPECT_EQ(encode_hex(chap_md5_response(42, "initiatorsecret1", challenge)), kResponse);
}

TEST(ChapTest, OneWayExchangeSucceeds) {
  ChapAuthenticator a = started(one_way());
  const ChapStep s = a.step({{"CHAP_N", "iqn.1994-05.com.example:host"}, {"CHAP_R", kResponse}});
  EXPECT_EQ(s.status, ChapStatus::kSuccess) << s.reason;
  EXPECT_TRUE(s.keys.empty());
}

TEST(ChapTest, Base64ResponseAccepted) {
  ChapAuthenticator a = started(one_way());
  const ChapStep s =
      a.step({{"CHAP_N", "iqn.1994-05.com.example:host"}, {"CHAP_R", kResponseBase64}});
  EXPECT_EQ(s.status, ChapStatus::kSuccess) << s.reason;
}

TEST(ChapTest, UppercaseHexAccepted) {
  ChapAuthenticator a = started(one_way());
  const ChapStep s = a.step({{"CHAP_N", "iqn.1994-05.com.example:host"},
                             {"CHAP_R", "0XA5CD4C4CC5E63021E6DA5072644EB7BF"}});
  EXPECT_EQ(s.status, ChapStatus::kSuccess) << s.reason;
}

TEST(ChapTest, WrongResponseFails) {
  ChapAuthenticator a = started(one_way());
  const ChapStep s = a.step({{"CHAP_N", "iqn.1994-05.com.example:host"},
                             {"CHAP_R", "0xa5cd4c4cc5e63021e6da5072644eb7be"}});
  EXPECT_EQ(s.status, ChapStatus::kFailure);
  EXPECT_TRUE(s.keys.empty());
}

TEST(ChapTest, WrongNameFails) {
  ChapAuthenticator a = started(one_way());
  EXPECT_EQ(a.step({{"CHAP_N", "someone-else"}, {"CHAP_R", kResponse}}).status,
            ChapStatus::kFailure);
}

TEST(ChapTest, MissingResponseFails) {
  ChapAuthenticator a = started(one_way());
  EXPECT_EQ(a.step({{"CHAP_N", "iqn.1994-05.com.example:host"}}).status, ChapStatus::kFailure);
}

TEST(ChapTest, NoMd5AlgorithmIsRejected) {
  ChapAuthenticator a(one_way(), fixed_random);
  const ChapStep s = a.step({{"CHAP_A", "6,7"}});
  EXPECT_EQ(s.status, ChapStatus::kFailure);
  EXPECT_EQ(s.keys, (KeyList{{"CHAP_A", "Reject"}}));
}

TEST(ChapTest, ResponseBeforeAlgorithmFails) {
  ChapAuthenticator a(one_way(), fixed_random);
  EXPECT_EQ(a.step({{"CHAP_N", "x"}, {"CHAP_R", kResponse}}).status, ChapStatus::kFailure);
}

TEST(ChapTest, StepAfterSuccessFails) {
  ChapAuthenticator a = started(one_way());
  ASSERT_EQ(a.step({{"CHAP_N", "iqn.1994-05.com.example:host"}, {"CHAP_R", kResponse}}).status,
            ChapStatus::kSuccess);
  EXPECT_EQ(a.step({{"CHAP_A", "5"}}).status, ChapStatus::kFailure);
}

TEST(ChapTest, MutualExchangeProvesTarget) {
  ChapAuthenticator a = started(mutual());
  const ChapStep s = a.step({{"CHAP_N", "iqn.1994-05.com.example:host"},
                             {"CHAP_R", kResponse},
                             {"CHAP_I", "7"},
                             {"CHAP_C", kMutualChallenge}});
  EXPECT_EQ(s.status, ChapStatus::kSuccess) << s.reason;
  EXPECT_EQ(s.keys,
            (KeyList{{"CHAP_N", "iqn.2024-01.org.memstore:disk"}, {"CHAP_R", kMutualResponse}}));
}

TEST(ChapTest, MutualChallengeInBase64) {
  ChapAuthenticator a = started(mutual());
  const ChapStep s = a.step({{"CHAP_N", "iqn.1994-05.com.example:host"},
                             {"CHAP_R", kResponse},
                             {"CHAP_I", "0x07"},
                             {"CHAP_C", kMutualChallengeBase64}});
  ASSERT_EQ(s.status, ChapStatus::kSuccess) << s.reason;
  EXPECT_EQ(s.keys.at(1).second, kMutualResponse);
}

TEST(ChapTest, MutualWithoutTargetSecretFails) {
  ChapAuthenticator a = started(one_way());
  EXPECT_EQ(a.step({{"CHAP_N", "iqn.1994-05.com.example:host"},
                    {"CHAP_R", kResponse},
                    {"CHAP_I", "7"},
                    {"CHAP_C", kMutualChallenge}})
                .status,
            ChapStatus::kFailure);
}

TEST(ChapTest, ReflectedChallengeRefused) {
  ChapAuthenticator a = started(mutual());
  const ChapStep s = a.step({{"CHAP_N", "iqn.1994-05.com.example:host"},
                             {"CHAP_R", kResponse},
                             {"CHAP_I", "42"},
                             {"CHAP_C", "0x000102030405060708090a0b0c0d0e0f"}});
  EXPECT_EQ(s.status, ChapStatus::kFailure);
  EXPECT_TRUE(s.keys.empty());
}

TEST(ChapTest, MutualNeedsBothIdentifierAndChallenge) {
  ChapAuthenticator a = started(mutual());
  EXPECT_EQ(a.step({{"CHAP_N", "iqn.1994-05.com.example:host"},
                    {"CHAP_R", kResponse},
                    {"CHAP_C", kMutualChallenge}})
                .status,
            ChapStatus::kFailure);
}

TEST(ChapTest, MalformedMutualIdentifierFails) {
  ChapAuthenticator a = started(mutual());
  EXPECT_EQ(a.step({{"CHAP_N", "iqn.1994-05.com.example:host"},
                    {"CHAP_R", kResponse},
                    {"CHAP_I", "256"},
                    {"CHAP_C", kMutualChallenge}})
                .status,
            ChapStatus::kFailure);
}

TEST(ChapTest, DecodeBinaryForms) {
  using Bytes = std::vector<std::uint8_t>;
  EXPECT_EQ(decode_binary("0x0aff"), (Bytes{0x0a, 0xff}));
  EXPECT_EQ(decode_binary("0xabc"), (Bytes{0x0a, 0xbc}));  // odd: implied leading zero
  EXPECT_EQ(decode_binary("0bYWI="), (Bytes{'a', 'b'}));
  EXPECT_EQ(decode_binary("0BYQ=="), (Bytes{'a'}));
  EXPECT_EQ(decode_binary("0bYWJj"), (Bytes{'a', 'b', 'c'}));
}

TEST(ChapTest, DecodeBinaryRejectsMalformed) {
  for (const char* bad :
       {"", "0x", "0b", "abcd", "0xzz", "0x12g4", "0bYW", "0bY===", "0b!!!!", "0q1234", "1234"}) {
    EXPECT_FALSE(decode_binary(bad).has_value()) << bad;
  }
}

TEST(ChapTest, MalformedResponseFails) {
  ChapAuthenticator a = started(one_way());
  EXPECT_EQ(a.step({{"CHAP_N", "iqn.1994-05.com.example:host"}, {"CHAP_R", "0xnothex"}}).status,
            ChapStatus::kFailure);
}

TEST(ChapTest, ConfigValidation) {
  EXPECT_TRUE(validate_chap_config(one_way()).ok());
  EXPECT_TRUE(validate_chap_config(mutual()).ok());
  ChapConfig c = one_way();
  c.secret = "short";
  EXPECT_FALSE(validate_chap_config(c).ok());
  c.allow_short_secrets = true;
  EXPECT_TRUE(validate_chap_config(c).ok());
  ChapConfig same = mutual();
  same.mutual_secret = same.secret;  // RFC 7143 §9.2.1
  EXPECT_FALSE(validate_chap_config(same).ok());
  ChapConfig half = one_way();
  half.mutual_user = "t";
  EXPECT_FALSE(validate_chap_config(half).ok());
  EXPECT_FALSE(validate_chap_config(ChapConfig{}).ok());
}

// The mutual secret is held to the same lengths as the initiator's.
TEST(ChapTest, SecretAndNameLengthLimits) {
  ChapConfig c = mutual();
  c.mutual_secret = "short";
  EXPECT_EQ(testing::error_text(validate_chap_config(c)),
            "CHAP secrets must be at least 12 bytes (RFC 7143 section 9.2.1)");
  c.mutual_secret = std::string(kMaxChapSecretBytes, 'm');
  EXPECT_TRUE(validate_chap_config(c).ok());
  c.mutual_secret = std::string(kMaxChapSecretBytes + 1, 'm');
  EXPECT_EQ(testing::error_text(validate_chap_config(c)), "CHAP secrets must be at most 255 bytes");
  c = mutual();
  c.secret = std::string(kMaxChapSecretBytes + 1, 's');
  EXPECT_FALSE(validate_chap_config(c).ok());
  c = mutual();
  c.mutual_user = std::string(kMaxChapNameBytes + 1, 'u');
  EXPECT_FALSE(validate_chap_config(c).ok());
  c = one_way();
  c.user = std::string(kMaxChapNameBytes + 1, 'u');
  EXPECT_FALSE(validate_chap_config(c).ok());
}

TEST(ChapTest, SystemRandomChallengesDiffer) {
  ChapAuthenticator a(one_way());
  ChapAuthenticator b(one_way());
  a.step({{"CHAP_A", "5"}});
  b.step({{"CHAP_A", "5"}});
  ASSERT_EQ(a.challenge().size(), kChapChallengeBytes);
  EXPECT_FALSE(std::equal(a.challenge().begin(), a.challenge().end(), b.challenge().begin()));
}

}  // namespace
}  // namespace memstore::iscsi
