// SPDX-License-Identifier: Apache-2.0
// The operator's event log (Session::set_event_log): one line per login,
// logout, dropped connection and task management function, each naming the
// initiator, its ISID, its address, the target and the session, so that
// `journalctl -u memstored | grep <initiator>` tells one initiator's story.
#include <gtest/gtest.h>

#include <string>

#include "tests/iscsi/session_harness.h"

namespace memstore::iscsi {
namespace {

using testing::kInitiatorName;
using testing::kTargetName;
using testing::SessionTest;

// Who, as every line of the harness' session names it (ISID 80 00 00 01 00 00,
// the address set_audit gives, TSIH 1).
const std::string kWho = std::string("initiator ") + kInitiatorName +
                         " isid 0x800000010000 from 192.0.2.7:51000, target " + kTargetName +
                         ", session 1";

TEST_F(SessionTest, LoginAndLogoutAreOneLineEach) {
  login();
  ASSERT_EQ(events.size(), 1u);
  EXPECT_EQ(events[0], "login: " + kWho);
  LogoutRequestPdu l;
  l.itt = 0x31;
  l.cmd_sn = cmd_sn++;
  send(l);
  end_session();
  // After a logout the closing connection is no drop.
  ASSERT_EQ(events.size(), 2u);
  EXPECT_EQ(events[1], "logout: " + kWho + ": session closed");
}

TEST_F(SessionTest, AConnectionLostWithoutLogoutIsADrop) {
  login();
  end_session();
  ASSERT_EQ(events.size(), 2u);
  EXPECT_EQ(events[1], "connection dropped: " + kWho + ": closed without a logout");
}

TEST_F(SessionTest, AnUnansweredPingNamesTheDropsCause) {
  login();
  EXPECT_TRUE(ping_session());
  EXPECT_FALSE(ping_session());  // the first one still unanswered: the connection closes
  end_session();
  ASSERT_EQ(events.size(), 2u);
  EXPECT_EQ(events[1], "connection dropped: " + kWho + ": no answer to the NOP-In ping");
}

TEST_F(SessionTest, TaskManagementNamesTheFunctionTheLunAndTheAnswer) {
  login();
  TaskMgmtRequestPdu reset;
  reset.immediate = true;
  reset.function = TmfFunction::kLogicalUnitReset;
  reset.lun = encode_lun(0);
  reset.itt = 0x901;
  reset.cmd_sn = cmd_sn;
  send(reset);
  TaskMgmtRequestPdu abort = abort_task(0x77);  // no such task
  abort.lun = encode_lun(0);
  send(abort);
  TaskMgmtRequestPdu other_lun = reset;
  other_lun.lun = encode_lun(5);
  other_lun.itt = 0x902;
  send(other_lun);
  ASSERT_EQ(events.size(), 4u);
  EXPECT_EQ(events[1],
            "task management: " + kWho + ": LOGICAL UNIT RESET LUN 0: function complete");
  EXPECT_EQ(events[2],
            "task management: " + kWho + ": ABORT TASK of task 119 LUN 0: task does not exist");
  EXPECT_EQ(events[3],
            "task management: " + kWho + ": LOGICAL UNIT RESET LUN 5: LUN does not exist");
}

TEST_F(SessionTest, RefusedLoginsAndDiscoveryLogNoEvent) {
  target_login().security.acl = {"iqn.2026-11.org.memstore.test:someone-else"};
  login();  // refused: the security log has it (session_login_test.cc)
  end_session();
  EXPECT_TRUE(events.empty());

  restart();
  EXPECT_EQ(login_with_only({{"InitiatorName", kInitiatorName}, {"SessionType", "Discovery"}})
                .status_class,
            0);
  end_session();
  EXPECT_TRUE(events.empty());
}

TEST_F(SessionTest, AnInitiatorNameCannotForgeALine) {
  const std::string forged = std::string(kInitiatorName) + "\nlogin: initiator iqn.fake";
  login_with_only(
      {{"InitiatorName", forged}, {"TargetName", kTargetName}, {"SessionType", "Normal"}});
  ASSERT_EQ(events.size(), 1u);
  EXPECT_EQ(events[0].find('\n'), std::string::npos);
  EXPECT_NE(events[0].find(std::string(kInitiatorName) + "\\x0alogin: initiator iqn.fake isid"),
            std::string::npos);
}

}  // namespace
}  // namespace memstore::iscsi
