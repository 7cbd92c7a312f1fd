// SPDX-License-Identifier: Apache-2.0
#include "model/schedulers_positioning.h"

#include <algorithm>
#include <cmath>
#include <limits>

namespace memstore::model {

std::vector<Request> PendingList::drain_in_arrival_order() {
  std::vector<Request> out;
  for (const Item& i : items_) out.push_back(i.request);  // appended in arrival order
  items_.clear();
  return out;
}

Request PendingList::take(std::size_t index) {
  Request r = items_[index].request;
  items_.erase(items_.begin() + static_cast<std::ptrdiff_t>(index));
  return r;
}

std::optional<Request> PendingList::take_continuing(Lbn lbn, Op op) {
  for (std::size_t i = 0; i < items_.size(); ++i) {  // kept in arrival order
    if (continues_at(items_[i].request, lbn, op)) return take(i);
  }
  return std::nullopt;
}

std::optional<Request> PositionedQueue::take_continuing(Lbn lbn, Op op) {
  // Removal swaps items, so the earliest arrival is the least sequence number.
  std::size_t best = items_.size();
  for (std::size_t i = 0; i < items_.size(); ++i) {
    if (continues_at(items_[i].request, lbn, op) &&
        (best == items_.size() || items_[i].seq < items_[best].seq)) {
      best = i;
    }
  }
  if (best == items_.size()) return std::nullopt;
  return take(best);
}

std::vector<Request> PositionedQueue::drain_in_arrival_order() {
  std::sort(items_.begin(), items_.end(),
            [](const Item& a, const Item& b) { return a.seq < b.seq; });
  std::vector<Request> out;
  for (const Item& i : items_) out.push_back(i.request);
  items_.clear();
  targets_.clear();
  prepared_ = 0;
  return out;
}

void PositionedQueue::bind(const Mechanism& m) {
  if (&m != prepared_for_) {  // targets and points are the mechanism's own
    prepared_for_ = &m;
    prepared_ = 0;
    targets_.clear();
    for (Item& i : items_) i.has_point = false;
  }
}

void PositionedQueue::prepare(const Mechanism& m) {
  bind(m);
  for (std::size_t i = prepared_; i < items_.size(); ++i) {
    targets_.push_back(m.positioning_target(items_[i].request));
  }
  prepared_ = items_.size();
}

const MediaPoint& PositionedQueue::point(std::size_t i, const Mechanism& m) {
  Item& item = items_[i];
  if (!item.has_point) {
    item.point = m.point_of(item.request.lbn);
    item.has_point = true;
  }
  return item.point;
}

Request PositionedQueue::take(std::size_t index) {
  Request r = items_[index].request;
  const std::size_t last = items_.size() - 1;
  items_[index] = items_[last];
  items_.pop_back();
  if (prepared_ > last) {  // every item had its target: keep them paired
    targets_[index] = targets_[last];
    prepared_ = last;
  } else {
    prepared_ = std::min(prepared_, index);  // the hole holds an unprepared item now
  }
  targets_.resize(prepared_);
  return r;
}

template <class Index>
std::size_t PositionedQueue::choose(const Mechanism& m, Ns now, double age_weight,
                                    std::span<const PositioningTarget> targets, Index index) {
  const std::size_t n = targets.size();
  auto aged = [&](Ns positioning, std::size_t item) {
    double cost = static_cast<double>(positioning);
    if (age_weight > 0) {
      cost -= age_weight * static_cast<double>(now - items_[item].request.arrival_ns);
    }
    return cost;
  };
  // Every bound below is a bound on the same aged cost the exact scan
  // compares (rounding is monotone, so lower <= exact survives the aging).
  lower_.resize(n);
  m.positioning_lower_bounds_ns(targets, now, lower_);
  std::size_t first = 0;
  double first_lower = aged(lower_[0], index(0));
  for (std::size_t k = 1; k < n; ++k) {
    const double c = aged(lower_[k], index(k));
    if (c < first_lower) {
      first_lower = c;
      first = k;
    }
  }
  // The most promising request's upper bound starts the threshold. If no
  // other request's cheap bound reaches it, that request is the choice;
  // otherwise every request whose cheap bound does not exceed the threshold
  // gets both bounds, and the threshold falls to the least upper bound seen.
  double threshold =
      aged(m.positioning_upper_bound_ns(items_[index(first)].request, targets[first], now),
           index(first));
  bool rivals = false;
  for (std::size_t k = 0; k < n && !rivals; ++k) {
    rivals = k != first && aged(lower_[k], index(k)) <= threshold;
  }
  if (!rivals) return index(first);
  candidates_.clear();
  for (std::size_t k = 0; k < n; ++k) {
    const std::size_t item = index(k);
    const double coarse = aged(lower_[k], item);
    if (coarse > threshold) continue;
    const PositioningBounds b = m.positioning_bounds_ns(items_[item].request, targets[k], now);
    const double lower = std::max(coarse, aged(b.lower, item));
    const double upper = aged(b.upper, item);
    threshold = std::min(threshold, upper);
    if (lower <= threshold) candidates_.push_back({lower, upper, static_cast<std::uint32_t>(k)});
  }
  // Only requests whose lower bound does not exceed the least upper bound
  // can be the cheapest. One alone is strictly cheaper than every other.
  std::erase_if(candidates_, [&](const Candidate& c) { return c.lower > threshold; });
  if (candidates_.size() == 1) return index(candidates_[0].k);
  // Exact costs, lowest bound first, until no remaining request can reach
  // the best; ties to the earliest arrival, as the full scan.
  std::sort(candidates_.begin(), candidates_.end(),
            [](const Candidate& a, const Candidate& b) { return a.lower < b.lower; });
  std::size_t best = index(candidates_[0].k);
  double best_cost = std::numeric_limits<double>::infinity();
  for (const Candidate& c : candidates_) {
    if (c.lower > best_cost) break;
    const std::size_t item = index(c.k);
    const double cost =
        aged(m.positioning_target_ns(items_[item].request, targets[c.k], now), item);
    if (cost < best_cost || (cost == best_cost && items_[item].seq < items_[best].seq)) {
      best_cost = cost;
      best = item;
    }
  }
  return best;
}

Request SptfScheduler::pick(const Mechanism& m, Ns now) {
  // One request: nothing to choose, so no positioning to estimate (the
  // device computes the service itself).
  if (items_.size() == 1) return take(0);
  prepare(m);
  return take(choose(m, now, age_weight_, targets_, [](std::size_t k) { return k; }));
}

Request SdfScheduler::pick(const Mechanism& m, Ns) {
  const MediaPoint here = m.current_point();
  std::size_t best = 0;
  double best_d2 = std::numeric_limits<double>::infinity();
  for (std::size_t i = 0; i < items_.size(); ++i) {
    const MediaPoint p = m.point_of(items_[i].request.lbn);
    const double du = p.u - here.u, dv = p.v - here.v;
    const double d2 = du * du + dv * dv;
    if (d2 < best_d2) {
      best_d2 = d2;
      best = i;
    }
  }
  return take(best);
}

ZsptfScheduler::ZsptfScheduler(const SchedulerOptions& o, InZone in_zone)
    : zones_x_(std::max(1, o.zones_x)),
      zones_y_(std::max(1, o.zones_y)),
      min_per_zone_(o.pyramid_min_per_zone),
      in_zone_(in_zone) {
  levels_ = 0;
  while ((zones_x_ >> levels_) > 1 || (zones_y_ >> levels_) > 1) ++levels_;
  ++levels_;  // one more level past a single cell: both directions merged (SPTF)
}

const char* ZsptfScheduler::name() const {
  switch (in_zone_) {
    case InZone::kFcfs:
      return "zfcfs";
    case InZone::kArrivedBefore:
      return "ztsptf";
    case InZone::kSptf:
      break;
  }
  return "zsptf";
}

int ZsptfScheduler::zones_at(int level) const {
  if (level >= levels_) return 1;
  const int cx = std::max(1, zones_x_ >> level);
  const int cy = std::max(1, zones_y_ >> level);
  return cx * cy * 2;
}

int ZsptfScheduler::level_for(std::size_t pending) const {
  if (min_per_zone_ <= 0) return 0;
  int level = 0;
  while (level < levels_ && static_cast<double>(pending) < min_per_zone_ * zones_at(level)) {
    ++level;
  }
  return level;
}

int ZsptfScheduler::zone_of(const MediaPoint& p, int level) const {
  if (level >= levels_) return 0;
  const int cx = std::max(1, zones_x_ >> level);
  const int cy = std::max(1, zones_y_ >> level);
  const int ix = std::clamp(static_cast<int>(p.u * cx), 0, cx - 1);
  const int iy = std::clamp(static_cast<int>(p.v * cy), 0, cy - 1);
  return (ix * cy + iy) * 2 + (p.runs_up ? 0 : 1);
}

Request ZsptfScheduler::pick(const Mechanism& m, Ns now) {
  bind(m);
  const int level = level_for(items_.size());
  const int zones = zones_at(level);
  if (level != current_level_) {
    // Re-express the current zone at the new granularity via the sled's position.
    current_zone_ = zone_of(m.current_point(), level);
    current_level_ = level;
    entered_ = false;
  }
  const std::size_t n = items_.size();
  if (zones == 1 && in_zone_ == InZone::kSptf) {  // fully merged: SPTF over everything
    current_zone_ = 0;
    if (n == 1) return take(0);
    prepare(m);
    return take(choose(m, now, 0.0, targets_, [](std::size_t k) { return k; }));
  }
  // Pass 1: zone of each pending request; the first zone at or after the
  // current one (circularly) that has work. Under ZTSPTF the current zone's
  // late arrivals count as work for the next visit, a whole circle away.
  const bool arrived_before = in_zone_ == InZone::kArrivedBefore;
  zone_.resize(n);
  int target = -1;
  int best_dist = zones + 1;
  for (std::size_t i = 0; i < n; ++i) {
    zone_[i] = zone_of(point(i, m), level);
    int dist = (zone_[i] - current_zone_ + zones) % zones;
    if (arrived_before && dist == 0 && entered_ && items_[i].seq >= entry_arrivals_) dist = zones;
    if (dist < best_dist) {
      best_dist = dist;
      target = zone_[i];
    }
  }
  if (!entered_ || target != current_zone_ || best_dist == zones) {
    // Entering a zone: every request pending now arrived before it.
    entered_ = true;
    entry_arrivals_ = arrivals();
  }
  current_zone_ = target;
  // Pass 2: the in-zone algorithm over that zone's requests.
  members_.clear();
  for (std::size_t i = 0; i < n; ++i) {
    if (zone_[i] == target && (!arrived_before || items_[i].seq < entry_arrivals_)) {
      members_.push_back(static_cast<std::uint32_t>(i));
    }
  }
  if (members_.size() == 1) return take(members_[0]);
  if (in_zone_ == InZone::kFcfs) {
    const auto first = std::min_element(
        members_.begin(), members_.end(),
        [this](std::uint32_t a, std::uint32_t b) { return items_[a].seq < items_[b].seq; });
    return take(*first);
  }
  prepare(m);
  member_targets_.clear();
  for (const std::uint32_t i : members_) member_targets_.push_back(targets_[i]);
  return take(choose(m, now, 0.0, member_targets_, [this](std::size_t k) { return members_[k]; }));
}

}  // namespace memstore::model
