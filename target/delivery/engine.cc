// SPDX-License-Identifier: Apache-2.0
#include "target/delivery/engine.h"

#include <algorithm>
#include <limits>

namespace memstore::delivery {

Engine::Engine(std::unique_ptr<scsi::Lun> lun, const Clock& clock)
    : clock_(clock),
      lun_(std::move(lun)),
      model_clock_(clock.now()),
      timing_(lun_->timing()),
      sink_([this](scsi::ScsiResult r) { on_result(std::move(r)); }) {}

void Engine::submit(scsi::ScsiCommand c, Done done) {
  const bool realtime = lun_->timing().mode == scsi::TimingMode::kRealtime;
  c.arrival_ns = std::max(model_now() - (realtime ? compensation_ns_ : 0), model_now_);
  model_now_ = c.arrival_ns;
  pending_pool_.insert(pending_, {c.nexus, c.tag}).first->second =
      Pending{std::move(done), c.arrival_ns, lun_->power_cycles()};
  lun_->submit(c, sink_);
  follow_timing();
  if (timing_off()) {
    // As fast as possible: the model decides everything queued now.
    lun_->advance(std::numeric_limits<scsi::Ns>::max(), sink_);
  }
}

// MODE SELECT of page 22h changed the LUN's timing (during a submit): the
// model's clock goes on from now at the new rate (model_clock.h).
void Engine::follow_timing() {
  const scsi::Timing& now = lun_->timing();
  if (now.mode == timing_.mode && now.scale == timing_.scale) return;
  model_clock_.retime(clock_.now(), timing_);
  timing_ = now;
}

void Engine::on_result(scsi::ScsiResult r) {
  follow_timing();  // the MODE SELECT that changed it completes at once
  const auto it = pending_.find(std::make_pair(r.nexus, r.tag));
  if (it == pending_.end()) return;  // the nexus is gone
  if (r.withheld && !r.reject_abort) {
    // An injected timeout: the initiator never hears back, and its task
    // stays open until it aborts it (the transport's task management).
    pending_pool_.erase(pending_, it);
    return;
  }
  // A withheld result whose abort is to be refused goes to the transport at
  // once: it sends nothing, but marks the task (Session::complete).
  Due d;
  d.done = std::move(it->second.done);
  d.arrival_ns = it->second.arrival_ns;
  d.power_cycles = it->second.power_cycles;
  pending_pool_.erase(pending_, it);
  const bool off = timing_off();
  d.due = off ? std::numeric_limits<WallNs>::min() : wall_at(r.complete_ns);
  d.timed = !off && !r.withheld;  // nothing is delivered to be late
  d.result = std::move(r);
  settle_storage(d.result);
  due_.push(std::move(d));
}

std::optional<WallNs> Engine::next_instant() const {
  std::optional<WallNs> next;
  if (!due_.empty()) next = due_.top().due;
  if (const scsi::Ns decision = lun_->next_decision_ns(); decision >= 0) {
    const WallNs at = wall_at(decision);
    next = next ? std::min(*next, at) : at;
  }
  return next;
}

void Engine::tick() {
  deliver_due(false);
  const scsi::Ns decision = lun_->next_decision_ns();
  if (decision >= 0 && wall_at(decision) <= clock_.now()) {
    // At least `decision`: in scaled timing the model time of the wall
    // instant can round to just before it, and the model would then decide
    // nothing (the transport would poll until the wall clock moved on).
    model_now_ = std::max({model_now_, model_now(), decision});
    lun_->advance(model_now_, sink_);
    deliver_due(false);  // results due at once
  }
}

// Delivers every result whose instant has come (all of them with `all`).
// An instant is compared with the clock, so a delivery is never before its
// modeled time. A result whose storage operations are still running waits
// for them (deliver_storage_ready()). Popping one at a time: a delivery may
// submit (the session's next command) or forget a nexus.
void Engine::deliver_due(bool all) {
  while (!due_.empty()) {
    if (!all && due_.top().due > clock_.now()) break;
    Due d = due_.pop();
    if (d.result.io && !d.result.io->ready()) {
      waiting_storage_.push_back(std::move(d));
      continue;
    }
    deliver(d);
  }
}

void Engine::deliver(Due& d) {
  lun_->complete_io(d.result);
  // The command was in the device when its power was cut: no answer
  // (docs/crash-consistency.md), since the write it would acknowledge may
  // be one the cut took.
  if (d.power_cycles != lun_->power_cycles()) return;
  ++counters_.commands;
  if (d.result.status == scsi::Status::kCheckCondition) ++counters_.check_conditions;
  if (d.result.media == scsi::Media::kRead) ++counters_.reads;
  if (d.result.media == scsi::Media::kWrite) ++counters_.writes;
  counters_.bytes_in += d.result.data_in.size();
  counters_.bytes_out += d.result.transfer_bytes;
  if (d.timed) {
    const WallNs now = clock_.now();
    const std::int64_t late = now - d.due;
    lateness_.add(late);
    // Log page 31h, delivery lateness (modepages/log_pages.h).
    lun_->record_delivery(static_cast<std::uint64_t>(std::max<std::int64_t>(0, late)));
    if (delivery_log_) {
      delivery_log_(Delivery{d.result.nexus, d.result.tag, d.arrival_ns, d.result.complete_ns,
                             d.due - epoch(), now - epoch()});
    }
  }
  d.done(std::move(d.result));
}

bool Engine::storage_in_flight() const {
  const scsi::AsyncStore* store = lun_->store_async();
  return store != nullptr && store->in_flight() > 0;
}

void Engine::reap_storage() {
  lun_->store_async()->reap();
  due_.for_each([this](Due& d) { settle_storage(d.result); });
  deliver_storage_ready();
}

// A result whose storage has finished takes its data and gives back its
// buffers (Lun::complete_io) as soon as it has, not at its instant: in
// realtime timing the thread has slept until then, and that work, on cold
// caches, would make every file-store delivery about 1 µs later
// (docs/benchmarks/log/2026-11-27.md, "Delivery lateness and the store's
// completions").
void Engine::settle_storage(scsi::ScsiResult& r) {
  if (r.io && r.io->ready()) lun_->complete_io(r);
}

// Delivers, one at a time, the due results whose storage has finished: a
// delivery may make the transport forget a nexus, which changes the list.
void Engine::deliver_storage_ready() {
  for (;;) {
    const auto it = std::find_if(waiting_storage_.begin(), waiting_storage_.end(),
                                 [](const Due& d) { return d.result.io->ready(); });
    if (it == waiting_storage_.end()) return;
    Due d = std::move(*it);
    waiting_storage_.erase(it);
    deliver(d);
  }
}

void Engine::end_all(scsi::Reason reason) {
  struct End {
    std::uint64_t nexus, tag;
    Done done;
  };
  std::vector<End> ends;
  for (auto& [key, p] : pending_) ends.push_back({key.first, key.second, std::move(p.done)});
  while (!due_.empty()) {
    Due d = due_.pop();
    ends.push_back({d.result.nexus, d.result.tag, std::move(d.done)});
  }
  for (Due& d : waiting_storage_) {
    ends.push_back({d.result.nexus, d.result.tag, std::move(d.done)});
  }
  pending_.clear();
  waiting_storage_.clear();
  // Answered once everything is cleared: an answer may make the transport
  // forget a nexus or submit again.
  const bool descriptor = lun_->descriptor_sense();
  for (End& e : ends) {
    scsi::ScsiResult r;
    r.nexus = e.nexus;
    r.tag = e.tag;
    r.status = scsi::Status::kCheckCondition;
    r.sense = scsi::build_sense({reason, std::nullopt, std::nullopt}, descriptor);
    ++counters_.commands;
    ++counters_.check_conditions;
    e.done(std::move(r));
  }
}

void Engine::forget(std::uint64_t nexus) {
  lun_->nexus_lost(nexus);
  for (auto it = pending_.begin(); it != pending_.end();) {
    it = it->first.first == nexus ? pending_pool_.erase(pending_, it) : std::next(it);
  }
  // Results already decided for that nexus are dropped too.
  due_.erase_if([&](const Due& d) { return d.result.nexus == nexus; });
  std::erase_if(waiting_storage_, [&](const Due& d) { return d.result.nexus == nexus; });
}

}  // namespace memstore::delivery
