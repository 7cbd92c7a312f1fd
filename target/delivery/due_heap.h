// SPDX-License-Identifier: Apache-2.0
// Results the model has decided, waiting for their delivery instant: a
// min-heap on (due, sequence) in one vector, so that a transport needs one
// wake-up for the earliest of them and a delivery allocates nothing once the
// vector has grown to the deepest queue seen (no timer object or handler per
// command). The sequence, given on push(), keeps results due at the same
// instant in the order the model decided them.
#pragma once

#include <cstdint>
#include <functional>
#include <vector>

#include "target/delivery/clock.h"
#include "target/scsi/lun.h"

namespace memstore::delivery {

using Done = std::function<void(scsi::ScsiResult)>;

struct Due {
  WallNs due = 0;
  std::uint64_t sequence = 0;  // set by DueHeap::push
  Done done;
  scsi::ScsiResult result;
  scsi::Ns arrival_ns = 0;  // on the model's clock
  bool timed = false;       // realtime or scaled: lateness is recorded
  // scsi::Lun::power_cycles() when the command arrived: a cut since drops it.
  std::uint64_t power_cycles = 0;
};

class DueHeap {
 public:
  bool empty() const { return heap_.empty(); }
  std::size_t size() const { return heap_.size(); }
  // The earliest. REQUIRES: !empty().
  const Due& top() const { return heap_.front(); }
  void push(Due d);
  // Removes and returns the earliest. REQUIRES: !empty().
  Due pop();
  // Drops every entry `drop` selects.
  void erase_if(const std::function<bool(const Due&)>& drop);
  // Calls `f` on every entry, in no particular order. `f` may change
  // anything but `due` and `sequence`, which place the entry in the heap.
  void for_each(const std::function<void(Due&)>& f);

 private:
  std::vector<Due> heap_;
  std::uint64_t next_sequence_ = 0;
};

}  // namespace memstore::delivery
