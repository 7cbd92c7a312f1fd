// SPDX-License-Identifier: Apache-2.0
#include "target/delivery/due_heap.h"

#include <algorithm>

namespace memstore::delivery {
namespace {

// std::*_heap keep the greatest first; "greater" puts the earliest there.
bool later(const Due& a, const Due& b) {
  return a.due != b.due ? a.due > b.due : a.sequence > b.sequence;
}

}  // namespace

void DueHeap::push(Due d) {
  d.sequence = next_sequence_++;
  heap_.push_back(std::move(d));
  std::push_heap(heap_.begin(), heap_.end(), later);
}

Due DueHeap::pop() {
  std::pop_heap(heap_.begin(), heap_.end(), later);
  Due d = std::move(heap_.back());
  heap_.pop_back();
  return d;
}

void DueHeap::for_each(const std::function<void(Due&)>& f) {
  for (Due& d : heap_) f(d);
}

void DueHeap::erase_if(const std::function<bool(const Due&)>& drop) {
  std::erase_if(heap_, drop);
  std::make_heap(heap_.begin(), heap_.end(), later);
}

}  // namespace memstore::delivery
