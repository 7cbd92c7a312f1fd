// SPDX-License-Identifier: Apache-2.0
// The sessions in the full feature phase, from every loop, each with its
// connection: who is logged in to which target, for reinstatement (RFC 7143
// §6.3.5), the per-initiator limit, and a target changed while it runs (its
// sessions end with it; a new LUN learns of them). Behind a mutex, since
// logins on different loops are admitted at once; never on the READ/WRITE
// path.
#pragma once

#include <cstddef>
#include <cstdint>
#include <functional>
#include <memory>
#include <mutex>
#include <string>
#include <unordered_map>
#include <vector>

#include "target/iscsi/connection.h"
#include "target/iscsi/session_limits.h"

namespace memstore::iscsi {

class SessionRegistry {
 public:
  // What an operator should see: a login refused by the limit, a session
  // reinstated.
  using Warn = std::function<void(const std::string&)>;

  // A session entering the full feature phase: an older session of the same
  // initiator port on the same target is ended (its connection aborted on
  // its own loop; at ErrorRecoveryLevel 0 its tasks end with it), then at
  // most `max_per_initiator` sessions of one InitiatorName may remain.
  // False, and nothing recorded, when the limit refuses this one.
  bool admit(const SessionIdentity& id, std::weak_ptr<Connection> connection,
             std::size_t max_per_initiator, const Warn& warn);
  // The session of `nexus` is gone (its connection finished).
  void leave(std::uint64_t nexus);
  // Ends every session logged in to `target`: their connections are
  // aborted, each on its own loop.
  void abort_target(const std::string& target);
  // Ends the sessions logged in to `target` for which `leaves` says so.
  void abort_if(const std::string& target,
                const std::function<bool(const SessionIdentity&)>& leaves);
  // Calls `each` for every session logged in to `target`, with the registry
  // locked: `each` must not call back into it.
  void for_target(const std::string& target,
                  const std::function<void(const SessionIdentity&)>& each);
  // Every session now, each with its connection (which may end at any time:
  // ask it on its own loop).
  struct Entry {
    SessionIdentity id;
    std::weak_ptr<Connection> connection;
  };
  std::vector<Entry> snapshot();

 private:
  struct Admitted {
    SessionIdentity id;
    std::weak_ptr<Connection> connection;
  };
  std::mutex mutex_;
  std::unordered_map<std::uint64_t, Admitted> sessions_;  // by nexus
};

}  // namespace memstore::iscsi
