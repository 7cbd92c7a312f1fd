// SPDX-License-Identifier: Apache-2.0
// The control socket's commands (docs/memstored.md, "Control socket"): one
// JSON object per request line, one per reply line. A table of commands,
// each either about the daemon (luns, lun-add, lun-remove, target-add,
// target-remove, sessions, connections, save) or about one
// LUN (stats, faults, fault-add, fault-remove, fault-clear, timing,
// power-cut); a
// LUN's commands run on the LUN's own thread, where its model lives,
// through the dispatch the caller gives (the server posts to the LUN's
// io_context; tests call it directly). The list of LUNs here is the
// daemon's: lun-add and lun-remove change it. No Asio here.
#pragma once

#include <cstdint>
#include <functional>
#include <nlohmann/json.hpp>
#include <string>
#include <variant>
#include <vector>

#include "base/expected.h"
#include "target/control/fault_json.h"
#include "target/control/session_json.h"
#include "target/driver/timed_lun.h"

namespace memstore::control {

using nlohmann::json;

struct ControlLun {
  std::string target;  // iSCSI target name
  std::uint16_t id = 0;
  std::string device;   // preset name
  std::string backing;  // image path or "memory"
  driver::TimedLun* driver = nullptr;
  // lunspec::memsim_device_args of its spec: a capture's replay command.
  std::string memsim_args;
};

class ControlCommands {
 public:
  using Reply = std::function<void(json)>;
  // Runs `work` on the thread of `driver`'s LUN, then `reply` with its
  // result on the caller's thread.
  using Dispatch = std::function<void(driver::TimedLun& driver,
                                      std::function<json(driver::TimedLun&)> work, Reply reply)>;

  ControlCommands(std::vector<ControlLun> luns, Dispatch dispatch);

  // What lun-add and lun-remove do, given by the daemon. add: opens the LUN
  // that `spec` (the keys of [[target.lun]]) describes and gives it to the
  // target's sessions; its entry, or an error naming the key and the fix.
  // remove: takes `lun` (already out of the list) away from the sessions
  // and retires it, or says why not. Without them both commands are refused.
  struct LunAdmin {
    std::function<Expected<ControlLun>(const std::string& target, const toml::table& spec)> add;
    std::function<Status(const ControlLun& lun)> remove;
  };
  void set_lun_admin(LunAdmin admin) { admin_ = std::move(admin); }
  // What target-add and target-remove do. add: opens the target that `spec`
  // (the keys of [[target]], its LUNs under "lun") describes, with its LUNs,
  // and serves it; its LUNs' entries, or an error naming the key and the
  // fix. remove: stops serving `target` and retires `luns`, its LUNs
  // (already out of the list), or says why not.
  struct TargetAdmin {
    std::function<Expected<std::vector<ControlLun>>(const toml::table& spec)> add;
    std::function<Status(const std::string& target, const std::vector<ControlLun>& luns)> remove;
  };
  void set_target_admin(TargetAdmin admin) { target_admin_ = std::move(admin); }
  // What `sessions` and `connections` list: the daemon asks its iSCSI
  // server and calls back, on the caller's thread, with every session in
  // the full feature phase. Without it both commands are refused.
  using SessionsQuery = std::function<void(std::function<void(std::vector<SessionInfo>)>)>;
  void set_sessions(SessionsQuery query) { sessions_ = std::move(query); }
  // What `save` does: the daemon writes the configuration it runs as TOML to
  // `file` (an absolute path), or, with `file` empty, gives the text back;
  // `done`, on the caller's thread, gets the reply's fields or an error
  // naming the fix. Without it `save` is refused.
  using SaveConfig =
      std::function<void(const std::string& file, std::function<void(Expected<json>)> done)>;
  void set_save(SaveConfig save) { save_ = std::move(save); }
  // A command of the daemon's own (memstored's acl-* and chap-*), answered at
  // once on the caller's thread: its reply's fields, or an error naming the
  // key and the fix. Listed with the others in the error for an unknown one.
  using DaemonCommand = std::function<Expected<json>(const json& request)>;
  void add_command(std::string name, DaemonCommand run) {
    daemon_commands_.emplace_back(std::move(name), std::move(run));
  }
  // The daemon's LUNs now, in the order they were added.
  const std::vector<ControlLun>& luns() const { return luns_; }

  // One request line; `reply` gets {"ok": true, ...} or {"ok": false,
  // "error": "..."} (an error names the key at fault and the fix), or, for a
  // JSON-RPC 2.0 request (json_rpc.h), its response. A JSON-RPC
  // notification gets no response: its reply is {kNotificationKey: the
  // command's reply}, for the log only.
  static constexpr const char* kNotificationKey = "notification";
  void handle(const std::string& line, const Reply& reply);
  // Every command's name, as rpc_get_methods lists them.
  std::vector<std::string> methods() const;

 private:
  // The request's target: named, or the only one there is.
  Expected<std::string> target_of(const json& request) const;
  // The LUN the request names by "target" and "lun".
  Expected<const ControlLun*> find(const json& request) const;
  json lun_add(const json& request);
  json lun_remove(const json& request);
  json target_add(const json& request);
  json target_remove(const json& request);
  void power_cut(const json& request, const Reply& reply);
  // trace-start and trace-stop (control_trace.cc; docs/memstored.md, "Traces").
  void trace_start(const json& request, const Reply& reply);
  void trace_stop(const json& request, const Reply& reply);
  void sessions(const std::string& cmd, const json& request, const Reply& reply);
  void save(const json& request, const Reply& reply);

  std::vector<ControlLun> luns_;
  Dispatch dispatch_;
  LunAdmin admin_;
  TargetAdmin target_admin_;
  SessionsQuery sessions_;
  SaveConfig save_;
  std::vector<std::pair<std::string, DaemonCommand>> daemon_commands_;
  std::string command_names() const;
  // One command object ({"cmd": ..., keys}), answered in the command form.
  void run(const json& request, const Reply& reply);
};

// The request's "file": an absolute path (the daemon's working directory is
// not the client's), or an error naming the key and `command`, whose memsctl
// option makes a relative path absolute.
Expected<std::string> absolute_file(const json& request, const std::string& command);

// Replies.
json ok(json fields = json::object());
json failure(const std::string& error);

}  // namespace memstore::control
