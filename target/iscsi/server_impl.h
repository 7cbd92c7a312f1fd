// SPDX-License-Identifier: Apache-2.0
// The server's state (server.h), shared by its source files: server.cc
// (acceptors, targets and LUNs), server_running.cc (what an operator reads
// and changes while it runs). Private to the server.
#pragma once

// server.h first: Boost.Asio's coroutine headers rely on what it includes.
#include "target/iscsi/server.h"
// clang-format off
#include <unistd.h>

#include <algorithm>
#include <atomic>
#include <boost/asio.hpp>
#include <boost/asio/co_spawn.hpp>
#include <boost/asio/detached.hpp>
#include <boost/asio/redirect_error.hpp>
#include <boost/asio/use_awaitable.hpp>
#include <limits>
#include <mutex>
#include <tuple>
#include <utility>
#include <variant>

#include "target/driver/loop_bridge.h"
#include "target/driver/timed_lun.h"
#include "target/iscsi/address_text.h"
#include "target/iscsi/connection.h"
#include "target/iscsi/placement.h"
#include "target/iscsi/session_registry.h"
// clang-format on

namespace memstore::iscsi {

namespace asio = boost::asio;
using asio::awaitable;
using asio::ip::tcp;

struct Server::Impl {
  explicit Impl(asio::io_context& server_io) : io(server_io), loops{&server_io} {}

  asio::io_context& io;  // acceptors, and everything of the server itself
  // The event loops connections are spread over, round robin; loops[0] is `io`.
  std::vector<asio::io_context*> loops;
  // A target served: its setup (portals with their bound ports), its portal
  // group tag, and its context on each loop.
  struct Served {
    TargetSetup setup;
    std::uint16_t tpgt = 0;
    std::vector<TargetContext*> on_loop;
    // Shared with every loop's context (TargetContext::off_until).
    std::shared_ptr<std::atomic<std::int64_t>> off_until =
        std::make_shared<std::atomic<std::int64_t>>(0);
  };
  std::vector<std::unique_ptr<Served>> targets;  // in the order they were added
  std::uint16_t next_tpgt = 1;                   // one portal group per target
  // Per loop: the targets its sessions find by name, touched on that loop
  // only. The contexts themselves, with their bridges, stay until the
  // server goes: a session holds its target's context while it lives, and
  // one logged in to a removed target may still be on its way out.
  std::vector<std::vector<TargetContext*>> live;
  std::vector<std::unique_ptr<TargetContext>> contexts;
  std::vector<std::unique_ptr<driver::LoopBridge>> bridges;
  // Read on the server's loop only (sessions are made there, at accept).
  LoginConfig discovery;
  // The listening sockets, one per portal; targets on the same address and
  // (non-zero) port share one. Closed ones stay until the server goes: their
  // accept loop may still be finishing.
  struct Listener {
    std::string host;
    std::uint16_t port = 0;  // bound
    std::unique_ptr<tcp::acceptor> acceptor;
  };
  std::vector<Listener> listeners;
  bool started = false;
  // Every connection accepted; expired entries are pruned as new ones come.
  std::vector<std::weak_ptr<Connection>> connections;
  std::atomic<std::size_t> open_connections{0};
  std::uint64_t next_nexus = 1;
  std::size_t next_loop = 0;
  ServerLimits limits;
  std::function<void(const std::string&)> warn = [](const std::string&) {};
  std::uint16_t next_tsih = 1;
  bool refusing = false;  // at max_connections; logged once until it passes
  bool stopped = false;   // stop() ran: a connection on its way to another loop is dropped

  // The sessions in the full feature phase, from every loop; admit() is
  // what each session asks as its login ends (AdmitSession).
  SessionRegistry sessions;
  bool admit(const SessionIdentity& id, std::weak_ptr<Connection> connection) {
    return sessions.admit(id, std::move(connection), limits.max_sessions_per_initiator, warn);
  }
  SecurityLog security_log;            // refused logins (set_security_log)
  Session::EventLog event_log;         // set_event_log
  Session::EventLog debug_log;         // set_debug_log
  std::function<bool()> debug_wanted;  // set_debug_log

  Expected<Served*> served(const std::string& target) const;
  void announce_luns(const TargetSetup& t);
  Status bind_portals(Served& t);
  void install(Served& t);
  void take_lun(Served& t, std::uint16_t id,
                std::function<void(std::unique_ptr<driver::TimedLun>)> removed);
  void close_unused_listeners();

  const TargetContext* find(std::size_t loop, std::string_view name) const {
    for (const TargetContext* c : live.at(loop)) {
      if (c->name == name) return c;
    }
    return nullptr;
  }

