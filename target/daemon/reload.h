// SPDX-License-Identifier: Apache-2.0
// SIGHUP: what a re-read configuration changes in the running daemon
// (docs/memstored.md, "Reloading"). The plan compares the configuration
// the daemon runs with (as last read) to the new one: what differs and can
// change live is applied (log level; each LUN's timing, scale and scheduler
// through page 22h; each LUN's fault rules and seed, replacing the rules it
// has, those added at run time included; each target's ACL and CHAP);
// everything else that differs is named, with "restart to apply", and left
// as it runs. `running` is what runs now (memstored_running.h), so a change
// made at run time through the control socket counts as running.
#pragma once

#include <optional>
#include <string>
#include <vector>

#include "modepages/mode_vendor.h"
#include "target/daemon/config.h"
#include "target/scsi/fault_rule.h"

namespace memstore::daemon {

struct LunReload {
  std::string target;
  std::uint16_t id = 0;
  std::optional<modepages::ControlPage> control;  // set: page 22h's new values
  bool faults_changed = false;
  std::vector<scsi::FaultRule> faults;  // the new rules, when faults_changed
  std::uint64_t fault_seed = 1;
};

// A target whose ACL or CHAP the file changes: applied live
// (iscsi::Server::set_security).
struct AccessReload {
  std::string target;
  std::vector<std::string> acl;
  std::optional<Chap> chap;
};

struct ReloadPlan {
  std::optional<std::string> log_level;
  std::vector<LunReload> luns;
  std::vector<AccessReload> access;
  std::vector<std::string> not_applied;  // "what: changed; restart to apply"
};

ReloadPlan plan_reload(const Config& running, const Config& next);

// What runs once `plan` (from plan_reload(running, next)) is applied: the
// running configuration with the log level, each LUN's timing, scale,
// scheduler, fault rules and seed, and each target's ACL and CHAP taken
// from `next`, and everything that
// needs a restart left as it runs. The next reload compares with this, so
// a change made and then undone before a restart needs no restart.
Config applied_config(const Config& running, const Config& next, const ReloadPlan& plan);

}  // namespace memstore::daemon
