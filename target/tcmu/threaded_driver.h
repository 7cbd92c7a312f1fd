// Drives a Lun in wall-clock time for callers that block: execute() submits
// a command now and returns when its result is due, with the timing modes of
// iscsi::LunDriver (DESIGN.md "Transports"): at the modeled completion
// (realtime), at k times the modeled delays (scaled), or as soon as the model
// has accounted for it (off). Never early: a caller sleeps until an absolute
// CLOCK_MONOTONIC deadline, so it can only be late (by its wake-up latency,
// recorded in lateness()).
//
// Why blocking callers: tcmu-runner (1.5.x) runs a handle_cmd-only handler's
// handle_cmd on `nr_threads` worker threads and takes the final status from
// its return value; there is no way for such a handler to complete a
// command later from a thread of its own (DESIGN.md "Transports", measured
// facts). So each in-flight command holds one worker while it waits, and the
// handler asks for as many workers as LIO can have commands in flight.
//
// Threads: the Lun is single-threaded (one caller drives it), so one mutex
// guards it and every call into it: submit() from the callers, advance()
// from the decision thread. A mutex rather than a dedicated Lun thread
// because the callers have to wait anyway and submit() is short (CDB parse,
// data copy, model enqueue); handing each command to another thread and back
// would add two context switches to every completion, which under QEMU's TCG
// costs tens of microseconds. The mutex is never held while anyone sleeps
// towards a due time, so commands overlap exactly as far as the model lets
// them: the model alone serialises media access.
//
// The decision thread sleeps until the model's next decision (when its next
// service starts: Lun::next_decision_ns) and advances the model then; that
// decides the completion times of the commands whose service starts, and
// wakes their callers, who then sleep on their own threads until their
// completion is due. A late decision does not shift modeled times (the model
// computes them from its own clock), only how early a caller learns its due
// time.
#pragma once

#include <chrono>
#include <condition_variable>
#include <cstdint>
#include <memory>
#include <mutex>
#include <optional>
#include <span>
#include <thread>
#include <unordered_map>

#include "target/scsi/lun.h"

namespace memstore::tcmu {

struct Lateness {
  std::uint64_t count = 0;  // timed deliveries (off mode records none)
  std::int64_t max_ns = 0;
  long double sum_ns = 0;
  double mean_ns() const { return count == 0 ? 0.0 : static_cast<double>(sum_ns / count); }
};

class ThreadedLunDriver {
 public:
  using Clock = std::chrono::steady_clock;  // CLOCK_MONOTONIC

  explicit ThreadedLunDriver(std::unique_ptr<scsi::Lun> lun);
  // REQUIRES: no execute() in progress.
  ~ThreadedLunDriver();
  ThreadedLunDriver(const ThreadedLunDriver&) = delete;
  ThreadedLunDriver& operator=(const ThreadedLunDriver&) = delete;

  // Thread-safe. The command arrives now (all on one I_T nexus: TCMU does not
  // tell userspace which initiator sent a command); returns its result when
  // it is due. `cdb` and `data_out` must stay valid until it returns.
  scsi::ScsiResult execute(std::span<const std::uint8_t> cdb,
                           std::span<const std::uint8_t> data_out);

  Lateness lateness() const;
  // Flushes the backing store (close). REQUIRES: no execute() in progress.
  scsi::StoreStatus flush();
  std::uint64_t blocks() const { return lun_->blocks(); }
  std::uint32_t block_size() const { return lun_->block_size(); }

 private:
  struct Waiter {
    std::optional<scsi::ScsiResult> result;
    std::condition_variable decided;
  };
  // REQUIRES (all three): mu_ held.
  scsi::Ns virtual_now() const;
  Clock::time_point wall_at(scsi::Ns virtual_ns) const;
  void on_result(scsi::ScsiResult r);
  void run_decisions();

  std::unique_ptr<scsi::Lun> lun_;
  const Clock::time_point epoch_;
  mutable std::mutex mu_;
  std::condition_variable decider_wake_;
  bool stopping_ = false;
  std::uint64_t next_tag_ = 1;
  std::unordered_map<std::uint64_t, Waiter*> waiting_;  // by tag
  const scsi::Lun::Sink sink_;
  mutable std::mutex lateness_mu_;
  Lateness lateness_;
  std::thread decider_;  // last: starts once everything above exists
};

}  // namespace memstore::tcmu