  awaitable<void> accept_loop(tcp::acceptor& acceptor) {
    boost::system::error_code ec;
    asio::steady_timer pause(io);
    bool starved = false;  // out of descriptors or memory; logged once until it passes
    for (;;) {
      const std::size_t loop = next_loop++ % loops.size();
      // Accepted straight onto the connection's own loop.
      tcp::socket socket = co_await acceptor.async_accept(
          *loops[loop], asio::redirect_error(asio::use_awaitable, ec));
      if (ec) {
        if (ec == asio::error::operation_aborted || !acceptor.is_open()) co_return;
        // The connection waits in the backlog and the listening socket
        // stays ready: trying again at once would spin. Pause instead.
        if (!starved) {
          warn("accept: " + ec.message() + "; trying again every 100 ms");
          starved = true;
        }
        pause.expires_after(std::chrono::milliseconds(100));
        co_await pause.async_wait(asio::redirect_error(asio::use_awaitable, ec));
        continue;
      }
      starved = false;
      if (open_connections.load(std::memory_order_relaxed) >= limits.max_connections) {
        if (!refusing) {
          warn("connection refused: " + std::to_string(limits.max_connections) +
               " connections open (max_connections)");
          refusing = true;
        }
        socket.close(ec);
        continue;
      }
      refusing = false;
      socket.set_option(tcp::no_delay(true), ec);
      std::string peer = "unknown peer";  // for the security log: "address:port"
      if (const tcp::endpoint remote = socket.remote_endpoint(ec); !ec) {
        peer = address_text(remote.address().to_string(), remote.port());
      }
      if (debug_log && debug_wanted && debug_wanted())
        debug_log("connection accepted from " + peer);
      open(std::move(socket), loop, std::move(peer), std::nullopt);
    }
  }

  // A connection on loops[loop], its socket already there; `first`: the login
  // it read on the loop it was accepted onto (rehome()). On the server's loop.
  // A moved connection's login deadline starts again here: a connection
  // moves once, so its login gets at most twice login_timeout.
  void open(tcp::socket socket, std::size_t loop, std::string peer, std::optional<FirstPdu> first) {
    const std::uint64_t nexus = next_nexus++;
    const std::uint16_t tsih = next_tsih++;
    if (next_tsih == 0) next_tsih = 1;  // TSIH 0 is reserved (RFC 7143 §11.12.3)
    // The address the initiator reached, for a wildcard portal's SendTargets
    // answer (LoginConfig::local_host); an IPv4 peer on a dual-stack
    // listener reached the IPv4 address, not its IPv6 mapping.
    std::string local;
    boost::system::error_code ec;
    if (asio::ip::address a = socket.local_endpoint(ec).address(); !ec) {
      if (a.is_v6() && a.to_v6().is_v4_mapped()) {
        a = asio::ip::make_address_v4(asio::ip::v4_mapped, a.to_v6());
      }
      local = a.to_string();
    }
    // The connection, for admit(): set before it starts.
    auto self = std::make_shared<std::weak_ptr<Connection>>();
    Placement placement;
    if (first) {
      placement.first = std::move(first);
    } else if (loops.size() > 1) {
      placement.rehome = [this, loop, peer](tcp::socket& s, FirstPdu& f) {
        return rehome(loop, peer, s, f);
      };
    }
    auto conn = make_connection(
        std::move(socket),
        [this, nexus, tsih, loop, self, peer, local](Session::Sink sink) {
          auto session = std::make_unique<Session>(
              [this, loop](std::string_view n) { return find(loop, n); }, discovery, nexus, tsih,
              std::move(sink), limits.session,
              [this, self](const SessionIdentity& id) { return admit(id, *self); });
          session->set_audit(peer, security_log);
          session->set_local_host(local);
          session->set_event_log(event_log);
          session->set_debug_log(debug_log, debug_wanted);
          return session;
        },
        limits.connection, open_connections, [this, nexus] { sessions.leave(nexus); },
        std::move(placement));
    *self = conn;
    if (connections.size() >= 64 && (connections.size() & (connections.size() - 1)) == 0) {
      std::erase_if(connections, [](const auto& w) { return w.expired(); });
    }
    connections.push_back(conn);
    asio::post(conn->executor(), [conn] { conn->start(); });
  }

  // On loops[from], at a connection's first PDU: when it is a login to a
  // target whose LUNs all live on one other loop, the socket moves there
  // with the PDU and the connection opens again on it (Placement). One
  // session per LUN loop then does its socket work on the LUN's own thread:
  // no post across threads per command, and no copy of each write's data
  // (docs/benchmarks/log/2026-11-27.md, "Connections on their LUNs' loop"). A
  // discovery
  // session, an unknown target, or one whose LUNs span loops stays.
  bool rehome(std::size_t from, const std::string& peer, tcp::socket& socket, FirstPdu& first) {
    const auto to = home_of(from, first);
    if (!to) return false;
    boost::system::error_code ec;
    const tcp::endpoint local = socket.local_endpoint(ec);
    if (ec) return false;
    const int fd = socket.release(ec);
    if (ec) return false;
    tcp::socket moved(*loops[*to]);
    moved.assign(local.protocol(), fd, ec);
    if (ec) {
      ::close(fd);
      return true;  // the connection is lost either way; it had nothing answered yet
    }
    asio::post(
        io, [this, to = *to, peer, first = std::move(first), moved = std::move(moved)]() mutable {
          if (stopped) return;  // the socket closes with the handler
          open(std::move(moved), to, peer, std::move(first));
        });
    return true;
  }

  // The loop holding every LUN of the target a login names, when that is
  // not `from`. Reads only loop `from`'s own tables.
  std::optional<std::size_t> home_of(std::size_t from, const FirstPdu& first) const {
    const void* home = target_loop(
        first.bhs, first.rest, [this, from](std::string_view name) { return find(from, name); });
    for (std::size_t i = 0; i < loops.size(); ++i) {
      if (home != nullptr && loops[i] == home && i != from) return i;
    }
    return {};
  }
};

}  // namespace memstore::iscsi
