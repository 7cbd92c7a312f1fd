// SPDX-License-Identifier: Apache-2.0
// The control socket's `sessions` and `connections` replies
// (docs/memstored.md, "Control socket"): what tgtadm --op show and
// targetcli's `sessions` show of who is logged in, here from the iSCSI
// server's registry as the daemon hands it over (no iSCSI types here).
#pragma once

#include <cstddef>
#include <cstdint>
#include <optional>
#include <string>
#include <utility>
#include <vector>

#include <nlohmann/json.hpp>

namespace memstore::control {

// One session in the full feature phase with its connection (one per
// session: memstored negotiates MaxConnections=1).
struct SessionInfo {
  std::string target;
  std::string initiator;  // InitiatorName
  std::string isid;       // 12 hex digits
  std::uint16_t tsih = 0;
  std::string peer;    // the initiator's address and port
  std::string portal;  // the target's address and port it came to
  std::uint32_t exp_cmd_sn = 0;
  std::uint32_t max_cmd_sn = 0;
  std::uint32_t stat_sn = 0;
  std::size_t commands_in_flight = 0;
  // The negotiated parameters by RFC 7143 key name.
  std::vector<std::pair<std::string, std::string>> negotiated;
};

// {"sessions": [...]}: per session its target, initiator, ISID, TSIH, the
// command window, the commands in flight, the negotiated parameters and
// its connection; only `target`'s when given.
nlohmann::json sessions_json(const std::vector<SessionInfo>& sessions,
                             const std::optional<std::string>& target);
// {"connections": [...]}: per connection its peer, portal, target,
// initiator and ISID; only `target`'s when given.
nlohmann::json connections_json(const std::vector<SessionInfo>& sessions,
                                const std::optional<std::string>& target);

}  // namespace memstore::control
