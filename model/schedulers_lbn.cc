// SPDX-License-Identifier: Apache-2.0
#include "model/schedulers_lbn.h"

#include <algorithm>

namespace memstore::model {

Request FcfsScheduler::pick(const Mechanism&, Ns) {
  Request r = queue_.front();
  queue_.pop_front();
  return r;
}

std::vector<Request> FcfsScheduler::drain() {
  std::vector<Request> out(queue_.begin(), queue_.end());
  queue_.clear();
  return out;
}

std::vector<Request> LbnOrderedQueue::drain_in_arrival_order() {
  std::vector<std::pair<std::uint64_t, Request>> by_seq;
  for (const auto& [key, r] : q_) by_seq.emplace_back(key.second, r);
  std::sort(by_seq.begin(), by_seq.end(),
            [](const auto& a, const auto& b) { return a.first < b.first; });
  q_.clear();
  std::vector<Request> out;
  for (auto& [seq, r] : by_seq) out.push_back(r);
  return out;
}

Request LbnOrderedQueue::take(std::map<Key, Request>::iterator it) {
  Request r = it->second;
  q_.erase(it);
  last_end_ = r.lbn + r.blocks;
  return r;
}

std::optional<Request> LbnOrderedQueue::take_continuing(Lbn lbn, Op op) {
  // Equal LBNs lie in arrival order.
  for (auto it = q_.lower_bound({lbn, 0}); it != q_.end() && it->first.first == lbn; ++it) {
    if (continues_at(it->second, lbn, op)) return take(it);
  }
  return std::nullopt;
}

Request ClookScheduler::pick(const Mechanism&, Ns) {
  auto it = q_.lower_bound({last_end_, 0});
  if (it == q_.end()) it = q_.begin();
  return take(it);
}

Request SstfScheduler::pick(const Mechanism&, Ns) {
  auto above = q_.lower_bound({last_end_, 0});
  auto it = above;
  if (above == q_.end()) {
    // Everything lies below: the highest LBN, its earliest arrival.
    it = q_.lower_bound({std::prev(above)->first.first, 0});
  } else if (above != q_.begin()) {
    auto below = std::prev(above);
    // Distance from the head: below ends before it; ties prefer the lower LBN.
    const Lbn d_below = last_end_ - below->first.first;
    const Lbn d_above = above->first.first - last_end_;
    if (d_below <= d_above) {
      // Among equal LBNs keep the earliest arrival.
      it = q_.lower_bound({below->first.first, 0});
    }
  }
  return take(it);
}

}  // namespace memstore::model
