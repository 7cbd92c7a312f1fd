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
// ACL changed (restart needed) and changed back needs no restart, while a
// change applied live is what runs from then on.
TEST(Reload, ComparesWithWhatRunsNotWithTheFileLastRead) {
  const std::string acl = "[[target]]\nname = \"iqn.2026-11.org.memstore:r\"\n";
  const Config started = parsed(kBase);
  const Config acl_changed = parsed(acl + "acl = [\"iqn.2026-11.org.example:a\"]\n" +
                                    "[[target.lun]]\nbacking = \"memory\"\ntiming = \"off\"\n");
  const ReloadPlan first = plan_reload(started, acl_changed);
  ASSERT_EQ(first.not_applied.size(), 1U);
  EXPECT_THAT(first.not_applied[0], HasSubstr("acl or chap changed; restart to apply"));
  ASSERT_EQ(first.luns.size(), 1U);
  const Config runs = applied_config(started, acl_changed, first);
  EXPECT_TRUE(runs.targets[0].acl.empty()) << "the ACL needs a restart: it is not what runs";
  EXPECT_EQ(runs.targets[0].luns[0].config.timing.mode, scsi::TimingMode::kOff) << "applied live";

  // Back to the ACL that runs, timing kept: nothing to apply, nothing needs a restart.
  const Config back = parsed(kBase + "timing = \"off\"\n");
  const ReloadPlan second = plan_reload(runs, back);
  EXPECT_TRUE(second.not_applied.empty()) << second.not_applied[0];
  EXPECT_TRUE(second.luns.empty());
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
