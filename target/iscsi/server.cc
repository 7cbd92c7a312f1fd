// SPDX-License-Identifier: Apache-2.0
// The Asio side of the target: acceptors (a coroutine each), the targets
// and their LUNs on every loop, and the limit on connections; the sessions
// logged in, with reinstatement and their limit, in session_registry.h. Each
// connection is a Connection (connection.h); everything protocol-level is
// in Session.
#include "target/iscsi/server.h"

#include "target/iscsi/server_impl.h"

namespace memstore::iscsi {

Server::Server(asio::io_context& io) : impl_(std::make_unique<Impl>(io)) {}
Server::~Server() = default;

void Server::set_loops(std::vector<asio::io_context*> loops) {
  if (loops.empty() || loops.front() != &impl_->io) loops.insert(loops.begin(), &impl_->io);
  impl_->loops = std::move(loops);
}

void Server::set_nop_in_interval(std::chrono::seconds interval) {
  impl_->limits.connection.nop_in_interval = interval;
}

void Server::set_limits(const ServerLimits& limits) {
  impl_->limits = limits;
}

void Server::set_warn(std::function<void(const std::string&)> warn) {
  impl_->warn = std::move(warn);
}

void Server::set_event_log(std::function<void(const std::string&)> log) {
  impl_->event_log = std::move(log);
}

void Server::set_debug_log(std::function<void(const std::string&)> log,
                           std::function<bool()> wanted) {
  impl_->debug_log = std::move(log);
  impl_->debug_wanted = std::move(wanted);
}

void Server::set_security_log(SecurityLog log) {
  impl_->security_log = std::move(log);
}

void Server::set_discovery_chap(std::optional<ChapConfig> chap) {
  impl_->discovery.security.discovery_chap = std::move(chap);
}

void Server::add_target(TargetSetup target) {
  auto t = std::make_unique<Impl::Served>();
  t->setup = std::move(target);
  impl_->targets.push_back(std::move(t));
}

// Binds the target's portals that no other target listens on yet (port 0
// always binds a new one), and records the bound ports in its setup. On an
// error nothing stays bound for it.
Status Server::Impl::bind_portals(Served& t) {
  const std::size_t before = listeners.size();
  for (auto& portal : t.setup.portals) {
    const std::string& host = portal.first;
    std::uint16_t& port = portal.second;
    const auto shared = std::find_if(listeners.begin(), listeners.end(), [&](const Listener& l) {
      return portal.second != 0 && l.acceptor->is_open() && l.host == portal.first &&
             l.port == portal.second;
    });
    if (shared != listeners.end()) continue;
    boost::system::error_code ec;
    std::string error;
    const auto address = asio::ip::make_address(host, ec);
    if (ec) {
      error = "not a numeric IP address";
    } else {
      auto acceptor = std::make_unique<tcp::acceptor>(io);
      const tcp::endpoint endpoint(address, port);
      acceptor->open(endpoint.protocol(), ec);
      if (!ec) acceptor->set_option(tcp::acceptor::reuse_address(true), ec);
      if (!ec) acceptor->bind(endpoint, ec);
      if (!ec) acceptor->listen(asio::socket_base::max_listen_connections, ec);
      if (!ec) {
        port = acceptor->local_endpoint().port();
        listeners.push_back({host, port, std::move(acceptor)});
        continue;
      }
      error = ec.message();
    }
    for (std::size_t i = before; i < listeners.size(); ++i) {
      boost::system::error_code ignored;
      listeners[i].acceptor->close(ignored);
    }
    listeners.resize(before);
    return Error("portal " + host + ":" + std::to_string(port) + ": " + error);
  }
  for (std::size_t i = before; i < listeners.size(); ++i) {
    asio::co_spawn(io, accept_loop(*listeners[i].acceptor), asio::detached);
  }
  return {};
}

// The target's discovery entry and its context on every loop, with a bridge
// to each of its LUNs. Once the loops run, each loop adds the context to
// its own list.
void Server::Impl::install(Served& t) {
  t.tpgt = next_tpgt++;
  DiscoveryEntry e;
  e.target_name = t.setup.name;
  e.follow(t.setup.security);
  for (const auto& [host, port] : t.setup.portals) {
    e.addresses.push_back(address_text(host, port) + "," + std::to_string(t.tpgt));
  }
  TargetContext c;
  c.name = t.setup.name;
  c.off_until = t.off_until;
  c.login.limits.target_name = t.setup.name;
  if (!t.setup.alias.empty()) c.login.limits.target_alias = t.setup.alias;
  c.login.limits.target_portal_group_tag = t.tpgt;
  c.login.security = t.setup.security;
  // A normal session's SendTargets answers for its own target (RFC 7143 §13.3).
  c.login.send_targets = {e};
  discovery.send_targets.push_back(std::move(e));
  for (std::size_t loop = 0; loop < loops.size(); ++loop) {
    auto on_loop = std::make_unique<TargetContext>(c);
    for (auto& [id, lun] : t.setup.luns) {
      bridges.push_back(std::make_unique<driver::LoopBridge>(*loops[loop], *lun));
      on_loop->luns[id] = bridges.back().get();
    }
    TargetContext* p = on_loop.get();
    t.on_loop.push_back(p);
    contexts.push_back(std::move(on_loop));
    if (started) {
      asio::post(*loops[loop], [this, loop, p] { live[loop].push_back(p); });
    } else {
      live[loop].push_back(p);
    }
  }
}

Status Server::start() {
  Impl& s = *impl_;
  // Bind every portal first: port 0 resolves here, and discovery answers
  // carry the real ports. The accept loops only run once the io_context
  // runs, after the targets below are in place.
  for (auto& t : s.targets) {
    if (Status e = s.bind_portals(*t); !e.ok()) return e;
  }
  s.live.assign(s.loops.size(), {});
  s.discovery.limits.target_name = "";
  s.discovery.send_targets.clear();
  for (auto& t : s.targets) s.install(*t);
  s.started = true;
  return {};
}

Status Server::add_running_target(TargetSetup& target) {
  Impl& s = *impl_;
  if (s.served(target.name).ok()) {
    return Error("name: target '" + target.name + "' is served already; remove it first");
  }
  auto t = std::make_unique<Impl::Served>();
  t->setup = std::move(target);
  if (Status e = s.bind_portals(*t); !e.ok()) {
    target = std::move(t->setup);  // the caller's again
    return e;
  }
  s.install(*t);
  s.targets.push_back(std::move(t));
  return {};
}

Status Server::remove_running_target(
    const std::string& target, std::function<void(std::unique_ptr<driver::TimedLun>)> removed) {
  Impl& s = *impl_;
  const auto found = s.served(target);
  if (!found.ok()) return found.error();
  Impl::Served& t = **found;
  // New logins no longer find it, and discovery no longer lists it.
  for (std::size_t loop = 0; loop < s.loops.size(); ++loop) {
    asio::post(*s.loops[loop], [&s, loop, p = t.on_loop[loop]] { std::erase(s.live[loop], p); });
  }
  std::erase_if(s.discovery.send_targets,
                [&](const DiscoveryEntry& e) { return e.target_name == target; });
  // Its LUNs answer LOGICAL UNIT NOT SUPPORTED from now on, and are retired.
  std::vector<std::uint16_t> ids;
  for (const auto& [id, driver] : t.setup.luns) ids.push_back(id);
  for (const std::uint16_t id : ids) s.take_lun(t, id, removed);
  // Its sessions end (at ErrorRecoveryLevel 0 their tasks end with them).
  s.sessions.abort_target(target);
  std::erase_if(s.targets, [&](const auto& p) { return p.get() == &t; });
  s.close_unused_listeners();
  return {};
}

// Closes the listeners no served target names any more.
void Server::Impl::close_unused_listeners() {
  for (Listener& l : listeners) {
    if (!l.acceptor->is_open()) continue;
    bool used = false;
    for (const auto& t : targets) {
      for (const auto& [host, port] : t->setup.portals) used |= host == l.host && port == l.port;
    }
    if (used) continue;
    boost::system::error_code ignored;
    l.acceptor->close(ignored);
  }
}

void Server::stop() {
  impl_->stopped = true;
  for (auto& l : impl_->listeners) {
    boost::system::error_code ignored;
    l.acceptor->close(ignored);
  }
  for (auto& w : impl_->connections) {
    if (auto c = w.lock()) asio::post(c->executor(), [c] { c->close(); });
  }
}

// The target named `target`, or an error.
Expected<Server::Impl::Served*> Server::Impl::served(const std::string& target) const {
  for (const auto& t : targets) {
    if (t->setup.name == target) return t.get();
  }
  return Error("target: no target '" + target + "' (`luns` lists the targets with LUNs)");
}

// Every LUN of the target learns the target's LUNs now (REPORT LUNS), on
// its own loop.
void Server::Impl::announce_luns(const TargetSetup& t) {
  std::vector<std::uint16_t> ids;
  for (const auto& [id, driver] : t.luns) ids.push_back(id);
  for (const auto& [id, driver] : t.luns) {
    asio::post(driver->context(), [d = driver.get(), ids] { d->lun().change_target_luns(ids); });
  }
}

Status Server::add_lun(const std::string& target, std::uint16_t id,
                       std::unique_ptr<driver::TimedLun> driver) {
  Impl& s = *impl_;
  const auto found = s.served(target);
  if (!found.ok()) return found.error();
  Impl::Served& served = **found;
  TargetSetup& t = served.setup;
  if (t.luns.contains(id)) {
    return Error("lun: target '" + target + "' has a LUN " + std::to_string(id) +
                 " already; remove it first or choose another number");
  }
  driver::TimedLun& d = *driver;
  t.luns[id] = std::move(driver);
  for (std::size_t loop = 0; loop < s.loops.size(); ++loop) {
    s.bridges.push_back(std::make_unique<driver::LoopBridge>(*s.loops[loop], d));
    // Each loop's contexts are touched on that loop only.
    asio::post(*s.loops[loop], [c = served.on_loop[loop], id, bridge = s.bridges.back().get()] {
      c->luns[id] = bridge;
    });
  }
  // The list first, then the sessions: the new LUN has no change of its
  // own to report to them.
  s.announce_luns(t);
  // The target's sessions, described to the new LUN as their logins
  // described them to the others (a login on another loop that has not
  // reached the full feature phase yet may miss it: its nexus is then known
  // by number only, as an undescribed one).
  s.sessions.for_target(target, [&d](const SessionIdentity& session) {
    asio::post(d.context(), [&d, nexus = session.nexus,
                             port = initiator_port_name(session.initiator, session.isid)] {
      d.describe_nexus(nexus, port);
    });
  });
  return {};
}

Status Server::remove_lun(const std::string& target, std::uint16_t id,
                          std::function<void(std::unique_ptr<driver::TimedLun>)> removed) {
  Impl& s = *impl_;
  const auto found = s.served(target);
  if (!found.ok()) return found.error();
  Impl::Served& t = **found;
  if (!t.setup.luns.contains(id)) {
    return Error("lun: target '" + target + "' has no LUN " + std::to_string(id));
  }
  s.take_lun(t, id, std::move(removed));
  s.announce_luns(t.setup);
  return {};
}

// Takes LUN `id` from the target: every loop retires its bridge (commands
// get LOGICAL UNIT NOT SUPPORTED), and once all have, `removed` gets the
// driver on the server's loop.
void Server::Impl::take_lun(Served& t, std::uint16_t id,
                            std::function<void(std::unique_ptr<driver::TimedLun>)> removed) {
  const auto it = t.setup.luns.find(id);
  auto held = std::make_shared<std::unique_ptr<driver::TimedLun>>(std::move(it->second));
  t.setup.luns.erase(it);
  auto loops_left = std::make_shared<std::size_t>(loops.size());
  auto done =
      std::make_shared<std::function<void(std::unique_ptr<driver::TimedLun>)>>(std::move(removed));
  for (std::size_t loop = 0; loop < loops.size(); ++loop) {
    asio::post(*loops[loop], [&server_io = io, c = t.on_loop[loop], id, held, loops_left, done] {
      if (const auto l = c->luns.find(id); l != c->luns.end()) {
        static_cast<driver::LoopBridge*>(l->second)
            ->retire();  // the server puts only bridges there
        c->luns.erase(l);
      }
      // Counted on the server's loop: the last loop to let go hands the
      // driver over. A bridge's earlier posts to the driver's loop are queued
      // before anything the caller posts there from now on.
      asio::post(server_io, [held, loops_left, done] {
        if (--*loops_left == 0) (*done)(std::move(*held));
      });
    });
  }
}

std::vector<std::uint16_t> Server::bound_ports() const {
  std::vector<std::uint16_t> ports;
  for (const auto& t : impl_->targets) {
    for (const auto& [host, port] : t->setup.portals) ports.push_back(port);
  }
  return ports;
}

std::size_t Server::connections() const {
  return impl_->open_connections.load(std::memory_order_relaxed);
}

std::vector<std::size_t> Server::connections_by_loop() const {
  std::vector<std::size_t> count(impl_->loops.size());
  for (const auto& w : impl_->connections) {
    const auto c = w.lock();
    if (!c) continue;
    const auto* ex = c->executor().target<asio::io_context::executor_type>();
    if (ex == nullptr) continue;
    for (std::size_t i = 0; i < count.size(); ++i) {
      if (&ex->context() == impl_->loops[i]) ++count[i];
    }
  }
  return count;
}

}  // namespace memstore::iscsi
