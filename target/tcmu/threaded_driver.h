// SPDX-License-Identifier: Apache-2.0
// Drives a Lun in wall-clock time for callers that block: execute() submits
// a command now and returns when its result is due, with the timing modes
// of memstored (docs/memstored.md "Timing"): at the modeled completion
// (realtime), at k times the modeled delays (scaled), or as soon as the
// model has accounted for it (off). Never early.
//
// Why blocking callers: tcmu-runner (1.5.x) runs a handle_cmd-only handler's
// handle_cmd on `nr_threads` worker threads and takes the final status from
// its return value; there is no way for such a handler to complete a
// command later from a thread of its own (docs/tcmu.md section 5,
// measured). So each in-flight command holds one worker while it waits, and the
// handler asks for as many workers as LIO can have commands in flight.
//
// Threads: one thread owns the Lun. It runs an io_context with the same
// driver::TimedLun memstored runs (target/driver/timed_lun.h, over the
// delivery engine target/delivery/engine.h), so the handler delivers as
// memstored does: one model clock, one due-time heap and wake timer, the
// spin before an instant, transport compensation, the same lateness
// figures, the log page 31h feed, and storage I/O on io_uring for an image
// file (so that thread never waits for the disk).
// A caller copies its CDB into a call record on its own stack, posts the
// record to the LUN thread and waits on the record's condition variable;
// the LUN thread submits the command (the Lun consumes the data-out there,
// lun.h: a command's data takes effect at submission) and, at the result's
// due instant, moves the result into the record and signals it under the
// record's mutex. So the Lun is touched by one thread only (it is
// single-threaded, lun.h), every hand-over goes through a mutex (the
// io_context's queue, the record's), and a command's effect on the data
// happens in the order the commands reach that thread.
//
// The cost: two thread hand-offs per command (the caller wakes the LUN
// thread, the LUN thread wakes the caller), each a futex wake and a context
// switch. Natively, on a loaded 2-core machine, an off-mode command takes
// 12-19 µs, and a caller wakes 12-26 µs after its result is handed back
// (docs/benchmarks.md, "TCMU handler"). A Lun behind a mutex, with each
// caller sleeping towards its own due time, would save both hand-offs (an
// off-mode command in 2.8-3.6 µs), but it needs a timing engine of its own
// (no spin, no compensation, no page 31h) and its callers contend for the
// mutex.
//
// The second hand-off is not in lateness() or page 31h: they measure when
// the engine hands the result over, as memstored measures before its
// session writes the response. The caller's wake-up comes on top, and
// handback() measures it.
#pragma once

#include <chrono>
#include <cstdint>
#include <memory>
#include <mutex>
#include <string>

#include "target/delivery/lateness.h"
#include "target/scsi/log_sink.h"
#include "target/scsi/lun.h"

namespace memstore::tcmu {

using Lateness = delivery::Lateness;

class ThreadedLunDriver {
 public:
  using Clock = std::chrono::steady_clock;  // CLOCK_MONOTONIC

  // Starts the LUN thread, which owns `lun` from then on.
  explicit ThreadedLunDriver(std::unique_ptr<scsi::Lun> lun);
  // REQUIRES: no execute() in progress.
  ~ThreadedLunDriver();
  ThreadedLunDriver(const ThreadedLunDriver&) = delete;
  ThreadedLunDriver& operator=(const ThreadedLunDriver&) = delete;

  // Thread-safe. The command arrives now; returns its result when it is
  // due. When a power-cut fault rule cuts the Lun's power, the commands in
  // it are answered when the power comes back, with CHECK CONDITION, UNIT
  // ATTENTION, POWER ON (06h/29h/00h), as are those that arrive meanwhile,
  // which never run (docs/crash-consistency.md, "Under LIO"). Its nexus and tag are set
  // here: all commands share one I_T nexus (TCMU does not tell userspace which initiator sent a
  // command). Its spans must stay valid until this returns. Throws what the Lun threw while taking
  // the command (std::bad_alloc).
  scsi::ScsiResult execute(scsi::ScsiCommand command);

  // Thread-safe; each asks the LUN thread and waits for its answer.
  Lateness lateness() const;
  // Thread-safe. How long callers took to return after the LUN thread
  // handed them their result (the second hand-off), over every command
  // (timed or not). A timed command's caller returns lateness + this late.
  Lateness handback() const;
  // The device closes (scsi::Lun::switch_off: a volatile write cache loses
  // what the host did not flush; the medium is flushed). REQUIRES: no
  // execute() in progress.
  scsi::StoreStatus switch_off();
  // driver::TimedLun::set_spin: how long before an instant the LUN thread
  // stops sleeping and polls (0, the default: it sleeps until its timer).
  void set_spin(std::chrono::nanoseconds spin);
  // driver::TimedLun::set_compensation: taken off each arrival (realtime).
  void set_compensation(std::chrono::nanoseconds c);
  // scsi::Lun::set_log: where the Lun's messages go (fault rules that fire,
  // a power cut's account of what it took), and this driver's line when the
  // power comes back; called on the LUN thread.
  void set_log(scsi::LogSink sink, std::string name);

  std::uint64_t blocks() const { return blocks_; }
  std::uint32_t block_size() const { return block_size_; }

 private:
  class LunThread;
  // Read before the LUN thread starts: constant, and not worth a hand-off.
  const std::uint64_t blocks_;
  const std::uint32_t block_size_;
  mutable std::mutex handback_mu_;
  Lateness handback_;
  std::unique_ptr<LunThread> lun_thread_;
};

}  // namespace memstore::tcmu
