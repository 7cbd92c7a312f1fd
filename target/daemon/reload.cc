// SPDX-License-Identifier: Apache-2.0
#include "target/daemon/reload.h"

#include <set>

namespace memstore::daemon {
namespace {

const TargetSpec* find_target(const Config& c, const std::string& name) {
  for (const TargetSpec& t : c.targets) {
    if (t.name == name) return &t;
  }
  return nullptr;
}

const LunSpec* find_lun(const TargetSpec& t, std::uint16_t id) {
  for (const LunSpec& l : t.luns) {
    if (l.id == id) return &l;
  }
  return nullptr;
}

// The page 22h that LUN `l`'s configuration gives. Its power strategies come
// from `set` and device_config, which only a restart applies (lun_fixed), so
// they are the running LUN's.
modepages::ControlPage page_of(const LunSpec& l, const LunSpec& running) {
  modepages::ControlPage p;
  p.scheduler = modepages::scheduler_index(l.config.scheduler).value_or(0);
  p.timing = l.config.timing.mode;
  p.scale_milli = static_cast<std::uint32_t>(l.config.timing.scale * 1000 + 0.5);
  p.merge_requests = running.config.device.power.merge_requests;
  p.subsector = running.config.device.power.subsector;
  return p;
}

// A LUN's keys that only a restart applies: they shape the store or the model.
void lun_fixed(const LunSpec& a, const LunSpec& b, const std::string& where,
               std::vector<std::string>& out) {
  auto differ = [&](bool changed, const char* key) {
    if (changed) out.push_back(where + key + ": changed; restart to apply");
  };
  differ(a.device != b.device, "device");
  differ(a.device_config != b.device_config, "device_config");
  differ(a.set != b.set, "set");
  differ(a.backing != b.backing, "backing");
  differ(a.durability != b.durability, "durability");
  differ(a.cache_mb != b.cache_mb, "cache_mb");
  differ(a.cache_writeback_ms != b.cache_writeback_ms, "cache_writeback_ms");
  differ(a.write_log != b.write_log, "write_log");
  // A capture while the LUN runs is the control socket's trace-start.
  differ(a.trace != b.trace, "trace");
  differ(a.trace_format != b.trace_format, "trace_format");
  differ(a.config.rotation_rate != b.config.rotation_rate, "rotation_rate");
}

void daemon_fixed(const Config& a, const Config& b, std::vector<std::string>& out) {
  for (const DaemonNumber& n : kDaemonNumbers) {
    if (a.*n.field != b.*n.field) {
      out.push_back(std::string("daemon.") + n.key + ": changed; restart to apply");
    }
  }
  auto differ = [&](bool changed, const std::string& key) {
    if (changed) out.push_back(key + ": changed; restart to apply");
  };
  differ(a.state_dir != b.state_dir, "daemon.state_dir");
  differ(a.control_socket != b.control_socket, "daemon.control_socket");
  differ(a.metrics != b.metrics, "daemon.metrics");
  differ(a.control_initiators != b.control_initiators, "daemon.control_initiators");
  differ(!(a.limits == b.limits), "limits");
  differ(a.discovery_chap != b.discovery_chap, "discovery.chap");
}

}  // namespace

ReloadPlan plan_reload(const Config& running, const Config& next) {
  ReloadPlan plan;
  if (running.log_level != next.log_level) plan.log_level = next.log_level;
  daemon_fixed(running, next, plan.not_applied);
  for (const TargetSpec& nt : next.targets) {
    const TargetSpec* rt = find_target(running, nt.name);
    const std::string tw = "target '" + nt.name + "'";
    if (rt == nullptr) {
      plan.not_applied.push_back(tw + ": added; restart to serve it");
      continue;
    }
    if (rt->alias != nt.alias || rt->portals != nt.portals) {
      plan.not_applied.push_back(tw + ": alias or portals changed; restart to apply");
    }
    if (rt->acl != nt.acl || rt->chap != nt.chap) plan.access.push_back({nt.name, nt.acl, nt.chap});
    for (const LunSpec& nl : nt.luns) {
      const LunSpec* rl = find_lun(*rt, nl.id);
      const std::string lw = tw + " LUN " + std::to_string(nl.id) + ": ";
      if (rl == nullptr) {
        plan.not_applied.push_back(lw + "added; restart to serve it");
        continue;
      }
      lun_fixed(*rl, nl, lw, plan.not_applied);
      LunReload change{nt.name, nl.id, std::nullopt, false, {}, nl.config.fault_seed};
      if (!(page_of(*rl, *rl) == page_of(nl, *rl))) change.control = page_of(nl, *rl);
      if (rl->config.faults != nl.config.faults || rl->config.fault_seed != nl.config.fault_seed) {
        change.faults_changed = true;
        change.faults = nl.config.faults;
      }
      if (change.control || change.faults_changed) plan.luns.push_back(std::move(change));
    }
    for (const LunSpec& rl : rt->luns) {
      if (find_lun(nt, rl.id) == nullptr) {
        plan.not_applied.push_back(tw + " LUN " + std::to_string(rl.id) +
                                   ": removed; restart to stop serving it");
      }
    }
  }
  for (const TargetSpec& rt : running.targets) {
    if (find_target(next, rt.name) == nullptr) {
      plan.not_applied.push_back("target '" + rt.name + "': removed; restart to stop serving it");
    }
  }
  return plan;
}

Config applied_config(const Config& running, const Config& next, const ReloadPlan& plan) {
  Config now = running;
  if (plan.log_level) now.log_level = *plan.log_level;
  for (const AccessReload& change : plan.access) {
    for (TargetSpec& t : now.targets) {
      if (t.name != change.target) continue;
      t.acl = change.acl;
      t.chap = change.chap;
    }
  }
  for (const LunReload& change : plan.luns) {
    const TargetSpec* nt = find_target(next, change.target);
    const LunSpec* nl = nt == nullptr ? nullptr : find_lun(*nt, change.id);
    if (nl == nullptr) continue;
    for (TargetSpec& t : now.targets) {
      if (t.name != change.target) continue;
      for (LunSpec& l : t.luns) {
        if (l.id != change.id) continue;
        if (change.control) {
          l.config.timing = nl->config.timing;
          l.config.scheduler = nl->config.scheduler;
        }
        if (change.faults_changed) {
          l.config.faults = nl->config.faults;
          l.config.fault_seed = nl->config.fault_seed;
        }
      }
    }
  }
  return now;
}

}  // namespace memstore::daemon
