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

Request SptfScheduler::pick(const Mechanism& m, Ns now) {
  auto aged = [&](std::size_t i, Ns positioning) {
    double cost = static_cast<double>(positioning);
    if (age_weight_ > 0) {
      cost -= age_weight_ * static_cast<double>(now - items_[i].request.arrival_ns);
    }
    return cost;
  };
  // Branch and bound: a cheap lower bound per request, the exact positioning
  // only for requests whose bound does not exceed the best exact cost so far.
  // Every request whose exact cost ties the minimum has a bound at or below it
  // and is evaluated, so the choice (earliest arrival among the cheapest) is
  // exactly that of evaluating everything.
  // Start from the cheapest coarse bound; then only requests whose bound does
  // not exceed the best exact cost can win. Those get the tight bound, and
  // the survivors are evaluated exactly, cheapest bound first so the best
  // cost drops early. Typically a handful of the queue is evaluated exactly.
  using Bound = Mechanism::Bound;
  order_.resize(items_.size());
  std::size_t best = 0;
  for (std::size_t i = 0; i < items_.size(); ++i) {
    order_[i] = {aged(i, m.positioning_lower_bound_ns(items_[i].request, now, Bound::kCoarse)), i};
    if (order_[i].first < order_[best].first) best = i;
  }
  double best_cost = aged(best, m.positioning_ns(items_[best].request, now));
  auto end = std::partition(order_.begin(), order_.end(), [&](const auto& e) {
    return e.first <= best_cost && e.second != best;
  });
  for (auto it = order_.begin(); it != end; ++it) {
    it->first = aged(it->second,
                     m.positioning_lower_bound_ns(items_[it->second].request, now, Bound::kTight));
  }
  end = std::partition(order_.begin(), end, [&](const auto& e) { return e.first <= best_cost; });
  std::sort(order_.begin(), end);
  for (auto it = order_.begin(); it != end && it->first <= best_cost; ++it) {
    const std::size_t i = it->second;
    const double cost = aged(i, m.positioning_ns(items_[i].request, now));
    if (cost < best_cost || (cost == best_cost && i < best)) {
      best_cost = cost;
      best = i;
    }
  }
  return take(best);
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

ZsptfScheduler::ZsptfScheduler(const SchedulerOptions& o)
    : zones_x_(std::max(1, o.zones_x)),
      zones_y_(std::max(1, o.zones_y)),
      min_per_zone_(o.pyramid_min_per_zone) {
  levels_ = 0;
  while ((zones_x_ >> levels_) > 1 || (zones_y_ >> levels_) > 1) ++levels_;
  ++levels_;  // one more level past a single cell: both directions merged (SPTF)
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
  const int level = level_for(items_.size());
  const int zones = zones_at(level);
  if (level != current_level_) {
    // Re-express the current zone at the new granularity via the sled's position.
    current_zone_ = zone_of(m.current_point(), level);
    current_level_ = level;
  }
  // Pass 1: zone of each pending request; the first zone at or after the
  // current one (circularly) that has work.
  std::vector<int> zone(items_.size());
  int target = -1;
  int best_dist = zones;
  for (std::size_t i = 0; i < items_.size(); ++i) {
    zone[i] = zone_of(m.point_of(items_[i].request.lbn), level);
    const int dist = (zone[i] - current_zone_ + zones) % zones;
    if (dist < best_dist) {
      best_dist = dist;
      target = zone[i];
    }
  }
  current_zone_ = target;
  // Pass 2: SPTF inside that zone.
  std::size_t best = 0;
  Ns best_cost = std::numeric_limits<Ns>::max();
  for (std::size_t i = 0; i < items_.size(); ++i) {
    if (zone[i] != target) continue;
    const Ns cost = m.positioning_ns(items_[i].request, now);
    if (cost < best_cost) {
      best_cost = cost;
      best = i;
    }
  }
  return take(best);
}

}  // namespace memstore::model
