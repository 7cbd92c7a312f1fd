// SPDX-License-Identifier: Apache-2.0
// Refused logins are reported to the security log (Session::set_audit) with
// their kind, the initiator's name, its address, the target and the reason;
// successful ones are not.
#include <gtest/gtest.h>

#include "tests/iscsi/session_harness.h"

namespace memstore::iscsi {
namespace {

using testing::kInitiatorName;
using testing::kTargetName;
using testing::SessionTest;

TEST_F(SessionTest, SuccessfulLoginIsNotReported) {
  EXPECT_EQ(login().status_class, 0);
  EXPECT_TRUE(refusals.empty());
}

TEST_F(SessionTest, AclRefusalIsReportedWithNameAndAddress) {
  target_login().security.acl = {"iqn.2026-11.org.memstore.test:someone-else"};
  const LoginResponsePdu r = login();
  EXPECT_EQ(r.status_class, 0x02);
  EXPECT_EQ(r.status_detail, 0x02);
  EXPECT_TRUE(closed);
  ASSERT_EQ(refusals.size(), 1u);
  EXPECT_EQ(refusals[0].kind, SecurityKind::kAcl);
  EXPECT_EQ(refusals[0].status, kAuthorizationFailure);
  EXPECT_EQ(refusals[0].initiator, kInitiatorName);
  EXPECT_EQ(refusals[0].peer, "192.0.2.7:51000");
  EXPECT_EQ(refusals[0].target, kTargetName);
  EXPECT_EQ(refusals[0].reason, "initiator not in the ACL");
}

TEST_F(SessionTest, ChapRefusalIsReportedAsChap) {
  target_login().security.chap = ChapConfig{"alice", "alice-secret-123", {}, {}};
  // Skipping the security stage when CHAP is required.
  const LoginResponsePdu r = login();
  EXPECT_EQ(r.status_class, 0x02);
  EXPECT_EQ(r.status_detail, 0x01);
  ASSERT_EQ(refusals.size(), 1u);
  EXPECT_EQ(refusals[0].kind, SecurityKind::kChap);
  EXPECT_EQ(refusals[0].initiator, kInitiatorName);
  EXPECT_EQ(refusals[0].reason, "authentication required but not completed");
}

}  // namespace
}  // namespace memstore::iscsi
