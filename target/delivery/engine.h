// SPDX-License-Identifier: Apache-2.0
// The delivery engine: drives a Lun in wall-clock time for a transport,
// without the transport's event loop (docs/design.md, "Threads"). Commands
// arrive now, and each result is handed back at the instant the timing mode
// says: at the modeled completion (realtime), at `scale` times the modeled
// delays (scaled), or as soon as the model has accounted for it (off). Both
// transports use it through driver::TimedLun (Asio timers): memstored on
// its event loops, the TCMU handler (tcmu::ThreadedLunDriver) on a thread
// of its own.
//
// What it does: the model clock (model_clock.h), transport compensation
// (arrivals dated earlier), the due-time heap (due_heap.h), lateness
// statistics, the completion log (delivery_record.h), the Lun's page 31h
// delivery-lateness feed, and results that wait for their asynchronous
// storage. What the transport does: calling tick() at next_instant() (or
// earlier; a tick never delivers early), draining at once in off timing,
// and calling reap_storage() when the store's completion_fd() is readable.
//
// Never early: a result is delivered only once the clock has reached its
// instant, so lateness is >= 0 and is whatever the clock says it is.
//
// Single-threaded: the Lun is (lun.h), so one thread makes every call.
#pragma once

#include <chrono>
#include <cstdint>
#include <functional>
#include <map>
#include <memory>
#include <optional>
#include <span>
#include <utility>
#include <vector>

#include "target/delivery/clock.h"
#include "target/delivery/delivery_record.h"
#include "target/delivery/due_heap.h"
#include "target/delivery/lateness.h"
#include "target/delivery/model_clock.h"
#include "target/scsi/lun.h"
#include "target/scsi/node_pool.h"

namespace memstore::delivery {

class Engine {
 public:
  // The epoch (model time 0) is clock.now(). `clock` outlives the engine.
  Engine(std::unique_ptr<scsi::Lun> lun, const Clock& clock);
  Engine(const Engine&) = delete;
  Engine& operator=(const Engine&) = delete;

  scsi::Lun& lun() { return *lun_; }
  const scsi::Lun& lun() const { return *lun_; }
  bool timing_off() const { return lun_->timing().mode == scsi::TimingMode::kOff; }
  WallNs now() const { return clock_.now(); }
  WallNs epoch() const { return model_clock_.epoch(); }

  // The command arrives now: its arrival_ns is set here, on the model's
  // clock. `done` runs (from a later call: tick(), deliver_all(),
  // reap_storage()) when its result is due. Its CDB and data-out are
  // consumed before this returns (the Lun applies a command's data at
  // submission). In off timing the model decides every queued command at
  // once; the transport then calls deliver_all() soon, but not from inside
  // this call's caller if that is a `done` (a session submits the next
  // command from a completion).
  void submit(scsi::ScsiCommand command, Done done);
  // Drops the pending results of a nexus (its connection closed); the Lun
  // still serves its commands in the model.
  void forget(std::uint64_t nexus);
  // The LUN is going away (removed at run time): every command not yet
  // delivered, decided or not, is answered now with CHECK CONDITION
  // `reason`, in the LUN's sense format, and nothing is delivered after.
  // Storage operations in flight go on until the store is closed.
  void end_all(scsi::Reason reason);

  // Realtime and scaled timing: the next wall instant something is to be
  // done at, a delivery or the model's next decision (when a queued
  // command's service starts); nullopt when there is neither. May lie in
  // the past. Results waiting for storage do not count: they are delivered
  // by reap_storage().
  std::optional<WallNs> next_instant() const;
  // Delivers every result whose instant has come, then lets the model take
  // its decision if that instant has come, and delivers what that made due
  // at once. Deliveries first: working out a decision takes microseconds
  // that would make a delivery due at the same instant late (a queued
  // command's service starts when the one before it completes).
  void tick();
  // Delivers every decided result now, whatever its instant (off timing).
  void deliver_all() { deliver_due(true); }
  // Results decided and not yet delivered (not counting those waiting for
  // storage).
  bool has_results() const { return !due_.empty(); }

  // Asynchronous storage (Lun::enable_async_io): whether operations are in
  // flight, so the transport knows to watch the store's completion_fd().
  bool storage_in_flight() const;
  // Reaps the store's completions, hands each result whose storage has
  // finished its data (Lun::complete_io) and delivers those already due.
  // REQUIRES: lun().store_async().
  void reap_storage();

  const Lateness& lateness() const { return lateness_; }
  const DeliveryCounters& counters() const { return counters_; }
  // Page 22h from outside a command (the control socket): the model's clock
  // goes on from now at the new rate. An error names the refused field.
  Status set_control(const modepages::ControlPage& page) {
    auto e = lun_->set_control(page);
    follow_timing();
    return e;
  }
  // The model's time now, never before a time already handed to the model.
  scsi::Ns model_time() const { return std::max(model_now(), model_now_); }
  // Called for every completion delivered in realtime or scaled timing.
  void on_delivery(std::function<void(const Delivery&)> log) { delivery_log_ = std::move(log); }
  // The initiator's fixed round trip (its send, the network, its receive),
  // as measured with timing off at QD1. In realtime timing each command's
  // arrival is dated that much earlier on the model's clock, so that the
  // latency the initiator sees, rather than the span between arrival and
  // delivery here, matches the modeled service time; never earlier than a
  // time the model has already been advanced to (Lun::submit REQUIRES
  // non-decreasing arrivals). 0: no compensation. See docs/benchmarks.md,
  // "Timing fidelity".
  void set_compensation(std::chrono::nanoseconds c) { compensation_ns_ = c.count(); }

 private:
  scsi::Ns model_now() const { return model_clock_.model_at(clock_.now(), timing_); }
  WallNs wall_at(scsi::Ns model) const { return model_clock_.wall_at(model, timing_); }
  void on_result(scsi::ScsiResult r);
  void follow_timing();
  void deliver_due(bool all);
  void deliver(Due& d);
  void deliver_storage_ready();
  void settle_storage(scsi::ScsiResult& r);

  const Clock& clock_;
  std::unique_ptr<scsi::Lun> lun_;
  ModelClock model_clock_;
  scsi::Timing timing_;         // the timing model_clock_ runs at (follow_timing)
  const scsi::Lun::Sink sink_;  // on_result, made once

  // Commands submitted and not yet decided by the model, by (nexus, tag).
  struct Pending {
    Done done;
    scsi::Ns arrival_ns = 0;         // on the model clock
    std::uint64_t power_cycles = 0;  // scsi::Lun::power_cycles() at arrival
  };
  using PendingMap = std::map<std::pair<std::uint64_t, std::uint64_t>, Pending>;
  PendingMap pending_;
  scsi::NodePool<PendingMap> pending_pool_;

  DueHeap due_;
  // Due, but their storage operations have not finished (asynchronous store).
  std::vector<Due> waiting_storage_;

  scsi::Ns compensation_ns_ = 0;
  scsi::Ns model_now_ = 0;  // the latest time handed to the model
  Lateness lateness_;
  DeliveryCounters counters_;
  std::function<void(const Delivery&)> delivery_log_;
};

}  // namespace memstore::delivery
