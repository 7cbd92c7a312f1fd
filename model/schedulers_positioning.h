// SPDX-License-Identifier: Apache-2.0
// Schedulers that use the device's own knowledge of position (thesis §6.1.2,
// §6.1.4; second paper §4.1). Each keeps an unordered pending list and scans it
// at every pick: the cost is linear in the queue length, as in firmware.
// SPTF and ZSPTF prune the scan with bounds (PositionedQueue), so most pending
// requests cost a few arithmetic operations, not a positioning computation.
#pragma once

#include <cstdint>
#include <span>
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
  std::optional<Request> take_continuing(Lbn lbn, Op op);  // Scheduler::take_continuing

 protected:
  struct Item {
    Request request;
    std::uint64_t seq;
  };
  std::vector<Item> items_;
  std::uint64_t seq_ = 0;
  Request take(std::size_t index);
};

// The pending requests of SPTF and ZSPTF, and the choice among them of the
// request with the least positioning time (less aging), ties to the earliest
// arrival, exactly as evaluating every request would choose it, at a fraction
// of the cost (Mechanism's positioning bounds):
//   - each request's positioning target (its LBN mapped to the media) is
//     computed once, at the first pick that needs it, and kept;
//   - a cheap lower bound for every candidate, in one call per pick;
//   - an upper bound for the candidate with the least cheap bound: when no
//     other candidate's cheap bound reaches it, that candidate is the choice;
//   - else lower and upper bounds for the candidates whose cheap bound does
//     not exceed the least upper bound seen; when only one candidate's lower
//     bound is at or below the least upper bound, it is the choice;
//   - else the exact positioning of those, lowest bound first, until the
//     next bound exceeds the best exact cost.
// Removal swaps the last request into the hole; arrival order is kept in a
// sequence number, which breaks ties and orders drain(). Targets belong to
// the mechanism they were computed for: a scheduler serves one mechanism.
class PositionedQueue {
 public:
  void add(const Request& r) { items_.push_back({r, seq_++, {}, false}); }
  std::size_t size() const { return items_.size(); }
  std::vector<Request> drain_in_arrival_order();
  std::optional<Request> take_continuing(Lbn lbn, Op op);  // Scheduler::take_continuing

 protected:
  struct Item {
    Request request;
    std::uint64_t seq;
    MediaPoint point;  // for ZSPTF's zones, once has_point
    bool has_point;
  };
  // Forgets targets and points worked out for another mechanism.
  void bind(const Mechanism& m);
  // Works out the targets of the requests added since the last call (after
  // bind(m)).
  void prepare(const Mechanism& m);
  const MediaPoint& point(std::size_t i, const Mechanism& m);
  // The choice among items_[index(0..count-1)], whose targets are `targets`.
  template <class Index>
  std::size_t choose(const Mechanism& m, Ns now, double age_weight,
                     std::span<const PositioningTarget> targets, Index index);
  Request take(std::size_t index);
  // Requests added so far: the sequence number the next one gets.
  std::uint64_t arrivals() const { return seq_; }

  std::vector<Item> items_;
  std::vector<PositioningTarget> targets_;  // parallel to items_ once prepared

 private:
  std::uint64_t seq_ = 0;
  std::size_t prepared_ = 0;  // items_[0, prepared_) have targets
  const Mechanism* prepared_for_ = nullptr;
  // Scratch reused across picks (no allocation per pick).
  std::vector<Ns> lower_;
  struct Candidate {
    double lower, upper;  // bounds on the aged cost
    std::uint32_t k;      // position in `targets`
  };
  std::vector<Candidate> candidates_;
};

// SPTF, and aged SPTF when age_weight > 0: the request minimising
// positioning time - age_weight * time waited (Jacobson & Wilkes' aging, which
// the thesis §6.1.2 mentions as the cure for SPTF's starvation).
class SptfScheduler final : public Scheduler, PositionedQueue {
 public:
  explicit SptfScheduler(double age_weight) : age_weight_(age_weight) {}
  const char* name() const override { return age_weight_ > 0 ? "asptf" : "sptf"; }
  void add(const Request& r) override { PositionedQueue::add(r); }
  std::size_t size() const override { return PositionedQueue::size(); }
  Request pick(const Mechanism& m, Ns now) override;
  std::vector<Request> drain() override { return drain_in_arrival_order(); }
  std::optional<Request> take_continuing(Lbn lbn, Op op) override {
    return PositionedQueue::take_continuing(lbn, op);
  }

 private:
  double age_weight_;
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
  std::optional<Request> take_continuing(Lbn lbn, Op op) override {
    return PendingList::take_continuing(lbn, op);
  }
};

// ZSPTF: the media is cut into zones (a grid of cells, two zones per cell, one
// per access direction); zones are visited in a fixed circular order
// (C-SCAN-like, X-major) and requests inside the current zone are served in
// SPTF order (second paper §4.1). Pyramiding: when the queue is short, 2x2
// neighbouring cells merge, coarsening the grid until it may become one zone,
// i.e. SPTF (second paper Fig. 6).
//
// The other in-zone algorithms of the second paper's §4.2.1 (its Fig. 7) share
// the zones: ZFCFS serves a zone's requests in arrival order, and ZTSPTF
// serves, in SPTF order, only the requests that arrived before the scheduler
// entered the zone; one that arrives later waits for the next visit.
class ZsptfScheduler final : public Scheduler, PositionedQueue {
 public:
  enum class InZone { kSptf, kFcfs, kArrivedBefore };
  explicit ZsptfScheduler(const SchedulerOptions& options, InZone in_zone = InZone::kSptf);
  const char* name() const override;
  void add(const Request& r) override { PositionedQueue::add(r); }
  std::size_t size() const override { return PositionedQueue::size(); }
  Request pick(const Mechanism& m, Ns now) override;
  std::vector<Request> drain() override { return drain_in_arrival_order(); }
  std::optional<Request> take_continuing(Lbn lbn, Op op) override {
    return PositionedQueue::take_continuing(lbn, op);
  }

  // Grid coarsening level for a queue of `pending` requests (0 = finest).
  int level_for(std::size_t pending) const;
  // Zone of a point at a level, in visiting order.
  int zone_of(const MediaPoint& p, int level) const;
  int zones_at(int level) const;

 private:
  int zones_x_, zones_y_;
  double min_per_zone_;
  int levels_;  // coarsest level: one cell
  InZone in_zone_;
  int current_zone_ = 0;  // at the level used by the previous pick
  int current_level_ = 0;
  // ZTSPTF: the requests numbered below this had arrived when the scheduler
  // entered the current zone; `entered_` is false until a zone is entered.
  std::uint64_t entry_arrivals_ = 0;
  bool entered_ = false;
  // Scratch reused across picks: zones, and the target zone's requests.
  std::vector<int> zone_;
  std::vector<std::uint32_t> members_;
  std::vector<PositioningTarget> member_targets_;
};

}  // namespace memstore::model
