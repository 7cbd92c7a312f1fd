// SPDX-License-Identifier: Apache-2.0
// What an operator reads and changes while the server runs: a LUN's power
// cut, the sessions listed, a target's access control replaced.
#include "target/iscsi/server_impl.h"

namespace memstore::iscsi {

void Server::power_cut(const std::string& target, std::chrono::nanoseconds off) {
  const auto until = std::chrono::duration_cast<std::chrono::nanoseconds>(
                         std::chrono::steady_clock::now().time_since_epoch()) +
                     off;
  // On the server's loop, where the targets are kept: logins are refused
  // first, then the sessions end, so that no initiator that lost its
  // session can log in again before the refusal is in place.
  asio::post(impl_->io, [s = impl_.get(), target, until] {
    const auto found = s->served(target);
    if (found.ok()) (*found)->off_until->store(until.count(), std::memory_order_relaxed);
    s->sessions.abort_target(target);
  });
}

void Server::sessions(std::function<void(std::vector<SessionView>)> done) {
  // A gathering shared by the connections' loops: each adds its answer,
  // and the last one posts the whole back to the server's loop.
  struct Gathering {
    std::mutex mutex;
    std::vector<SessionView> views;
    std::size_t left = 0;
    std::function<void(std::vector<SessionView>)> done;
    boost::asio::io_context* home = nullptr;
  };
  auto g = std::make_shared<Gathering>();
  g->done = std::move(done);
  g->home = &impl_->io;
  auto finish = [](const std::shared_ptr<Gathering>& all) {
    asio::post(*all->home, [all] {
      std::sort(all->views.begin(), all->views.end(),
                [](const SessionView& a, const SessionView& b) {
                  return std::tie(a.id.target, a.id.initiator, a.id.isid) <
                         std::tie(b.id.target, b.id.initiator, b.id.isid);
                });
      all->done(std::move(all->views));
    });
  };
  std::vector<std::pair<SessionIdentity, std::shared_ptr<Connection>>> live;
  for (SessionRegistry::Entry& e : impl_->sessions.snapshot()) {
    if (auto c = e.connection.lock()) live.emplace_back(std::move(e.id), std::move(c));
  }
  g->left = live.size();
  if (live.empty()) return finish(g);
  for (auto& [id, c] : live) {
    asio::post(c->executor(), [g, c, id = std::move(id), finish] {
      std::optional<ConnectionStatus> status = c->status();
      bool last = false;
      {
        const std::lock_guard lock(g->mutex);
        if (status) g->views.push_back({id, std::move(*status)});
        last = --g->left == 0;
      }
      if (last) finish(g);
    });
  }
}

Status Server::set_security(const std::string& target, const SecurityConfig& security) {
  Impl& s = *impl_;
  const auto found = s.served(target);
  if (!found.ok()) return found.error();
  Impl::Served& t = **found;
  t.setup.security = security;
  for (DiscoveryEntry& e : s.discovery.send_targets) {
    if (e.target_name == target) e.follow(security);
  }
  // Each loop's copy, on its own loop: its logins read it there.
  for (std::size_t loop = 0; loop < s.loops.size(); ++loop) {
    asio::post(*s.loops[loop], [p = t.on_loop[loop], security] {
      p->login.security = security;
      for (DiscoveryEntry& e : p->login.send_targets) e.follow(security);
    });
  }
  if (!security.acl.empty()) {
    s.sessions.abort_if(target, [&security](const SessionIdentity& id) {
      return !initiator_allowed(security.acl, id.initiator);
    });
  }
  return {};
}

}  // namespace memstore::iscsi
