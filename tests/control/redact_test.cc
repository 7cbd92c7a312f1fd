// SPDX-License-Identifier: Apache-2.0
// Secrets kept out of the daemon's log (target/control/redact.h).
#include "target/control/redact.h"

#include <gmock/gmock.h>
#include <gtest/gtest.h>

namespace memstore::control {
namespace {

using ::testing::HasSubstr;
using ::testing::Not;

TEST(Redact, ATargetAddsChapSecretsAreReplacedAndTheRestKeptInOrder) {
  const std::string line =
      R"({"cmd":"target-add","config":{"name":"iqn.2026-11.org.example:t","chap":)"
      R"({"user":"alice","secret":"alice-secret-123","mutual_user":"tgt",)"
      R"("mutual_secret":"target-secret-890"},"lun":[{"id":0,"backing":"memory"}]}})"
      "\n";
  EXPECT_EQ(redacted_line(line, 1000),
            R"({"cmd":"target-add","config":{"name":"iqn.2026-11.org.example:t","chap":)"
            R"({"user":"alice","secret":"***","mutual_user":"tgt","mutual_secret":"***"},)"
            R"("lun":[{"id":0,"backing":"memory"}]}})");
}

TEST(Redact, SecretsInsideArraysAndOfEveryTypeAreReplaced) {
  const auto v = redact_secrets(nlohmann::ordered_json::parse(
      R"([{"discovery":{"chap":{"secret":["a","list-secret-1"]}}},{"x_secret":12345678901}])"));
  EXPECT_EQ(v.dump(), R"([{"discovery":{"chap":{"secret":"***"}}},{"x_secret":"***"}])");
}

TEST(Redact, ALineThatIsNotJsonIsNotShown) {
  EXPECT_EQ(redacted_line(R"({"cmd":"target-add","secret":"half-a-req)", 1000), "(not JSON)");
}

TEST(Redact, TheCutComesAfterTheRedaction) {
  const std::string secret(400, 's');
  const std::string shown = redacted_line(R"({"chap":{"secret":")" + secret + R"("}})", 20);
  EXPECT_EQ(shown, R"({"chap":{"secret":"*)");
  EXPECT_THAT(redacted_line(
                  R"({"a":")" + std::string(300, 'a') + R"(","secret":")" + secret + R"("})", 300),
              Not(HasSubstr("sss")));
}

TEST(Redact, OnlyKeysEndingInSecretAreSecrets) {
  EXPECT_TRUE(is_secret_key("secret"));
  EXPECT_TRUE(is_secret_key("mutual_secret"));
  EXPECT_FALSE(is_secret_key("user"));
  EXPECT_FALSE(is_secret_key("secret_rotation"));
}

}  // namespace
}  // namespace memstore::control
