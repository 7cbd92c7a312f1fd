// SPDX-License-Identifier: Apache-2.0
// Schedulers that need no device knowledge beyond LBNs (thesis §6.1.2): they
// could equally run in the host.
#pragma once

#include <cstdint>
#include <map>
#include <set>
#include <utility>

#include "model/fifo.h"
#include "model/scheduler.h"

namespace memstore::model {

class FcfsScheduler final : public Scheduler {
 public:
  const char* name() const override { return "fcfs"; }
  void add(const Request& r) override { queue_.push_back(r); }
  std::size_t size() const override { return queue_.size(); }
  Request pick(const Mechanism&, Ns) override;
  std::vector<Request> drain() override;
  std::optional<Request> take_continuing(Lbn lbn, Op op) override {
    return queue_.take_first_if([&](const Request& r) { return continues_at(r, lbn, op); });
  }

 private:
  Fifo<Request> queue_;
};

// Requests ordered by (LBN, arrival order) so equal LBNs keep FCFS order.
class LbnOrderedQueue {
 public:
  using Key = std::pair<Lbn, std::uint64_t>;
  void add(const Request& r) { q_.emplace(Key{r.lbn, seq_++}, r); }
  std::size_t size() const { return q_.size(); }
  std::vector<Request> drain_in_arrival_order();
  // Scheduler::take_continuing; the head moves to the end of what it takes.
  std::optional<Request> take_continuing(Lbn lbn, Op op);

 protected:
  std::map<Key, Request> q_;
  std::uint64_t seq_ = 0;
  Lbn last_end_ = 0;  // block after the last request picked
  Request take(std::map<Key, Request>::iterator it);
};

// CLOOK_LBN: the next request at or above the last one's end, else wrap to the lowest.
class ClookScheduler final : public Scheduler, LbnOrderedQueue {
 public:
  const char* name() const override { return "clook"; }
  void add(const Request& r) override { LbnOrderedQueue::add(r); }
  std::size_t size() const override { return LbnOrderedQueue::size(); }
  Request pick(const Mechanism&, Ns) override;
  std::vector<Request> drain() override { return drain_in_arrival_order(); }
  std::optional<Request> take_continuing(Lbn lbn, Op op) override {
    return LbnOrderedQueue::take_continuing(lbn, op);
  }
};

// SSTF_LBN: the request whose LBN is closest to the last one's end; ties go
// to the lower LBN.
class SstfScheduler final : public Scheduler, LbnOrderedQueue {
 public:
  const char* name() const override { return "sstf"; }
  void add(const Request& r) override { LbnOrderedQueue::add(r); }
  std::size_t size() const override { return LbnOrderedQueue::size(); }
  Request pick(const Mechanism&, Ns) override;
  std::vector<Request> drain() override { return drain_in_arrival_order(); }
  std::optional<Request> take_continuing(Lbn lbn, Op op) override {
    return LbnOrderedQueue::take_continuing(lbn, op);
  }
};

}  // namespace memstore::model
