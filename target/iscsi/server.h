// SPDX-License-Identifier: Apache-2.0
// The iSCSI target server (RFC 7143) on Boost.Asio: listens on the configured
// portals and runs one Session per connection.
//
// Threads: the server runs on one or more event loops (io_contexts), each
// run by one thread. Acceptors live on the first; each connection, with its
// session, lives on one loop (round robin), and each LUN (driver::TimedLun)
// on the loop it was made with. A session reaches a LUN on another loop
// through a driver::LoopBridge (target/driver/loop_bridge.h). Nothing is
// shared between loops but what a bridge posts, so sessions and LUNs need no
// locks.
#pragma once

#include <chrono>
#include <cstdint>
#include <functional>
#include <map>
#include <memory>
#include <optional>
#include <string>
#include <vector>

#include "base/expected.h"
#include "target/iscsi/connection.h"
#include "target/iscsi/session.h"

namespace boost::asio {
class io_context;
}

namespace memstore::driver {
class TimedLun;
}

namespace memstore::iscsi {

struct TargetSetup {
  std::string name;
  std::string alias;
  std::vector<std::pair<std::string, std::uint16_t>> portals;  // host, port
  SecurityConfig security;
  std::map<std::uint16_t, std::unique_ptr<driver::TimedLun>> luns;
};

// Every resource a remote peer controls, bounded (docs/memstored.md,
// "Limits").
struct ServerLimits {
  // Connections open at once, logged in or not; more are closed at accept.
  std::size_t max_connections = 1024;
  // Sessions of one InitiatorName in the full feature phase, over all
  // targets; a login beyond gets "out of resources" (RFC 7143 §11.13.5).
  std::size_t max_sessions_per_initiator = 64;
  ConnectionLimits connection;
  SessionLimits session;
};

class Server {
 public:
  explicit Server(boost::asio::io_context& io);
  ~Server();

  // The event loops connections are spread over (the server's own io_context
  // is always the first). Set before start(); default: the server's only.
  void set_loops(std::vector<boost::asio::io_context*> loops);
  // Adds a target; its portals start listening when start() runs.
  void add_target(TargetSetup target);
  // Pings every connection with a NOP-In this often, and ends one whose
  // previous ping went unanswered (0: never). Set before start().
  void set_nop_in_interval(std::chrono::seconds interval);
  // Replaces every limit (the NOP-In interval included). Set before start().
  void set_limits(const ServerLimits& limits);
  // Where the server reports what an operator should see (a limit reached,
  // a session reinstated); called on any loop, rate-limited by the caller's
  // choice of what to report: each is said once per episode.
  void set_warn(std::function<void(const std::string&)> warn);
  // Where the sessions' events go (Session::set_event_log: logins, logouts,
  // dropped connections, task management), from every loop's thread: the log
  // must be thread-safe. Set before start().
  void set_event_log(std::function<void(const std::string&)> log);
  // Where the debug lines go (Session::set_debug_log, and each connection
  // accepted), from every loop's thread, while `wanted` says so; unset, none
  // is built. Set before start().
  void set_debug_log(std::function<void(const std::string&)> log, std::function<bool()> wanted);
  // Where refused logins are reported (security_event.h), from every
  // loop's thread: the log must be thread-safe. Set before start().
  void set_security_log(SecurityLog log);
  // CHAP that discovery sessions must pass (RFC 7143 §12.1); none: discovery
  // needs no authentication. Set before start().
  void set_discovery_chap(std::optional<ChapConfig> chap);
  // Binds every portal. Returns an error naming the portal.
  Status start();
  // Adds a LUN to a target while the server runs (the control socket):
  // every loop's sessions reach it from their next command on, and every
  // LUN of the target gets the new list for REPORT LUNS, with REPORTED LUNS
  // DATA HAS CHANGED for its I_T nexuses. An error names what is wrong (no
  // such target, the number taken), Call on the server's
  // io_context, after start().
  Status add_lun(const std::string& target, std::uint16_t id,
                 std::unique_ptr<driver::TimedLun> driver);
  // Removes a LUN from a target while the server runs. At once, commands to
  // it get LOGICAL UNIT NOT SUPPORTED and the other LUNs report the change
  // as add_lun() does; once every loop has let go of the LUN, `removed`
  // gets its driver on the server's io_context, to retire on its own loop
  // (driver::TimedLun::retire) and then destroy. The loops' bridges to it stay, as
  // answering stubs, until the server goes. Returns an error when it cannot.
  Status remove_lun(const std::string& target, std::uint16_t id,
                    std::function<void(std::unique_ptr<driver::TimedLun>)> removed);
  // Adds a target while the server runs (the control socket): its portals
  // that no target listens on yet are bound (a target may share an address
  // and port with another), discovery lists it to sessions opened from now
  // on, and logins find it. An error names the portal or the name taken,
  // and then nothing changed: `target` is taken only on success, so that
  // the caller can close its LUNs' drivers on their own loops otherwise.
  // Call on the server's io_context, after start().
  Status add_running_target(TargetSetup& target);
  // Removes a target while the server runs: logins and discovery no longer
  // find it, its sessions end (their connections close), its LUNs are taken
  // away as by remove_lun() (each driver to `removed`), and the portals no
  // other target uses stop listening. Returns an error when it cannot.
  Status remove_running_target(const std::string& target,
                               std::function<void(std::unique_ptr<driver::TimedLun>)> removed);
  // A LUN of `target` lost its power (scsi::Lun::set_power_lost): logins to
  // the target are refused for `off` (RFC 7143 §11.13.5, Service
  // Unavailable: the initiator tries again), and every session logged in
  // to it ends, its connections aborted on their own loops (at
  // ErrorRecoveryLevel 0 their tasks end with them). Any thread; done on
  // the server's io_context.
  void power_cut(const std::string& target, std::chrono::nanoseconds off);
  // Replaces a target's access control while the server runs (the control
  // socket's acl-* and chap-* commands, SIGHUP): logins and discovery answer
  // by the new ACL and CHAP from now on. A session already logged in stays
  // unless the new ACL leaves its initiator out: then it ends, its
  // connection aborted on its own loop. Sessions that passed the old CHAP
  // stay (CHAP is checked at login, RFC 7143 §12.1). An error names the
  // target when it is not served. Call on the server's io_context.
  Status set_security(const std::string& target, const SecurityConfig& security);
  // Every session in the full feature phase, with its connection's status
  // (memsctl admin sessions), sorted by target, initiator and ISID. Each
  // connection is asked on its own loop; `done` runs on the server's
  // io_context once all have answered. A session whose connection ends
  // meanwhile is left out. Call on the server's io_context.
  struct SessionView {
    SessionIdentity id;
    ConnectionStatus connection;
  };
  void sessions(std::function<void(std::vector<SessionView>)> done);
  // Stops accepting and closes every connection (their sessions end). Call
  // it on the server's io_context.
  void stop();

  // The ports actually bound (useful with port 0), in portal order: each
  // target's portals, targets in the order they were added.
  std::vector<std::uint16_t> bound_ports() const;
  // Connections not yet finished; callable from any thread.
  std::size_t connections() const;
  // How many of the connections live on each loop, in set_loops() order
  // (ended ones may count until they are gone). Call on the server's
  // io_context.
  std::vector<std::size_t> connections_by_loop() const;

 private:
  struct Impl;
  std::unique_ptr<Impl> impl_;
};

}  // namespace memstore::iscsi
