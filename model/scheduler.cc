// SPDX-License-Identifier: Apache-2.0
#include "model/scheduler.h"

#include "model/schedulers_lbn.h"
#include "model/schedulers_positioning.h"

namespace memstore::model {
namespace {

struct Entry {
  const char* name;
  std::unique_ptr<Scheduler> (*make)(const SchedulerOptions&);
};

// The one list of schedulers: names for the CLI and the control mode page
// come from here.
constexpr Entry kSchedulers[] = {
    {"fcfs",
     [](const SchedulerOptions&) -> std::unique_ptr<Scheduler> {
       return std::make_unique<FcfsScheduler>();
     }},
    {"clook",
     [](const SchedulerOptions&) -> std::unique_ptr<Scheduler> {
       return std::make_unique<ClookScheduler>();
     }},
    {"sstf",
     [](const SchedulerOptions&) -> std::unique_ptr<Scheduler> {
       return std::make_unique<SstfScheduler>();
     }},
    {"sptf",
     [](const SchedulerOptions&) -> std::unique_ptr<Scheduler> {
       return std::make_unique<SptfScheduler>(0.0);
     }},
    {"asptf",
     [](const SchedulerOptions& o) -> std::unique_ptr<Scheduler> {
       return std::make_unique<SptfScheduler>(o.age_weight);
     }},
    {"sdf",
     [](const SchedulerOptions&) -> std::unique_ptr<Scheduler> {
       return std::make_unique<SdfScheduler>();
     }},
    {"zsptf",
     [](const SchedulerOptions& o) -> std::unique_ptr<Scheduler> {
       return std::make_unique<ZsptfScheduler>(o);
     }},
    {"zfcfs",
     [](const SchedulerOptions& o) -> std::unique_ptr<Scheduler> {
       return std::make_unique<ZsptfScheduler>(o, ZsptfScheduler::InZone::kFcfs);
     }},
    {"ztsptf",
     [](const SchedulerOptions& o) -> std::unique_ptr<Scheduler> {
       return std::make_unique<ZsptfScheduler>(o, ZsptfScheduler::InZone::kArrivedBefore);
     }},
};

}  // namespace

std::unique_ptr<Scheduler> make_scheduler(std::string_view name, const SchedulerOptions& options) {
  for (const Entry& e : kSchedulers) {
    if (name == e.name) return e.make(options);
  }
  return nullptr;
}

std::vector<std::string> scheduler_names() {
  std::vector<std::string> names;
  for (const Entry& e : kSchedulers) names.emplace_back(e.name);
  return names;
}

}  // namespace memstore::model
