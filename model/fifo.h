// SPDX-License-Identifier: Apache-2.0
// A first-in first-out queue on one vector that keeps its capacity: unlike
// std::deque, which frees and allocates a chunk every few elements as a
// queue cycles, a FIFO in a steady state allocates nothing (the target's
// READ/WRITE path must not allocate per command). Popped slots are
// reclaimed when the queue empties or when more than half of it is dead.
#pragma once

#include <cstddef>
#include <optional>
#include <vector>

namespace memstore::model {

template <typename T>
class Fifo {
 public:
  bool empty() const { return head_ == items_.size(); }
  std::size_t size() const { return items_.size() - head_; }
  const T& front() const { return items_[head_]; }
  void push_back(const T& v) { items_.push_back(v); }
  void pop_front() {
    ++head_;
    if (head_ == items_.size()) {
      clear();
    } else if (head_ > 64 && head_ * 2 > items_.size()) {
      items_.erase(items_.begin(), items_.begin() + static_cast<std::ptrdiff_t>(head_));
      head_ = 0;
    }
  }
  // Removes and returns the first element (from the front) that `pred`
  // accepts, or nullopt; the others keep their order.
  template <typename Pred>
  std::optional<T> take_first_if(Pred pred) {
    for (std::size_t i = head_; i < items_.size(); ++i) {
      if (!pred(items_[i])) continue;
      T v = items_[i];
      items_.erase(items_.begin() + static_cast<std::ptrdiff_t>(i));
      if (head_ == items_.size()) clear();
      return v;
    }
    return std::nullopt;
  }
  void clear() {
    items_.clear();
    head_ = 0;
  }
  auto begin() const { return items_.begin() + static_cast<std::ptrdiff_t>(head_); }
  auto end() const { return items_.end(); }

 private:
  std::vector<T> items_;
  std::size_t head_ = 0;
};

}  // namespace memstore::model
