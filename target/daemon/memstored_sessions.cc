// SPDX-License-Identifier: Apache-2.0
#include "target/daemon/memstored_sessions.h"

#include <utility>
#include <vector>

#include "target/iscsi/negotiation.h"
#include "target/iscsi/session_limits.h"

namespace memstore::memstored {

control::ControlCommands::SessionsQuery sessions_query(iscsi::Server& server) {
  return [&server](std::function<void(std::vector<control::SessionInfo>)> done) {
    server.sessions([done = std::move(done)](std::vector<iscsi::Server::SessionView> views) {
      std::vector<control::SessionInfo> list;
      list.reserve(views.size());
      for (const iscsi::Server::SessionView& v : views) {
        const iscsi::SessionStatus& s = v.connection.session;
        list.push_back({v.id.target, v.id.initiator, iscsi::isid_hex(v.id.isid), s.tsih,
                        v.connection.peer, v.connection.portal, s.exp_cmd_sn, s.max_cmd_sn,
                        s.stat_sn, s.commands_in_flight, iscsi::params_keys(s.params)});
      }
      done(std::move(list));
    });
  };
}

}  // namespace memstore::memstored
