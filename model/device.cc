// SPDX-License-Identifier: Apache-2.0
#include "model/device.h"

#include <algorithm>
#include <cassert>
#include <limits>

namespace memstore::model {

Device::Device(std::vector<std::unique_ptr<Mechanism>> mechanisms,
               std::vector<std::unique_ptr<Scheduler>> schedulers) {
  assert(!mechanisms.empty() && mechanisms.size() == schedulers.size());
  for (std::size_t i = 0; i < mechanisms.size(); ++i) {
    Server s;
    s.first_lbn = blocks_;
    blocks_ += mechanisms[i]->blocks();
    s.mechanism = std::move(mechanisms[i]);
    s.scheduler = std::move(schedulers[i]);
    servers_.push_back(std::move(s));
  }
}

Ns Device::Server::next_start() const {
  if (!scheduler->empty()) return free_at;
  if (!incoming.empty()) return std::max(free_at, incoming.front().arrival_ns);
  return -1;
}

void Device::submit(const Request& r) {
  assert(r.arrival_ns >= last_arrival_ && r.blocks >= 1 && r.lbn >= 0 &&
         r.lbn + r.blocks <= blocks_);
  last_arrival_ = r.arrival_ns;
  int parts = 0;
  Lbn lbn = r.lbn;
  const Lbn end = r.lbn + r.blocks;
  for (Server& s : servers_) {
    const Lbn s_end = s.first_lbn + s.mechanism->blocks();
    if (lbn >= s_end || lbn >= end) continue;
    Request part = r;
    part.lbn = lbn - s.first_lbn;
    part.blocks = static_cast<std::int32_t>(std::min(end, s_end) - lbn);
    s.incoming.push_back(part);
    lbn += part.blocks;
    ++parts;
  }
  if (parts > 1) {
    Split split;
    split.merged.request = r;
    split.merged.start_ns = std::numeric_limits<Ns>::max();
    split.parts_left = parts;
    splits_.emplace_back(r.id, split);
  }
}

void Device::start_one(Server& s, Ns at, const Sink& sink) {
  while (!s.incoming.empty() && s.incoming.front().arrival_ns <= at) {
    s.scheduler->add(s.incoming.front());
    s.incoming.pop_front();
  }
  const Request local = s.scheduler->pick(*s.mechanism, at);
  if (merge_requests_ && local.batch == nullptr && start_merged(s, local, at, sink)) return;
  Completion c;
  c.request = local;
  c.request.lbn = local.lbn + s.first_lbn;
  c.start_ns = at;
  c.breakdown = s.mechanism->service(local, at);
  c.done_ns = at + c.breakdown.service_ns();
  s.free_at = c.done_ns;
  finish(c.request, c, sink);
}

bool Device::start_merged(Server& s, const Request& first, Ns at, const Sink& sink) {
  // Second paper §5.2.2: queued requests that begin where the access ends,
  // with the same operation, join it. The media steps still hold at most p
  // blocks each, so no more than active_tips tips are ever active; a row two
  // requests share is read once, with both requests' tips on.
  parts_.clear();
  parts_.push_back(first);
  while (auto next =
             s.scheduler->take_continuing(parts_.back().lbn + parts_.back().blocks, first.op)) {
    parts_.push_back(*next);
  }
  if (parts_.size() == 1) return false;
  merged_requests_ += static_cast<std::int64_t>(parts_.size()) - 1;
  parts_done_.assign(parts_.size(), 0);
  const Breakdown b = s.mechanism->service_merged(parts_, at, parts_done_);
  s.free_at = at + b.service_ns();
  // The first request carries the access's breakdown; the others joined it
  // and add no positioning or media time of their own.
  for (std::size_t i = 0; i < parts_.size(); ++i) {
    Completion c;
    c.request = parts_[i];
    c.request.lbn = parts_[i].lbn + s.first_lbn;
    c.start_ns = at;
    c.done_ns = at + parts_done_[i];
    if (i == 0) c.breakdown = b;
    finish(c.request, c, sink);
  }
  return true;
}

void Device::finish(const Request& part, const Completion& c, const Sink& sink) {
  if (splits_.empty()) {
    sink(c);
    return;
  }
  auto it = std::find_if(splits_.begin(), splits_.end(),
                         [&](const auto& e) { return e.first == part.id; });
  if (it == splits_.end()) {
    sink(c);
    return;
  }
  Completion& m = it->second.merged;
  m.start_ns = std::min(m.start_ns, c.start_ns);
  m.done_ns = std::max(m.done_ns, c.done_ns);
  const Breakdown& b = c.breakdown;
  Breakdown& mb = m.breakdown;
  // Parts run on independent sleds in parallel; the merged breakdown sums
  // their work so the components still account for every part's media time.
  mb.startup_ns += b.startup_ns;
  mb.seek_x_ns += b.seek_x_ns;
  mb.settle_ns += b.settle_ns;
  mb.seek_y_ns += b.seek_y_ns;
  mb.turnaround_ns += b.turnaround_ns;
  mb.transfer_ns += b.transfer_ns;
  mb.seek_ns += b.seek_ns;
  mb.switch_ns += b.switch_ns;
  mb.turnarounds += b.turnarounds;
  mb.media_steps += b.media_steps;
  if (--it->second.parts_left == 0) {
    const Completion done = m;
    splits_.erase(it);
    sink(done);
  }
}

void Device::run_until(Ns t, const Sink& sink) {
  for (;;) {
    Server* next = nullptr;
    Ns when = std::numeric_limits<Ns>::max();
    for (Server& s : servers_) {
      const Ns n = s.next_start();
      if (n >= 0 && n < when) {
        when = n;
        next = &s;
      }
    }
    if (next == nullptr || when > t) return;
    start_one(*next, when, sink);
  }
}

void Device::drain(const Sink& sink) {
  run_until(std::numeric_limits<Ns>::max(), sink);
}

std::size_t Device::pending() const {
  std::size_t n = 0;
  for (const Server& s : servers_) n += s.scheduler->size() + s.incoming.size();
  return n;
}

Ns Device::next_start_ns() const {
  Ns when = -1;
  for (const Server& s : servers_) {
    const Ns n = s.next_start();
    if (n >= 0 && (when < 0 || n < when)) when = n;
  }
  return when;
}

bool Device::replace_schedulers(std::string_view name, const SchedulerOptions& options) {
  if (!make_scheduler(name, options)) return false;
  for (Server& s : servers_) {
    auto next = make_scheduler(name, options);
    for (const Request& r : s.scheduler->drain()) next->add(r);
    s.scheduler = std::move(next);
  }
  return true;
}

void Device::set_idle_timeout_ns(Ns timeout) {
  for (Server& s : servers_) s.mechanism->set_idle_timeout_ns(timeout);
}

void Device::set_subsector(bool on) {
  for (Server& s : servers_) s.mechanism->set_subsector(on);
}

EnergyReport Device::energy(Ns until) const {
  EnergyReport total;
  for (const Server& s : servers_) {
    const EnergyReport e = s.mechanism->energy(until);
    for (int i = 0; i < kPowerStates; ++i) {
      total.time_ns[i] += e.time_ns[i];
      total.energy_j[i] += e.energy_j[i];
    }
    total.startups += e.startups;
  }
  return total;
}

}  // namespace memstore::model
