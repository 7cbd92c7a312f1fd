// SPDX-License-Identifier: Apache-2.0
// Device-internal request schedulers (thesis §6.1; second paper §4), behind
// one interface and selectable by name.
//
//   fcfs   first come, first served
//   clook  C-LOOK on LBNs: ascending from the last LBN, then wrap (CLOOK_LBN)
//   sstf   shortest LBN distance from the last request (SSTF_LBN)
//   sptf   shortest positioning time, from the mechanism's own model
//   asptf  aged SPTF: positioning time minus w * time waited (Jacobson & Wilkes)
//   sdf    shortest Euclidean distance on the media (thesis §6.1.4)
//   zsptf  zoned SPTF with pyramiding (second paper §4.1)
//   zfcfs  the same zones, FCFS inside a zone (second paper §4.2.1)
//   ztsptf the same zones, SPTF over the requests that arrived before the zone was
//          entered (second paper §4.2.1)
#pragma once

#include <cstddef>
#include <memory>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "model/mechanism.h"
#include "model/request.h"

namespace memstore::model {

struct SchedulerOptions {
  // asptf: weight of waiting time against positioning time (dimensionless).
  double age_weight = 0.01;
  // zsptf: zone grid over the media (cells in X and in Y); every cell holds
  // two zones, one per access direction (second paper Fig. 5). 20 x 2 cells
  // give its "medium" 80 zones.
  int zones_x = 20;
  int zones_y = 2;
  // zsptf pyramiding: while fewer than this many requests are pending per
  // zone on average, merge 2x2 neighbouring cells (second paper Fig. 6);
  // 0 turns pyramiding off.
  double pyramid_min_per_zone = 1.0;
};

class Scheduler {
 public:
  virtual ~Scheduler() = default;
  virtual const char* name() const = 0;
  virtual void add(const Request& r) = 0;
  virtual std::size_t size() const = 0;
  bool empty() const { return size() == 0; }
  // Removes and returns the request to serve next when the mechanism, in its
  // current state, becomes free at `now`. REQUIRES: !empty().
  virtual Request pick(const Mechanism& mechanism, Ns now) = 0;
  // Removes every pending request and returns them in arrival order (to hand
  // them to another scheduler).
  virtual std::vector<Request> drain() = 0;
  // Request merging (second paper §5.2.2): removes and returns the earliest
  // arrival among the pending requests that continue_at(lbn, op), or nullopt.
  virtual std::optional<Request> take_continuing(Lbn lbn, Op op) = 0;
};

// Whether `r` can join a media access that ends before `lbn`: it begins
// there, does the same operation, and is not a batch (a batch plans its own
// access, thesis §6.3.5).
inline bool continues_at(const Request& r, Lbn lbn, Op op) {
  return r.lbn == lbn && r.op == op && r.batch == nullptr;
}

// nullptr for an unknown name.
std::unique_ptr<Scheduler> make_scheduler(std::string_view name,
                                          const SchedulerOptions& options = {});
std::vector<std::string> scheduler_names();

}  // namespace memstore::model
