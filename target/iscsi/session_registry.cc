// SPDX-License-Identifier: Apache-2.0
#include "target/iscsi/session_registry.h"

#include <boost/asio/post.hpp>
#include <utility>
#include <vector>

namespace memstore::iscsi {

bool SessionRegistry::admit(const SessionIdentity& id, std::weak_ptr<Connection> connection,
                            std::size_t max_per_initiator, const Warn& warn) {
  std::vector<std::shared_ptr<Connection>> replaced;
  {
    const std::lock_guard lock(mutex_);
    auto same_port = [&](const SessionIdentity& other) {
      return !id.target.empty() && other.target == id.target && other.initiator == id.initiator &&
             other.isid == id.isid;
    };
    std::size_t of_initiator = 0;
    for (const auto& [nexus, s] : sessions_) {
      if (s.id.initiator == id.initiator && !same_port(s.id)) ++of_initiator;
    }
    if (of_initiator >= max_per_initiator) {
      warn("login refused: initiator " + id.initiator + " already has " +
           std::to_string(of_initiator) + " sessions (max_sessions_per_initiator)");
      return false;
    }
    for (auto it = sessions_.begin(); it != sessions_.end();) {
      if (same_port(it->second.id)) {
        if (auto c = it->second.connection.lock()) replaced.push_back(std::move(c));
        it = sessions_.erase(it);
      } else {
        ++it;
      }
    }
    sessions_[id.nexus] = Admitted{id, std::move(connection)};
  }
  for (auto& c : replaced) {
    warn("session reinstated: initiator " + id.initiator + " logged in again; its older " +
         "session to " + id.target + " ends");
    boost::asio::post(c->executor(), [c] { c->abort(); });
  }
  return true;
}

void SessionRegistry::leave(std::uint64_t nexus) {
  const std::lock_guard lock(mutex_);
  sessions_.erase(nexus);
}

void SessionRegistry::abort_target(const std::string& target) {
  abort_if(target, [](const SessionIdentity&) { return true; });
}

void SessionRegistry::abort_if(const std::string& target,
                               const std::function<bool(const SessionIdentity&)>& leaves) {
  const std::lock_guard lock(mutex_);
  for (const auto& [nexus, a] : sessions_) {
    if (a.id.target != target || !leaves(a.id)) continue;
    if (auto c = a.connection.lock()) boost::asio::post(c->executor(), [c] { c->abort(); });
  }
}

std::vector<SessionRegistry::Entry> SessionRegistry::snapshot() {
  const std::lock_guard lock(mutex_);
  std::vector<Entry> out;
  out.reserve(sessions_.size());
  for (const auto& [nexus, a] : sessions_) out.push_back({a.id, a.connection});
  return out;
}

void SessionRegistry::for_target(const std::string& target,
                                 const std::function<void(const SessionIdentity&)>& each) {
  const std::lock_guard lock(mutex_);
  for (const auto& [nexus, a] : sessions_) {
    if (a.id.target == target) each(a.id);
  }
}

}  // namespace memstore::iscsi
