// SPDX-License-Identifier: Apache-2.0
#include "target/control/control_commands.h"

#include <cmath>

#include "target/control/fault_json.h"
#include "target/control/json_rpc.h"
#include "target/control/power_cut_json.h"
#include "target/lunspec/fault_toml.h"
#include "target/lunspec/lun_spec.h"
#include "target/scsi/fault_set.h"

namespace memstore::control {

Expected<std::string> absolute_file(const json& request, const std::string& command) {
  const json& f = request.contains("file") ? request["file"] : json();
  if (!f.is_string() || f.get<std::string>().empty() || f.get<std::string>().front() != '/') {
    return Error(
        "file: must be an absolute path (the daemon's working directory is not yours); "
        "memsctl admin " +
        command + " --file makes a relative one absolute");
  }
  return f.get<std::string>();
}

json ok(json fields) {
  fields["ok"] = true;
  return fields;
}

namespace {

json lateness_json(const delivery::Lateness& l) {
  auto us = [](double ns) { return ns / 1e3; };
  return {{"count", l.count},
          {"mean_us", us(l.mean_ns())},
          {"p50_us", us(static_cast<double>(l.percentile_ns(0.5)))},
          {"p99_us", us(static_cast<double>(l.percentile_ns(0.99)))},
          {"p999_us", us(static_cast<double>(l.percentile_ns(0.999)))},
          {"max_us", us(static_cast<double>(l.max_ns))}};
}

json stats(driver::TimedLun& d) {
  const delivery::DeliveryCounters& c = d.counters();
  const std::uint64_t fired = d.lun().faults().fired_total();
  const modepages::ControlPage page = d.lun().control();
  return ok({{"commands", c.commands},
             {"reads", c.reads},
             {"writes", c.writes},
             {"check_conditions", c.check_conditions},
             {"bytes_in", c.bytes_in},
             {"bytes_out", c.bytes_out},
             {"lateness", lateness_json(d.lateness())},
             {"faults_fired", fired},
             {"timing", scsi::timing_mode_name(page.timing)},
             {"scale", page.scale_milli / 1000.0}});
}

json faults(driver::TimedLun& d) {
  json list = json::array();
  for (const scsi::FaultSet::Entry& e : d.lun().faults().rules()) {
    list.push_back({{"id", e.id},
                    {"rule", fault_to_json(e.rule)},
                    {"matched", e.matched},
                    {"fired", e.fired}});
  }
  return ok({{"seed", d.lun().faults().seed()}, {"faults", list}});
}

json fault_add(driver::TimedLun& d, const json& request) {
  if (!request.contains("rule")) {
    return failure(
        "rule: is missing; give the rule as an object of the keys of "
        "[[target.lun.fault]] (docs/faults.md)");
  }
  const Expected<toml::table> t = json_to_toml(request["rule"]);
  if (!t.ok()) return failure("rule: " + t.error().message);
  scsi::Lun& lun = d.lun();
  if (lun.faults().rules().size() >= lunspec::LunSpec::kMaxFaults) {
    return failure("rule: the LUN has " + std::to_string(lunspec::LunSpec::kMaxFaults) +
                   " rules, the most it takes; remove one first");
  }
  auto parsed = lunspec::parse_fault(
      *t, {static_cast<std::int64_t>(lun.blocks()), lun.is_disk() ? nullptr : &lun.geometry()},
      lun.timing().mode == scsi::TimingMode::kOff);
  if (!parsed.ok()) {
    return failure("rule." + parsed.error().key + ": " + parsed.error().message);
  }
  const auto& rule = *parsed;
  std::vector<modepages::FailedTip> tips = lun.faults().failed_tips();
  scsi::add_failed_tip(tips, rule);
  if (tips.size() > modepages::kMaxFailedTips) {
    return failure("rule.tip: the LUN has " + std::to_string(modepages::kMaxFailedTips) +
                   " failed tips, the most page 20h lists; remove one first");
  }
  return ok({{"id", lun.add_fault(rule)}});
}

json fault_remove(driver::TimedLun& d, const json& request) {
  if (!request.contains("id") || !request["id"].is_number_unsigned()) {
    return failure("id: must be the number of a rule, as `faults` lists them");
  }
  const auto id = request["id"].get<std::uint64_t>();
  if (id > UINT32_MAX || !d.lun().remove_fault(static_cast<std::uint32_t>(id))) {
    return failure("id: the LUN has no rule " + std::to_string(id) + "; `faults` lists them");
  }
  return ok();
}

json fault_clear(driver::TimedLun& d) {
  d.lun().clear_faults();
  return ok();
}

json timing(driver::TimedLun& d, const json& request) {
  modepages::ControlPage page = d.lun().control();
  if (request.contains("mode")) {
    const auto mode = request["mode"].is_string()
                          ? scsi::parse_timing_mode(request["mode"].get<std::string>())
                          : std::nullopt;
    if (!mode) return failure("mode: must be \"realtime\", \"scaled\" or \"off\"");
    page.timing = *mode;
  }
  if (request.contains("scale")) {
    const json& s = request["scale"];
    if (!s.is_number() || !scsi::scale_in_range(s.get<double>())) {
      return failure("scale: must be a number from 0.001 to 1000 (1.0 = real time)");
    }
    page.scale_milli = static_cast<std::uint32_t>(s.get<double>() * 1000 + 0.5);
  }
  if (page.timing == scsi::TimingMode::kOff) {
    for (const scsi::FaultSet::Entry& e : d.lun().faults().rules()) {
      if (e.rule.action == scsi::FaultAction::kDelay) {
        return failure("mode: rule " + std::to_string(e.id) +
                       " is a delay, which needs a due time; remove it before timing \"off\"");
      }
    }
  }
  if (const Status e = d.set_control(page); !e.ok()) return failure("timing: " + e.error().message);
  return ok(
      {{"timing", scsi::timing_mode_name(page.timing)}, {"scale", page.scale_milli / 1000.0}});
}

// The commands about one LUN, run on its thread.
struct LunCommand {
  const char* name;
  json (*run)(driver::TimedLun&, const json&);
};
const LunCommand kLunCommands[] = {
    {"stats", [](driver::TimedLun& d, const json&) { return stats(d); }},
    {"faults", [](driver::TimedLun& d, const json&) { return faults(d); }},
    {"fault-add", fault_add},
    {"fault-remove", fault_remove},
    {"fault-clear", [](driver::TimedLun& d, const json&) { return fault_clear(d); }},
    {"timing", timing},
};

}  // namespace

std::string ControlCommands::command_names() const {
  std::string s;
  for (const std::string& m : methods()) s += (s.empty() ? "" : ", ") + m;
  return s;
}

json failure(const std::string& error) {
  return {{"ok", false}, {"error", error}};
}

ControlCommands::ControlCommands(std::vector<ControlLun> luns, Dispatch dispatch)
    : luns_(std::move(luns)), dispatch_(std::move(dispatch)) {}

Expected<std::string> ControlCommands::target_of(const json& request) const {
  if (request.contains("target")) {
    if (!request["target"].is_string()) return Error("target: must be a target name");
    return request["target"].get<std::string>();
  }
  std::string target;
  for (const ControlLun& l : luns_) {
    if (!target.empty() && l.target != target) {
      return Error("target: the daemon serves several targets; name one (`luns` lists them)");
    }
    target = l.target;
  }
  if (target.empty()) return Error("target: is missing; name the target (no LUN is left to tell)");
  return target;
}

Expected<const ControlLun*> ControlCommands::find(const json& request) const {
  const Expected<std::string> named = target_of(request);
  if (!named.ok()) return named.error();
  const std::string& target = *named;
  if (!request.contains("lun") || !request["lun"].is_number_unsigned()) {
    return Error("lun: must be a LUN number (`luns` lists them)");
  }
  const auto id = request["lun"].get<std::uint64_t>();
  for (const ControlLun& l : luns_) {
    if (l.target == target && l.id == id) return &l;
  }
  return Error("lun: no LUN " + std::to_string(id) + " of target '" + target +
               "' (`luns` lists them)");
}

json ControlCommands::lun_add(const json& request) {
  if (!admin_.add) return failure("cmd: this daemon does not add LUNs at run time");
  const Expected<std::string> target = target_of(request);
  if (!target.ok()) return failure(target.error().message);
  if (!request.contains("config") || !request["config"].is_object()) {
    return failure(
        "config: is missing; give the LUN as an object of the keys of [[target.lun]], e.g. "
        "{\"id\": 1, \"backing\": \"memory\"} (docs/memstored.md)");
  }
  const Expected<toml::table> spec = json_to_toml(request["config"]);
  if (!spec.ok()) return failure("config: " + spec.error().message);
  auto added = admin_.add(*target, *spec);
  if (!added.ok()) return failure(added.error().message);
  const ControlLun& l = luns_.emplace_back(std::move(added).value());
  return ok({{"target", l.target}, {"lun", l.id}, {"device", l.device}, {"backing", l.backing}});
}

json ControlCommands::lun_remove(const json& request) {
  if (!admin_.remove) return failure("cmd: this daemon does not remove LUNs at run time");
  const Expected<const ControlLun*> found = find(request);
  if (!found.ok()) return failure(found.error().message);
  const ControlLun lun = **found;
  const auto index = *found - luns_.data();
  luns_.erase(luns_.begin() + index);
  if (const Status e = admin_.remove(lun); !e.ok()) {
    luns_.insert(luns_.begin() + index, lun);
    return failure(e.error().message);
  }
  return ok({{"target", lun.target}, {"lun", lun.id}});
}

json ControlCommands::target_add(const json& request) {
  if (!target_admin_.add) return failure("cmd: this daemon does not add targets at run time");
  if (!request.contains("config") || !request["config"].is_object()) {
    return failure(
        "config: is missing; give the target as an object of the keys of [[target]], its LUNs "
        "under \"lun\", e.g. {\"name\": \"iqn.2026-11.org.example:t2\", \"portals\": "
        "[\"127.0.0.1:3261\"], \"lun\": [{\"id\": 0, \"backing\": \"memory\"}]} "
        "(docs/memstored.md)");
  }
  const Expected<toml::table> spec = json_to_toml(request["config"]);
  if (!spec.ok()) return failure("config: " + spec.error().message);
  auto added = target_admin_.add(*spec);
  if (!added.ok()) return failure(added.error().message);
  auto& luns = *added;
  json ids = json::array();
  for (const ControlLun& l : luns) ids.push_back(l.id);
  const std::string name = luns.empty() ? std::string() : luns.front().target;
  luns_.insert(luns_.end(), luns.begin(), luns.end());
  return ok({{"target", name}, {"luns", ids}});
}

json ControlCommands::target_remove(const json& request) {
  if (!target_admin_.remove) return failure("cmd: this daemon does not remove targets at run time");
  if (!request.contains("target") || !request["target"].is_string()) {
    return failure("target: is missing; name the target to remove (`luns` lists them)");
  }
  const std::string target = request["target"].get<std::string>();
  std::vector<ControlLun> kept, removed;
  for (const ControlLun& l : luns_) (l.target == target ? removed : kept).push_back(l);
  const std::vector<ControlLun> before = luns_;
  luns_ = std::move(kept);
  if (const Status e = target_admin_.remove(target, removed); !e.ok()) {
    luns_ = before;
    return failure(e.error().message);
  }
  json ids = json::array();
  for (const ControlLun& l : removed) ids.push_back(l.id);
  return ok({{"target", target}, {"luns", ids}});
}

// The LUN loses power and gets it back (docs/crash-consistency.md): its
// volatile write cache keeps, loses or tears what it held, by `policy`
// drawn from `seed`; its target's sessions end first.
void ControlCommands::power_cut(const json& request, const Reply& reply) {
  const Expected<const ControlLun*> found = find(request);
  if (!found.ok()) return reply(failure(found.error().message));
  const ControlLun* lun = *found;
  const json& p = request.contains("policy") ? request["policy"] : json("drop-all");
  const auto policy = p.is_string() ? scsi::cut_policy_named(p.get<std::string>()) : std::nullopt;
  if (!policy) return reply(failure("policy: must be \"drop-all\", \"keep-random\" or \"torn\""));
  std::uint64_t seed = 1;
  if (request.contains("seed")) {
    if (!request["seed"].is_number_unsigned()) {
      return reply(failure("seed: must be a number from 0 to 2^64-1"));
    }
    seed = request["seed"].get<std::uint64_t>();
  }
  double off_ms = 0;
  if (request.contains("off_ms")) {
    const json& o = request["off_ms"];
    if (!o.is_number() || o.get<double>() < 0 || o.get<double>() > scsi::kMaxOffMs) {
      return reply(failure("off_ms: must be a time from 0 to 3600000 ms"));
    }
    off_ms = o.get<double>();
  }
  const auto off_ns = static_cast<scsi::Ns>(std::llround(off_ms * 1e6));
  dispatch_(
      *lun->driver,
      [policy = *policy, seed, off_ns](driver::TimedLun& d) {
        // The LUN tells the transport first (scsi::Lun::set_power_lost):
        // memstored ends the target's sessions and refuses logins while
        // the power is off.
        auto cut = d.lun().power_cycle(policy, seed, d.model_time(), off_ns, "the control socket");
        if (!cut.ok()) return failure("power-cut: " + cut.error().message);
        json j = power_cut_json(*cut);
        j["off_ms"] = static_cast<double>(off_ns) / 1e6;
        return ok(j);
      },
      reply);
}

void ControlCommands::sessions(const std::string& cmd, const json& request, const Reply& reply) {
  if (!sessions_) return reply(failure(cmd + ": this daemon has no iSCSI sessions to list"));
  std::optional<std::string> target;
  if (request.contains("target")) {
    if (!request["target"].is_string()) {
      return reply(failure("target: must be a target's name (memsctl admin luns lists them)"));
    }
    target = request["target"].get<std::string>();
  }
  sessions_([cmd, target, reply](std::vector<SessionInfo> list) {
    reply(cmd == "sessions" ? sessions_json(list, target) : connections_json(list, target));
  });
}

void ControlCommands::save(const json& request, const Reply& reply) {
  if (!save_) return reply(failure("save: this daemon cannot write its configuration"));
  std::string file;
  if (request.contains("file")) {
    const Expected<std::string> f = absolute_file(request, "save");
    if (!f.ok()) return reply(failure(f.error().message));
    file = *f;
  }
  save_(file, [reply](Expected<json> saved) {
    reply(saved.ok() ? ok(std::move(saved).value()) : failure(saved.error().message));
  });
}

void ControlCommands::handle(const std::string& line, const Reply& reply) {
  const json request = json::parse(line, nullptr, false);
  if (is_json_rpc(request)) {
    auto call = rpc_call(request);
    if (json* error = std::get_if<json>(&call)) return reply(std::move(*error));
    RpcCall& c = std::get<RpcCall>(call);
    if (!c.id) {
      // A notification: run, answer nothing (JSON-RPC 2.0 §4.1).
      return run(c.command, [reply](json r) { reply({{kNotificationKey, std::move(r)}}); });
    }
    return run(c.command, [reply, id = *c.id](const json& r) { reply(rpc_response(r, id)); });
  }
  if (request.is_discarded() || !request.is_object()) {
    return reply(
        failure("a request is one JSON object per line, e.g. {\"cmd\": \"luns\"} or {\"jsonrpc\": "
                "\"2.0\", \"method\": \"luns\", \"id\": 1}"));
  }
  run(request, reply);
}

std::vector<std::string> ControlCommands::methods() const {
  std::vector<std::string> names = {"rpc_get_methods", "luns",        "lun-add",
                                    "lun-remove",      "target-add",  "target-remove",
                                    "sessions",        "connections", "save"};
  for (const auto& [name, run] : daemon_commands_) names.push_back(name);
  for (const LunCommand& c : kLunCommands) names.emplace_back(c.name);
  names.emplace_back("power-cut");
  names.emplace_back("trace-start");
  names.emplace_back("trace-stop");
  return names;
}

void ControlCommands::run(const json& request, const Reply& reply) {
  if (!request.contains("cmd") || !request["cmd"].is_string()) {
    return reply(failure("cmd: is missing; use one of " + command_names()));
  }
  const std::string cmd = request["cmd"].get<std::string>();
  if (cmd == "rpc_get_methods") return reply(ok({{"methods", methods()}}));
  if (cmd == "luns") {
    json list = json::array();
    for (const ControlLun& l : luns_) {
      list.push_back(
          {{"target", l.target}, {"lun", l.id}, {"device", l.device}, {"backing", l.backing}});
    }
    return reply(ok({{"luns", list}}));
  }
  if (cmd == "lun-add") return reply(lun_add(request));
  if (cmd == "lun-remove") return reply(lun_remove(request));
  if (cmd == "target-add") return reply(target_add(request));
  if (cmd == "target-remove") return reply(target_remove(request));
  if (cmd == "power-cut") return power_cut(request, reply);
  if (cmd == "trace-start") return trace_start(request, reply);
  if (cmd == "trace-stop") return trace_stop(request, reply);
  if (cmd == "sessions" || cmd == "connections") return sessions(cmd, request, reply);
  if (cmd == "save") return save(request, reply);
  for (const auto& [name, run] : daemon_commands_) {
    if (cmd != name) continue;
    Expected<json> r = run(request);
    return reply(r.ok() ? ok(std::move(r).value()) : failure(r.error().message));
  }
  for (const LunCommand& c : kLunCommands) {
    if (cmd != c.name) continue;
    const Expected<const ControlLun*> lun = find(request);
    if (!lun.ok()) return reply(failure(lun.error().message));
    dispatch_(
        *(*lun)->driver, [run = c.run, request](driver::TimedLun& d) { return run(d, request); },
        reply);
    return;
  }
  reply(failure("cmd: unknown command '" + cmd + "'; use one of " + command_names()));
}

}  // namespace memstore::control
