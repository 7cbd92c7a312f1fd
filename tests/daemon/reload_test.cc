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
  if (auto* e = std::get_if<std::string>(&r)) ADD_FAILURE() << *e;
  return std::get<Config>(r);
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
