// The control socket's commands (docs/memstored.md, "Control socket"): one
// JSON object per request line, one per reply line. A table of commands,
// each either about the daemon (luns) or about one LUN (stats, faults,
// fault-add, fault-remove, fault-clear, timing); a LUN's commands run on
// the LUN's own thread, where its model lives, through the dispatch the
// caller gives (the server posts to the LUN's io_context; tests call it
// directly). No Asio here.
#pragma once

#include <cstdint>
#include <functional>
#include <nlohmann/json.hpp>
#include <string>
#include <vector>

#include "target/iscsi/lun_driver.h"

namespace memstore::control {

using nlohmann::json;

struct ControlLun {
  std::string target;  // iSCSI target name
  std::uint16_t id = 0;
  std::string device;   // preset name
  std::string backing;  // image path or "memory"
  iscsi::LunDriver* driver = nullptr;
};

class ControlCommands {
 public:
  using Reply = std::function<void(json)>;
  // Runs `work` on the thread of `driver`'s LUN, then `reply` with its
  // result on the caller's thread.
  using Dispatch = std::function<void(iscsi::LunDriver& driver,
                                      std::function<json(iscsi::LunDriver&)> work, Reply reply)>;

  ControlCommands(std::vector<ControlLun> luns, Dispatch dispatch);

  // One request line; `reply` gets {"ok": true, ...} or {"ok": false,
  // "error": "..."} (an error names the key at fault and the fix).
  void handle(const std::string& line, const Reply& reply) const;

 private:
  const ControlLun* find(const json& request, std::string& error) const;

  std::vector<ControlLun> luns_;
  Dispatch dispatch_;
};

// Replies.
json failure(const std::string& error);

}  // namespace memstore::control
