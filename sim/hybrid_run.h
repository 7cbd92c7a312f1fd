// SPDX-License-Identifier: Apache-2.0
// What the hybrid systems' runs (the disk arrays, the write buffer) share.
//
// A request that a hybrid system splits into parts on several devices (a
// stripe's units, a log's slots and the disk's rest) completes when its last
// part does. RequestParts keeps which parent each part belongs to and hands
// back the parent once its last part is done; `Parent` is the system's own
// record, with at least `int parts_left` and `Ns done_ns`.
//
// next_instant: the earliest instant anything happens at.
#pragma once

#include <algorithm>
#include <cstdint>
#include <limits>
#include <optional>
#include <unordered_map>
#include <vector>

#include "model/device.h"
#include "model/request.h"

namespace memstore::sim {

template <typename Parent>
class RequestParts {
 public:
  // A new parent, with no parts yet; its id.
  std::uint64_t open(Parent p) {
    const std::uint64_t id = next_++;
    parents_[id] = std::move(p);
    return id;
  }
  Parent& operator[](std::uint64_t parent) { return parents_.at(parent); }
  // Request `part` (its Request::id) is one more part of `parent`.
  Parent& add_part(std::uint64_t parent, std::uint64_t part) {
    part_of_[part] = parent;
    Parent& p = parents_.at(parent);
    ++p.parts_left;
    return p;
  }
  // Part `part` done at `done_ns`: its parent, removed, when that was its
  // last part; otherwise nothing.
  std::optional<Parent> part_done(std::uint64_t part, model::Ns done_ns) {
    const auto at = part_of_.find(part);
    const std::uint64_t id = at->second;
    part_of_.erase(at);
    const auto found = parents_.find(id);
    Parent& p = found->second;
    p.done_ns = std::max(p.done_ns, done_ns);
    if (--p.parts_left > 0) return std::nullopt;
    Parent done = std::move(p);
    parents_.erase(found);
    return done;
  }

 private:
  std::unordered_map<std::uint64_t, std::uint64_t> part_of_;
  std::unordered_map<std::uint64_t, Parent> parents_;
  std::uint64_t next_ = 0;
};

inline constexpr model::Ns kNever = std::numeric_limits<model::Ns>::max();

// The earliest of: the next arrival, the next of the system's own follow-up
// events (a priority queue whose top() has `at`), and the next time a device
// starts work; kNever when none is left. Each step of a run handles that
// instant, so requests reach the devices in time order.
template <typename Events>
model::Ns next_instant(const std::optional<model::Request>& arrival, const Events& events,
                       const std::vector<model::Device*>& devices) {
  model::Ns t = arrival ? arrival->arrival_ns : kNever;
  if (!events.empty()) t = std::min(t, events.top().at);
  for (const model::Device* d : devices) {
    if (d->next_start_ns() >= 0) t = std::min(t, d->next_start_ns());
  }
  return t;
}

}  // namespace memstore::sim
