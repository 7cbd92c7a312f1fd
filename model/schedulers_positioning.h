// Schedulers that use the device's own knowledge of position (thesis §6.1.2,
// §6.1.4; second paper §4.1). Each keeps an unordered pending list and scans it
// at every pick: the cost is linear in the queue length, as in firmware.
#pragma once

#include <cstdint>
#include <vector>

#include "model/scheduler.h"

namespace memstore::model {

// Pending requests with an arrival sequence number, so ties between equally
// good requests always go to the earlier arrival (deterministic).
class PendingList {
 public:
  void add(const Request& r) { items_.push_back({r, seq_++}); }
  std::size_t size() const { return items_.size(); }
  std::vector<Request> drain_in_arrival_order();

 protected:
  struct Item {
    Request request;
    std::uint64_t seq;
  };
  std::vector<Item> items_;
  std::uint64_t seq_ = 0;
  Request take(std::size_t index);
};

// SPTF, and aged SPTF when age_weight > 0: the request minimising
// positioning time - age_weight * time waited (Jacobson & Wilkes' aging, which
// the thesis §6.1.2 mentions as the cure for SPTF's starvation).
class SptfScheduler final : public Scheduler, PendingList {
 public:
  explicit SptfScheduler(double age_weight) : age_weight_(age_weight) {}
  const char* name() const override { return age_weight_ > 0 ? "asptf" : "sptf"; }
  void add(const Request& r) override { PendingList::add(r); }
  std::size_t size() const override { return PendingList::size(); }
  Request pick(const Mechanism& m, Ns now) override;
  std::vector<Request> drain() override { return drain_in_arrival_order(); }

 private:
  double age_weight_;
  std::vector<std::pair<double, std::size_t>> order_;  // (bound, index), reused across picks
};

// SDF: shortest Euclidean distance between the sled's position and the
// request's position on the media (thesis §6.1.4).
class SdfScheduler final : public Scheduler, PendingList {
 public:
  const char* name() const override { return "sdf"; }
  void add(const Request& r) override { PendingList::add(r); }
  std::size_t size() const override { return PendingList::size(); }
  Request pick(const Mechanism& m, Ns now) override;
  std::vector<Request> drain() override { return drain_in_arrival_order(); }
};

// ZSPTF: the media is cut into zones (a grid of cells, two zones per cell, one
// per access direction); zones are visited in a fixed circular order
// (C-SCAN-like, X-major) and requests inside the current zone are served in
// SPTF order (second paper §4.1). Pyramiding: when the queue is short, 2x2
// neighbouring cells merge, coarsening the grid until it may become one zone,
// i.e. SPTF (second paper Fig. 6).
class ZsptfScheduler final : public Scheduler, PendingList {
 public:
  explicit ZsptfScheduler(const SchedulerOptions& options);
  const char* name() const override { return "zsptf"; }
  void add(const Request& r) override { PendingList::add(r); }
  std::size_t size() const override { return PendingList::size(); }
  Request pick(const Mechanism& m, Ns now) override;
  std::vector<Request> drain() override { return drain_in_arrival_order(); }

  // Grid coarsening level for a queue of `pending` requests (0 = finest).
  int level_for(std::size_t pending) const;
  // Zone of a point at a level, in visiting order.
  int zone_of(const MediaPoint& p, int level) const;
  int zones_at(int level) const;

 private:
  int zones_x_, zones_y_;
  double min_per_zone_;
  int levels_;            // coarsest level: one cell
  int current_zone_ = 0;  // at the level used by the previous pick
  int current_level_ = 0;
};

}  // namespace memstore::model
