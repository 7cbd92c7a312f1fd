// SPDX-License-Identifier: Apache-2.0
#include "sim/pipelined_simulate.h"

#include <sched.h>

#include <algorithm>
#include <condition_variable>
#include <cstddef>
#include <deque>
#include <exception>
#include <mutex>
#include <optional>
#include <thread>
#include <utility>
#include <vector>

namespace memstore::sim {

namespace {

using Requests = std::vector<model::Request>;
using Completions = std::vector<model::Completion>;

// Items per batch. A batch of requests is 48 KB and one of completions 136 KB,
// small enough for the batch being filled and the one being read to fit in
// their cores' L2 caches, and large enough that the threads meet rarely.
// Batches of 256 and of 4096 timed the same within the noise
// (docs/benchmarks/log/2026-11-27.md, "Toward 40x, third step").
constexpr std::size_t kBatch = 1024;
// Batches of requests produced ahead of the model: enough that it never waits
// while a helper counts a batch of completions instead.
constexpr std::size_t kRequestsAhead = 4;
// Batches of completions the model may leave behind before it waits for them
// to be counted, bounding the memory.
constexpr std::size_t kCompletionsBehind = 8;

// An emptied batch from `spares` for reuse (a new one if none), with room for
// kBatch items. Called under the pipe's lock.
template <class Batch>
Batch take_spare(std::vector<Batch>& spares) {
  Batch batch;
  if (!spares.empty()) {
    batch = std::move(spares.back());
    spares.pop_back();
  }
  batch.reserve(kBatch);
  return batch;
}

// What the threads share. One mutex and one condition variable for both
// directions: they are taken once per batch, so their cost is small, and one
// helper doing both jobs can wait for either kind of work with one wait.
class Pipe {
 public:
  // --- the model's thread -------------------------------------------------

  // The next batch of requests, waiting for it; empty once the source has
  // ended. Rethrows the source's exception at its place in the sequence, or a
  // helper's. `spent` is the previous batch, given back for reuse.
  Requests take_requests(Requests spent) {
    std::unique_lock lock(mutex_);
    spent.clear();
    spare_requests_.push_back(std::move(spent));
    changed_.notify_all();
    changed_.wait(lock, [&] { return !requests_.empty() || source_ended_ || failure_; });
    if (failure_) std::rethrow_exception(failure_);
    if (requests_.empty()) {
      if (source_error_) std::rethrow_exception(source_error_);
      return {};
    }
    Requests batch = std::move(requests_.front());
    requests_.pop_front();
    changed_.notify_all();
    return batch;
  }

  // Queues `done` to be counted, waiting while too many are queued; returns
  // an empty batch to fill next. `last` says no more will come.
  Completions give_completions(Completions done, bool last) {
    std::unique_lock lock(mutex_);
    changed_.wait(lock, [&] { return completions_.size() < kCompletionsBehind || failure_; });
    if (failure_) std::rethrow_exception(failure_);
    if (!done.empty()) completions_.push_back(std::move(done));
    completions_closed_ = last;
    changed_.notify_all();
    return take_spare(spare_completions_);
  }

  // The model's thread is leaving early (an exception): helpers stop.
  void cancel() {
    const std::lock_guard lock(mutex_);
    cancelled_ = true;
    changed_.notify_all();
  }

  // After the helpers have ended: a helper's exception, if any.
  std::exception_ptr failure() const { return failure_; }

  // --- helpers --------------------------------------------------------------

  // Runs the helper's jobs until they are done: producing requests from
  // `next` (when set) and counting completions into `stats` (when set).
  void help(const RequestSource* next, RunStats* stats) {
    try {
      work(next, stats);
    } catch (...) {
      const std::lock_guard lock(mutex_);
      if (!failure_) failure_ = std::current_exception();
      changed_.notify_all();
    }
  }

 private:
  void work(const RequestSource* next, RunStats* stats) {
    std::unique_lock lock(mutex_);
    for (;;) {
      const bool produce = next != nullptr && !source_ended_;
      const bool count = stats != nullptr && !(completions_closed_ && completions_.empty());
      if (cancelled_ || failure_ || (!produce && !count)) return;
      // Producing first: the model waiting for requests costs more than
      // completions waiting to be counted.
      if (produce && requests_.size() < kRequestsAhead) {
        Requests batch = take_spare(spare_requests_);
        lock.unlock();
        std::exception_ptr error;
        bool ended = false;
        try {
          ended = fill(*next, batch);
        } catch (...) {
          error = std::current_exception();
          ended = true;
        }
        lock.lock();
        if (!batch.empty()) requests_.push_back(std::move(batch));
        source_ended_ = ended;
        source_error_ = error;
        changed_.notify_all();
      } else if (count && !completions_.empty()) {
        Completions done = std::move(completions_.front());
        completions_.pop_front();
        changed_.notify_all();
        lock.unlock();
        for (const model::Completion& c : done) stats->add(c);
        done.clear();
        lock.lock();
        spare_completions_.push_back(std::move(done));
      } else {
        changed_.wait(lock);
      }
    }
  }

