// SPDX-License-Identifier: Apache-2.0
// SIGHUP's plan: what differs between the configuration as last read and
// the new one, applied live (log level, timing, faults) or named as needing
// a restart.
#include "target/daemon/reload.h"

#include <gmock/gmock.h>
#include <gtest/gtest.h>

namespace memstore::daemon {
namespace {

using ::testing::ElementsAre;
using ::testing::HasSubstr;

Config parsed(const std::string& text) {
  auto r = parse_config(text, "r.toml");
  if (!r.ok()) ADD_FAILURE() << r.error().message;
  return r.value();
}

const std::string kBase =
    "[[target]]\nname = \"iqn.2026-11.org.memstore:r\"\n[[target.lun]]\nbacking = \"memory\"\n";

TEST(Reload, NothingChangedPlansNothing) {
  const ReloadPlan p = plan_reload(parsed(kBase), parsed(kBase));
  EXPECT_FALSE(p.log_level);
  EXPECT_TRUE(p.luns.empty());
  EXPECT_TRUE(p.not_applied.empty());
}

TEST(Reload, TimingAndFaultsChangeLive) {
  const ReloadPlan p =
      plan_reload(parsed(kBase), parsed("[daemon]\nlog_level = \"debug\"\n" + kBase +
                                        "timing = \"scaled\"\nscale = 3.0\nfault_seed = 9\n"
                                        "[[target.lun.fault]]\naction = \"busy\"\n"));
  EXPECT_EQ(p.log_level, "debug");
  ASSERT_EQ(p.luns.size(), 1U);
  const LunReload& l = p.luns[0];
  EXPECT_EQ(l.target, "iqn.2026-11.org.memstore:r");
  ASSERT_TRUE(l.control);
  EXPECT_EQ(l.control->timing, scsi::TimingMode::kScaled);
  EXPECT_EQ(l.control->scale_milli, 3000U);
  EXPECT_TRUE(l.faults_changed);
  ASSERT_EQ(l.faults.size(), 1U);
  EXPECT_EQ(l.faults[0].action, scsi::FaultAction::kBusy);
  EXPECT_EQ(l.fault_seed, 9U);
  EXPECT_TRUE(p.not_applied.empty());
}

// The next reload compares with what runs, not with the file last read: an
// alias changed (restart needed) and changed back needs no restart, while a
// change applied live is what runs from then on.
TEST(Reload, ComparesWithWhatRunsNotWithTheFileLastRead) {
  const std::string named = "[[target]]\nname = \"iqn.2026-11.org.memstore:r\"\n";
  const Config started = parsed(kBase);
  const Config alias_changed = parsed(named + "alias = \"other\"\n" +
                                      "[[target.lun]]\nbacking = \"memory\"\ntiming = \"off\"\n");
  const ReloadPlan first = plan_reload(started, alias_changed);
  ASSERT_EQ(first.not_applied.size(), 1U);
  EXPECT_THAT(first.not_applied[0], HasSubstr("alias or portals changed; restart to apply"));
  ASSERT_EQ(first.luns.size(), 1U);
  const Config runs = applied_config(started, alias_changed, first);
  EXPECT_TRUE(runs.targets[0].alias.empty()) << "the alias needs a restart: it is not what runs";
  EXPECT_EQ(runs.targets[0].luns[0].config.timing.mode, scsi::TimingMode::kOff) << "applied live";

  // Back to the alias that runs, timing kept: nothing to apply, nothing needs a restart.
  const Config back = parsed(kBase + "timing = \"off\"\n");
  const ReloadPlan second = plan_reload(runs, back);
  EXPECT_TRUE(second.not_applied.empty()) << second.not_applied[0];
  EXPECT_TRUE(second.luns.empty());
}

// ACL and CHAP apply live (iscsi::Server::set_security): the plan names the
// target with its new access, nothing needs a restart, and what runs then
// has them, so that a reload of the same file changes nothing more.
TEST(Reload, AclAndChapApplyLive) {
  const std::string named = "[[target]]\nname = \"iqn.2026-11.org.memstore:r\"\n";
  const std::string lun = "[[target.lun]]\nbacking = \"memory\"\n";
  const Config started = parsed(kBase);
  const Config secured = parsed(named + "acl = [\"iqn.2026-11.org.example:a\"]\n" +
                                "chap = { user = \"u\", secret = \"sixteen-byte-key\" }\n" + lun);
  const ReloadPlan plan = plan_reload(started, secured);
  EXPECT_TRUE(plan.not_applied.empty()) << plan.not_applied[0];
  ASSERT_EQ(plan.access.size(), 1U);
  EXPECT_EQ(plan.access[0].target, "iqn.2026-11.org.memstore:r");
  EXPECT_THAT(plan.access[0].acl, ElementsAre("iqn.2026-11.org.example:a"));
  ASSERT_TRUE(plan.access[0].chap);
  EXPECT_EQ(plan.access[0].chap->secret, "sixteen-byte-key");
  const Config runs = applied_config(started, secured, plan);
  EXPECT_EQ(runs.targets[0].acl, secured.targets[0].acl);
  EXPECT_EQ(runs.targets[0].chap, secured.targets[0].chap);
  EXPECT_TRUE(plan_reload(runs, secured).access.empty());
}

// The power strategies come from `set`, which only a restart applies: a
// reload changing the scheduler keeps the running LUN's strategies in the
// page it applies, and one changing `set` alone applies nothing live.
TEST(Reload, PowerStrategiesChangeOnlyAtARestart) {
  const std::string merging = kBase + "set = [\"power.merge_requests = true\"]\n";
  const ReloadPlan p = plan_reload(parsed(merging), parsed(merging + "scheduler = \"sptf\"\n"));
  ASSERT_EQ(p.luns.size(), 1U);
  ASSERT_TRUE(p.luns[0].control);
  EXPECT_TRUE(p.luns[0].control->merge_requests);
  EXPECT_FALSE(p.luns[0].control->subsector);
  const ReloadPlan q = plan_reload(parsed(kBase), parsed(merging));
  EXPECT_TRUE(q.luns.empty());
  EXPECT_THAT(q.not_applied,
              ElementsAre("target 'iqn.2026-11.org.memstore:r' LUN 0: set: changed; restart to "
                          "apply"));
}

// The keys that shape the store or open files at the start: named, not applied.
TEST(Reload, TheStoresKeysAndTheCaptureNeedARestart) {
  const ReloadPlan p = plan_reload(
      parsed(kBase), parsed(kBase + "write_log = \"/tmp/w.log\"\ntrace = \"/tmp/t.trace\"\n"));
  EXPECT_TRUE(p.luns.empty());
  EXPECT_THAT(p.not_applied,
              ElementsAre("target 'iqn.2026-11.org.memstore:r' LUN 0: write_log: changed; restart "
                          "to apply",
                          "target 'iqn.2026-11.org.memstore:r' LUN 0: trace: changed; restart to "
                          "apply"));
}

TEST(Reload, WhatNeedsARestartIsNamed) {
  const ReloadPlan p = plan_reload(
      parsed(kBase), parsed("[daemon]\nthreads = 3\n[limits]\nmax_connections = 10\n"
                            "[[target]]\nname = \"iqn.2026-11.org.memstore:r\"\n"
                            "portals = [\"127.0.0.1:3261\"]\n[[target.lun]]\nbacking = \"memory\"\n"
                            "device = \"g3\"\n[[target.lun]]\nid = 1\nbacking = \"memory\"\n"
                            "[[target]]\nname = \"iqn.2026-11.org.memstore:new\"\n"
                            "[[target.lun]]\nbacking = \"memory\"\n"));
  EXPECT_TRUE(p.luns.empty());
  EXPECT_THAT(
      p.not_applied,
      ElementsAre("daemon.threads: changed; restart to apply", "limits: changed; restart to apply",
                  HasSubstr("portals"),
                  "target 'iqn.2026-11.org.memstore:r' LUN 0: device: changed; restart to apply",
                  "target 'iqn.2026-11.org.memstore:r' LUN 1: added; restart to serve it",
                  "target 'iqn.2026-11.org.memstore:new': added; restart to serve it"));
}

}  // namespace
}  // namespace memstore::daemon
