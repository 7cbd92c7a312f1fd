// SPDX-License-Identifier: Apache-2.0
// Drives a Lun in wall-clock time on an Asio io_context: the Asio side of
// the delivery engine (target/delivery/engine.h, which holds the timing
// modes, the model clock, compensation, the due-time heap, lateness, the
// completion log and the page 31h feed). This adapter owns what needs the
// event loop: one wake timer for the engine's next instant, the spin before
// it (polling by posting itself), the drain posted in off timing, and the
// wait on the asynchronous store's completions (a file store on io_uring: a
// result is delivered at its instant or when its storage operations finish,
// whichever is later; a late finish shows as lateness).
//
// memstored runs one per LUN on its io_context; the TCMU handler runs one on
// a thread of its own (target/tcmu/threaded_driver.h). Neither transport's
// code is here: both, and the control socket, use it from above.
//
// Single-threaded: call it from the io_context's thread only.
#pragma once

#include <boost/asio/io_context.hpp>
#include <boost/asio/posix/stream_descriptor.hpp>
#include <boost/asio/steady_timer.hpp>
#include <chrono>
#include <cstdint>
#include <functional>
#include <limits>
#include <memory>
#include <optional>
#include <utility>

#include "target/delivery/clock.h"
#include "target/delivery/delivery_record.h"
#include "target/delivery/engine.h"
#include "target/delivery/lateness.h"
#include "target/driver/command_port.h"
#include "target/driver/handler_memory.h"
#include "target/scsi/lun.h"

namespace memstore::driver {

class TimedLun final : public CommandPort {
 public:
  TimedLun(boost::asio::io_context& io, std::unique_ptr<scsi::Lun> lun);
  TimedLun(const TimedLun&) = delete;
  TimedLun& operator=(const TimedLun&) = delete;

  // The command arrives now; `done` runs when its result is due. Its CDB
  // and data-out are consumed (or, for the data-out buffer, taken) before
  // this returns.
  void submit(scsi::ScsiCommand command, Done done) override;

  // Drops the pending callbacks of a nexus (its connection closed); the LUN
  // still serves the commands in the model.
  void forget(std::uint64_t nexus) override { engine_.forget(nexus); }
  void recycle(scsi::Bytes buffer) override { lun().recycle(std::move(buffer)); }
  std::uint32_t block_size() const override { return engine_.lun().block_size(); }
  void describe_nexus(std::uint64_t nexus, std::string initiator_port) override {
    lun().describe_nexus(nexus, std::move(initiator_port));
  }
  void reset() override { lun().lun_reset(); }
  bool may_withhold_r2t() const override { return !retired_ && engine_.lun().may_withhold_r2t(); }
  void screen_r2t(std::uint64_t nexus, std::span<const std::uint8_t> cdb,
                  R2tAnswer answer) override {
    answer(withholds_r2t(nexus, cdb));
  }
  // The same, answered at once (context()'s thread only).
  bool withholds_r2t(std::uint64_t nexus, std::span<const std::uint8_t> cdb);

  scsi::Lun& lun() { return engine_.lun(); }
  // The io_context this and its Lun run on: every call must come from its
  // thread (LoopBridge carries calls from other threads).
  boost::asio::io_context& context() const { return io_; }
  const delivery::Lateness& lateness() const { return engine_.lateness(); }
  const delivery::DeliveryCounters& counters() const { return engine_.counters(); }
  // Changes page 22h now (the control socket), as MODE SELECT would.
  Status set_control(const modepages::ControlPage& page) {
    auto e = engine_.set_control(page);
    schedule();  // the next instant moved
    return e;
  }
  // Called for every completion delivered in realtime or scaled timing.
  void on_delivery(std::function<void(const delivery::Delivery&)> log) {
    engine_.on_delivery(std::move(log));
  }
  // How long before a delivery instant this stops sleeping and waits
  // on the CPU instead (0: sleep until the timer fires). It trades CPU time
  // for accuracy; see schedule().
  void set_spin(std::chrono::nanoseconds spin) { spin_ns_ = spin.count(); }
  // The model's time now (what a command arriving now would be stamped).
  scsi::Ns model_time() const { return engine_.model_time(); }
  // The initiator's round trip, taken off each command's arrival in
  // realtime timing (delivery::Engine::set_compensation). 0: none.
  void set_compensation(std::chrono::nanoseconds c) { engine_.set_compensation(c); }
  // Shutdown, once no session is left to receive a result: this stops
  // waking up for the model's instants, so that results still queued in a
  // slowed-down model (large scale) do not keep the event loop running.
  // Storage operations in flight still complete. Call on context().
  void stop_timing() {
    stopped_ = true;
    wake_timer_.cancel();
  }
  // The LUN is removed while the daemon runs (iscsi::Server::remove_lun),
  // and no bridge submits to it any more. Every command not yet answered gets CHECK
  // CONDITION, LOGICAL UNIT NOT SUPPORTED (25h/00h) now, so that initiators
  // see an error at once rather than a timeout; it stops waking up;
  // the store finishes its operations in flight, and the LUN is switched
  // off (scsi::Lun::switch_off: a volatile write cache loses what the host
  // did not flush; everything else acknowledged is durable). Returns the
  // flush's error.
  // Call on context(), and destroy this from a handler posted after
  // this one: the handlers this cancels still run first.
  scsi::StoreStatus retire();

 private:
  void schedule();  // wake up (or poll) for the engine's next instant
  void spin();
  void tick();
  void watch_storage();  // reap the store's completions when there are any

  boost::asio::io_context& io_;
  const delivery::SteadyClock clock_;
  delivery::Engine engine_;
  std::optional<boost::asio::posix::stream_descriptor> storage_events_;
  bool watching_storage_ = false;
  HandlerMemory storage_memory_;
  boost::asio::steady_timer wake_timer_;
  delivery::WallNs wake_armed_for_ = std::numeric_limits<delivery::WallNs>::max();
  bool drain_posted_ = false;  // timing off: one posted drain at a time
  bool spinning_ = false;      // a spin handler is posted
  bool stopped_ = false;       // stop_timing()
  bool retired_ = false;       // retire()
  HandlerMemory wake_memory_, drain_memory_, spin_memory_;
  std::int64_t spin_ns_ = 0;
};

}  // namespace memstore::driver
