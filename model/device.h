// SPDX-License-Identifier: Apache-2.0
// The discrete-event device: mechanisms (one per MEMStore sled, or one disk),
// each with its own queue and scheduler, fed with requests in arrival order.
//
// Time is virtual. The caller submits requests (arrival times non-decreasing)
// and asks the device to run up to an instant; every service that starts by
// then is decided and reported with its completion time, which may lie beyond
// that instant. A transport therefore knows when to deliver a command as soon
// as the device starts it, and memsim streams millions of requests through
// without holding them.
//
// Causality: before run_until(t), submit every request that arrives at or
// before t.
#pragma once

#include <cstdint>
#include <functional>
#include <memory>
#include <string_view>
#include <vector>

#include "model/fifo.h"
#include "model/mechanism.h"
#include "model/scheduler.h"

namespace memstore::model {

class Device {
 public:
  using Sink = std::function<void(const Completion&)>;

  // REQUIRES: at least one mechanism; every mechanism paired with a scheduler.
  Device(std::vector<std::unique_ptr<Mechanism>> mechanisms,
         std::vector<std::unique_ptr<Scheduler>> schedulers);

  std::int64_t blocks() const { return blocks_; }
  std::size_t mechanisms() const { return servers_.size(); }
  const Mechanism& mechanism(std::size_t i) const { return *servers_[i].mechanism; }

  // REQUIRES: r.id unique among requests not yet completed;
  // r.arrival_ns >= every earlier arrival; 1 <= r.blocks;
  // r.lbn + r.blocks <= blocks(). A request that spans mechanisms (sleds) is
  // served as one part per mechanism and completes when its last part does.
  void submit(const Request& r);

  // Starts every service that begins at or before t and reports each
  // request's completion once all its parts have started.
  void run_until(Ns t, const Sink& sink);
  // Runs until nothing is pending.
  void drain(const Sink& sink);

  // Requests submitted and not yet started.
  std::size_t pending() const;
  // When the next service would start, or -1 when nothing is pending.
  Ns next_start_ns() const;

  // Hands every queued request to a new scheduler of the given name (the
  // control mode page changed it). False, and nothing changes, for an
  // unknown name.
  bool replace_schedulers(std::string_view name, const SchedulerOptions& options);
  // Every mechanism's idle timeout (-1 never, 0 aggressive spin-down).
  void set_idle_timeout_ns(Ns timeout);
  // The second paper's other two power strategies (§5.2.2, §5.2.3), from now
  // on: request merging (the device joins queued requests that continue the
  // one it starts into one media access) and subsector accesses (each
  // mechanism activates only the tip sectors a request needs).
  void set_merge_requests(bool on) { merge_requests_ = on; }
  bool merge_requests() const { return merge_requests_; }
  void set_subsector(bool on);
  // Requests that joined another's media access so far.
  std::int64_t merged_requests() const { return merged_requests_; }

  // Mechanism `i`'s slow regions (Mechanism::set_slow_regions), from now on.
  // REQUIRES: i < mechanisms().
  void set_slow_regions(std::size_t i, std::span<const SlowRegion> regions) {
    servers_[i].mechanism->set_slow_regions(regions);
  }

  // Summed over mechanisms, until `until` (>= every completion so far).
  EnergyReport energy(Ns until) const;

 private:
  struct Server {
    std::unique_ptr<Mechanism> mechanism;
    std::unique_ptr<Scheduler> scheduler;
    Lbn first_lbn = 0;
    Fifo<Request> incoming;  // submitted, arrival not yet admitted
    Ns free_at = 0;
    Ns next_start() const;
  };
  struct Split {  // a request spanning mechanisms, while parts are outstanding
    Completion merged;
    int parts_left = 0;
  };

  void start_one(Server& s, Ns at, const Sink& sink);
  // Starts `first` and every queued request that continues it as one access;
  // false, with nothing started, when no queued request continues it.
  bool start_merged(Server& s, const Request& first, Ns at, const Sink& sink);
  void finish(const Request& original, const Completion& part, const Sink& sink);

  std::vector<Server> servers_;
  std::int64_t blocks_ = 0;
  Ns last_arrival_ = 0;
  std::vector<std::pair<std::uint64_t, Split>> splits_;  // few, short-lived
  bool merge_requests_ = false;
  std::int64_t merged_requests_ = 0;
  std::vector<Request> parts_;  // scratch for merged accesses
  std::vector<Ns> parts_done_;
};

}  // namespace memstore::model
