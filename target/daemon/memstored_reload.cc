// SPDX-License-Identifier: Apache-2.0
#include "target/daemon/memstored_reload.h"

#include <spdlog/spdlog.h>
#include <systemd/sd-daemon.h>

#include <boost/asio/post.hpp>

#include "target/daemon/memstored_luns.h"
#include "target/daemon/reload.h"

namespace memstore::memstored {

void reload(const daemon::CommandLine& cli, daemon::Config& running,
            const std::map<std::pair<std::string, std::uint16_t>, driver::TimedLun*>& luns,
            iscsi::Server& server) {
  if (cli.config_file.empty()) {
    spdlog::warn("reload (SIGHUP): memstored runs without --config; there is nothing to re-read");
    return;
  }
  // systemd: reloading until READY again (Type=notify with ExecReload).
  ::sd_notify(0, "RELOADING=1");
  auto next = daemon::resolve(cli);
  if (!next.ok()) {
    const std::string& why = next.error().message;
    spdlog::error("reload (SIGHUP): {}; the running configuration stays", why);
    ::sd_notifyf(0, "READY=1\nSTATUS=reload failed: %s", why.c_str());
    return;
  }
  const daemon::ReloadPlan plan = daemon::plan_reload(running, *next);
  if (plan.log_level) spdlog::set_level(spdlog::level::from_str(*plan.log_level));
  for (const daemon::AccessReload& change : plan.access) {
    daemon::TargetSpec access;
    access.acl = change.acl;
    access.chap = change.chap;
    if (const Status e = server.set_security(change.target, security_of(access)); !e.ok()) {
      spdlog::error("reload: target {}: ACL and CHAP not applied: {}", change.target,
                    e.error().message);
      continue;
    }
    spdlog::info("reload: target {}: ACL {} initiator(s){}, CHAP {}", change.target,
                 change.acl.size(), change.acl.empty() ? " (any initiator)" : "",
                 change.chap ? "required" : "not required");
  }
  for (const daemon::LunReload& change : plan.luns) {
    driver::TimedLun* d = luns.at({change.target, change.id});
    // On the LUN's own loop, between its commands.
    boost::asio::post(d->context(), [d, change] {
      if (change.control) {
        if (const Status e = d->set_control(*change.control); !e.ok()) {
          spdlog::error("reload: LUN {} of {}: timing not applied: {}", change.id, change.target,
                        e.error().message);
        }
      }
      if (change.faults_changed) {
        d->lun().reset_faults(change.fault_seed, change.faults);
        spdlog::info("reload: LUN {} of {}: {} fault rule(s), seed {}", change.id, change.target,
                     change.faults.size(), change.fault_seed);
      }
    });
  }
  for (const std::string& what : plan.not_applied) spdlog::warn("reload: {}", what);
  // Each target's access change has its own line above.
  spdlog::info("reload (SIGHUP): {} LUN(s) changed live, {} change(s) need a restart",
               plan.luns.size(), plan.not_applied.size());
  // What now runs, not what was read: a change that needs a restart stays
  // a difference from the file until then (applied_config).
  running = daemon::applied_config(running, *next, plan);
  ::sd_notifyf(0, "READY=1\nSTATUS=reloaded: %zu LUN(s) changed live, %zu change(s) need a restart",
               plan.luns.size(), plan.not_applied.size());
}

}  // namespace memstore::memstored
