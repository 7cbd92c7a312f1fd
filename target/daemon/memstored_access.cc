// SPDX-License-Identifier: Apache-2.0
#include "target/daemon/memstored_access.h"

#include <spdlog/spdlog.h>

#include <algorithm>

#include "target/control/fault_json.h"
#include "target/daemon/config_lun.h"
#include "target/daemon/config_names.h"
#include "target/daemon/memstored_luns.h"

namespace memstore::memstored {
namespace {

using control::json;

// The request's target in `running`: named, or the only one there is.
Expected<daemon::TargetSpec*> target_of(daemon::Config& running, const json& request) {
  if (request.contains("target")) {
    if (!request["target"].is_string()) return Error("target: must be a target's name");
    const std::string name = request["target"].get<std::string>();
    for (daemon::TargetSpec& t : running.targets) {
      if (t.name == name) return &t;
    }
    return Error("target: no target '" + name + "' (`access` lists them)");
  }
  if (running.targets.size() != 1) {
    return Error("target: the daemon serves several targets; name one (`access` lists them)");
  }
  return &running.targets.front();
}

Expected<std::string> initiator_of(const json& request) {
  if (!request.contains("initiator") || !request["initiator"].is_string()) {
    return Error(
        "initiator: is missing; give the initiator's iSCSI name, e.g. "
        "iqn.1993-08.org.debian:01:host1");
  }
  std::string name = request["initiator"].get<std::string>();
  if (const Status e = daemon::check_iscsi_name(name); !e.ok()) {
    return Error("initiator: " + e.error().message);
  }
  return name;
}

json access_json(const daemon::TargetSpec& t) {
  json chap = nullptr;  // the users only: a secret never leaves the daemon
  if (t.chap) {
    chap = {{"user", t.chap->user}};
    if (!t.chap->mutual_user.empty()) chap["mutual_user"] = t.chap->mutual_user;
  }
  return {{"target", t.name}, {"acl", t.acl}, {"chap", chap}};
}

// One change to a target's ACL or CHAP: made on a copy, given to the server,
// kept only if the server took it.
using Change = Status (*)(daemon::TargetSpec&, const json&);

Status acl_add(daemon::TargetSpec& t, const json& request) {
  const auto name = initiator_of(request);
  if (!name.ok()) return name.error();
  if (std::find(t.acl.begin(), t.acl.end(), *name) != t.acl.end()) {
    return Error("initiator: " + *name + " is in the ACL already");
  }
  t.acl.push_back(*name);
  return {};
}

Status acl_remove(daemon::TargetSpec& t, const json& request) {
  const auto name = initiator_of(request);
  if (!name.ok()) return name.error();
  const auto at = std::find(t.acl.begin(), t.acl.end(), *name);
  if (at == t.acl.end())
    return Error("initiator: " + *name + " is not in the ACL (`access` lists it)");
  if (t.acl.size() == 1) {
    // An empty ACL lets every initiator in: that must be asked for by name.
    return Error("initiator: " + *name +
                 " is the ACL's last entry, and an empty ACL lets every initiator in; use "
                 "acl-clear for that, or acl-add another initiator first");
  }
  t.acl.erase(at);
  return {};
}

Status acl_clear(daemon::TargetSpec& t, const json&) {
  t.acl.clear();
  return {};
}

Status chap_set(daemon::TargetSpec& t, const json& request) {
  if (!request.contains("chap") || !request["chap"].is_object()) {
    return Error(
        "chap: is missing; give {\"user\": ..., \"secret\": ...} and, for mutual "
        "CHAP, mutual_user and mutual_secret");
  }
  const Expected<toml::table> table = control::json_to_toml(request["chap"]);
  if (!table.ok()) return Error("chap." + table.error().message);
  auto chap = daemon::parse_chap_table(*table, "chap");
  if (!chap.ok()) return chap.error();
  t.chap = *chap;
  return {};
}

Status chap_clear(daemon::TargetSpec& t, const json&) {
  if (!t.chap) return Error("target: " + t.name + " has no CHAP to clear");
  t.chap.reset();
  return {};
}

struct AccessCommand {
  const char* name;
  Change change;
};
constexpr AccessCommand kAccessCommands[] = {
    {"acl-add", acl_add},   {"acl-remove", acl_remove}, {"acl-clear", acl_clear},
    {"chap-set", chap_set}, {"chap-clear", chap_clear},
};

}  // namespace

void add_access_commands(control::ControlCommands& commands, daemon::Config& running,
                         iscsi::Server& server) {
  commands.add_command("access", [&running](const json& request) -> Expected<json> {
    json list = json::array();
    for (const daemon::TargetSpec& t : running.targets) {
      if (!request.contains("target") || request["target"] == t.name) {
        list.push_back(access_json(t));
      }
    }
    return json{{"targets", list}};
  });
  for (const AccessCommand& c : kAccessCommands) {
    commands.add_command(c.name, [&running, &server, c](const json& request) -> Expected<json> {
      const auto target = target_of(running, request);
      if (!target.ok()) return target.error();
      daemon::TargetSpec changed = **target;
      if (const Status e = c.change(changed, request); !e.ok()) return e.error();
      if (const Status e = server.set_security(changed.name, security_of(changed)); !e.ok()) {
        return e.error();
      }
      (*target)->acl = changed.acl;
      (*target)->chap = changed.chap;
      spdlog::info("{}: target {}: ACL {} initiator(s){}, CHAP {}", c.name, changed.name,
                   changed.acl.size(), changed.acl.empty() ? " (any initiator)" : "",
                   changed.chap ? "required" : "not required");
      return access_json(changed);
    });
  }
}

}  // namespace memstore::memstored