  // Appends requests from `next` until the batch is full; true if the
  // source ended. Calls `next` no more after it has returned nullopt.
  static bool fill(const RequestSource& next, Requests& batch) {
    while (batch.size() < kBatch) {
      std::optional<model::Request> r = next();
      if (!r) return true;
      batch.push_back(*r);
    }
    return false;
  }

  std::mutex mutex_;
  std::condition_variable changed_;
  std::deque<Requests> requests_;  // produced, not yet taken by the model
  bool source_ended_ = false;
  std::exception_ptr source_error_;      // what ended the source, if it threw
  std::deque<Completions> completions_;  // given, not yet counted
  bool completions_closed_ = false;
  bool cancelled_ = false;
  std::exception_ptr failure_;            // a helper's own exception (not the source's)
  std::vector<Requests> spare_requests_;  // emptied batches, for reuse
  std::vector<Completions> spare_completions_;
};

// The helper threads; if the model's thread leaves early, they are cancelled
// before they are joined.
class Helpers {
 public:
  Helpers(Pipe& pipe, const RequestSource& next, RunStats& stats, int threads) : pipe_(pipe) {
    if (threads == 2) {
      threads_.emplace_back([&pipe, &next, &stats] { pipe.help(&next, &stats); });
    } else {
      threads_.emplace_back([&pipe, &next] { pipe.help(&next, nullptr); });
      threads_.emplace_back([&pipe, &stats] { pipe.help(nullptr, &stats); });
    }
  }
  Helpers(const Helpers&) = delete;
  Helpers& operator=(const Helpers&) = delete;
  ~Helpers() {
    if (!joined_) {
      pipe_.cancel();
      join();
    }
  }

  // Waits for the helpers to finish their work; rethrows a helper's exception.
  void finish() {
    join();
    if (pipe_.failure()) std::rethrow_exception(pipe_.failure());
  }

 private:
  void join() {
    for (std::thread& t : threads_) t.join();
    joined_ = true;
  }

  Pipe& pipe_;
  std::vector<std::thread> threads_;
  bool joined_ = false;
};

}  // namespace

int default_simulation_threads() {
  // The CPUs this process may run on (taskset, cgroup cpusets), not the
  // machine's: pinned to one CPU, a helper only adds hand-overs.
  cpu_set_t cpus;
  const int usable = sched_getaffinity(0, sizeof cpus, &cpus) == 0
                         ? CPU_COUNT(&cpus)
                         : static_cast<int>(std::thread::hardware_concurrency());
  return usable == 1 ? 1 : 2;
}

int simulation_threads(int requested) {
  return requested > 0 ? requested : default_simulation_threads();
}

RunStats simulate_pipelined(model::Device& device, const RequestSource& next, int threads,
                            const model::Device::Sink& on_completion) {
  if (threads <= 1) return simulate(device, next, on_completion);
  Pipe pipe;
  RunStats stats;  // counted by a helper; read here only after it has ended
  {
    Helpers helpers(pipe, next, stats, std::min(threads, 3));
    Completions done = pipe.give_completions({}, false);
    const model::Device::Sink sink = [&](const model::Completion& c) {
      done.push_back(c);
      if (done.size() == kBatch) done = pipe.give_completions(std::move(done), false);
      if (on_completion) on_completion(c);
    };
    // The same loop as simulate(), over the batches.
    Requests batch;
    while (!(batch = pipe.take_requests(std::move(batch))).empty()) {
      for (const model::Request& r : batch) {
        device.run_until(r.arrival_ns - 1, sink);
        device.submit(r);
      }
    }
    device.drain(sink);
    pipe.give_completions(std::move(done), true);
    helpers.finish();
  }
  stats.energy = device.energy(stats.last_done_ns);
  stats.merged = device.merged_requests();
  return stats;
}

}  // namespace memstore::sim
