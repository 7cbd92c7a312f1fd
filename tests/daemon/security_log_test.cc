// SPDX-License-Identifier: Apache-2.0
// memstored's log of refused logins (target/daemon/security_log.h): what a
// line says, and the rate limit per kind with its "suppressed" summary.
#include "target/daemon/security_log.h"

#include <gmock/gmock.h>
#include <gtest/gtest.h>

namespace memstore::daemon {
namespace {

using ::testing::HasSubstr;

iscsi::SecurityEvent event(iscsi::LoginStatus status, std::string_view initiator = "iqn.x:i") {
  return {iscsi::security_kind(status),
          status,
          initiator,
          "127.0.0.1:40000",
          "iqn.2026-11.org.memstore:t",
          "wrong CHAP response"};
}

TEST(SecurityLog, ALineNamesKindStatusInitiatorPeerTargetAndReason) {
  EXPECT_EQ(describe(event(iscsi::kAuthenticationFailure)),
            "CHAP: login refused (status 0201): initiator 'iqn.x:i' from 127.0.0.1:40000, target "
            "'iqn.2026-11.org.memstore:t': wrong CHAP response");
  iscsi::SecurityEvent acl = event(iscsi::kAuthorizationFailure, "iqn.x:evil\r\nforged");
  acl.reason = "initiator not in the ACL";
  EXPECT_EQ(describe(acl),
            "ACL: login refused (status 0202): initiator 'iqn.x:evil\\x0d\\x0aforged' from "
            "127.0.0.1:40000, target 'iqn.2026-11.org.memstore:t': initiator not in the ACL");
  iscsi::SecurityEvent none = event(iscsi::kMissingParameter, "");
  none.target = "";
  EXPECT_THAT(describe(none), HasSubstr("login: login refused (status 0207): initiator (no "
                                        "InitiatorName) from 127.0.0.1:40000, discovery or no "
                                        "target"));
}

TEST(SecurityLog, EachKindIsLimitedOnItsOwnAndSaysWhatItDropped) {
  std::vector<std::string> lines;
  std::int64_t now = 0;
  const iscsi::SecurityLog log = make_security_log(
      2, [&](const std::string& l) { lines.push_back(l); }, [&] { return now; });
  for (int i = 0; i < 100; ++i) log(event(iscsi::kAuthenticationFailure));
  log(event(iscsi::kAuthorizationFailure));  // another kind: its own budget
  log(event(iscsi::kTargetNotFound));
  ASSERT_EQ(lines.size(), 4u);
  EXPECT_THAT(lines[0], HasSubstr("CHAP: login refused"));
  EXPECT_THAT(lines[1], HasSubstr("CHAP: login refused"));
  EXPECT_THAT(lines[2], HasSubstr("ACL: login refused"));
  EXPECT_THAT(lines[3], HasSubstr("login: login refused (status 0203)"));
  now += 1'000'000'000;
  log(event(iscsi::kAuthenticationFailure));
  ASSERT_EQ(lines.size(), 6u);
  EXPECT_EQ(lines[4], "CHAP: suppressed 98 messages (more than 2 refused logins per second)");
  EXPECT_THAT(lines[5], HasSubstr("CHAP: login refused"));
}

}  // namespace
}  // namespace memstore::daemon
