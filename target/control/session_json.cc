// SPDX-License-Identifier: Apache-2.0
#include "target/control/session_json.h"

namespace memstore::control {

using nlohmann::json;

namespace {

bool wanted(const SessionInfo& s, const std::optional<std::string>& target) {
  return !target || s.target == *target;
}

json connection_json(const SessionInfo& s) {
  return {{"peer", s.peer}, {"portal", s.portal}};
}

}  // namespace

json sessions_json(const std::vector<SessionInfo>& sessions,
                   const std::optional<std::string>& target) {
  json list = json::array();
  for (const SessionInfo& s : sessions) {
    if (!wanted(s, target)) continue;
    json negotiated = json::object();
    for (const auto& [key, value] : s.negotiated) negotiated[key] = value;
    list.push_back({{"target", s.target},
                    {"initiator", s.initiator},
                    {"isid", s.isid},
                    {"tsih", s.tsih},
                    {"exp_cmd_sn", s.exp_cmd_sn},
                    {"max_cmd_sn", s.max_cmd_sn},
                    {"stat_sn", s.stat_sn},
                    {"commands_in_flight", s.commands_in_flight},
                    {"negotiated", negotiated},
                    {"connections", json::array({connection_json(s)})}});
  }
  return {{"ok", true}, {"sessions", list}};
}

json connections_json(const std::vector<SessionInfo>& sessions,
                      const std::optional<std::string>& target) {
  json list = json::array();
  for (const SessionInfo& s : sessions) {
    if (!wanted(s, target)) continue;
    json c = connection_json(s);
    c["target"] = s.target;
    c["initiator"] = s.initiator;
    c["isid"] = s.isid;
    c["tsih"] = s.tsih;
    list.push_back(c);
  }
  return {{"ok", true}, {"connections", list}};
}

}  // namespace memstore::control
