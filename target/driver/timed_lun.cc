// SPDX-License-Identifier: Apache-2.0
#include "target/driver/timed_lun.h"

#include <unistd.h>

#include <boost/asio/post.hpp>

namespace memstore::driver {

TimedLun::TimedLun(boost::asio::io_context& io, std::unique_ptr<scsi::Lun> lun)
    : io_(io), engine_(std::move(lun), clock_), wake_timer_(io) {
  if (engine_.lun().enable_async_io()) {
    // A duplicate: the stream descriptor closes what it holds.
    storage_events_.emplace(io_, ::dup(engine_.lun().store_async()->completion_fd()));
  }
}

void TimedLun::submit(scsi::ScsiCommand command, Done done) {
  if (retired_) {  // cannot happen through a LoopBridge (retired first); kept safe
    scsi::ScsiResult r;
    r.nexus = command.nexus;
    r.tag = command.tag;
    r.status = scsi::Status::kCheckCondition;
    r.sense = scsi::build_sense({scsi::Reason::kLunNotSupported, std::nullopt, std::nullopt},
                                lun().descriptor_sense());
    return done(std::move(r));
  }
  engine_.submit(command, std::move(done));
  watch_storage();
  if (!engine_.timing_off()) return schedule();
  if (engine_.has_results() && !drain_posted_) {
    // As soon as possible, but not from inside this call: the session may
    // submit the initiator's next command from its completion.
    drain_posted_ = true;
    boost::asio::post(io_, with_memory(drain_memory_, [this] {
                        drain_posted_ = false;
                        engine_.deliver_all();
                      }));
  }
}

bool TimedLun::withholds_r2t(std::uint64_t nexus, std::span<const std::uint8_t> cdb) {
  if (retired_) return false;
  return lun().screen_r2t(nexus, cdb, engine_.model_time()).has_value();
}

scsi::StoreStatus TimedLun::retire() {
  retired_ = true;
  stop_timing();
  if (storage_events_) {
    boost::system::error_code ignored;
    storage_events_->cancel(ignored);
  }
  engine_.end_all(scsi::Reason::kLunNotSupported);
  return lun().switch_off("the LUN removed");  // waits for the operations in flight first
}

// Two kinds of instants matter in realtime and scaled timing: a result's
// delivery, and the model's next decision (a queued command's service
// starts when the one before it completes); the engine gives the earlier.
// One timer wakes the driver the spin margin before it; from there it
// polls: waking a sleeping thread costs tens of microseconds on a VM, far
// more than the delivery accuracy the emulator promises (docs/benchmarks.md,
// "Timing fidelity"). The decision shares the timer because it usually
// falls on a delivery's instant, where a second timer's expiry would be
// handled first and make that delivery late.
void TimedLun::schedule() {
  if (spinning_ || stopped_ || engine_.timing_off()) return;
  const std::optional<delivery::WallNs> next = engine_.next_instant();
  if (!next) return;
  // Compared this way round: an off-timing result left from before a mode
  // change is due at the clock's minimum, and next - now would overflow.
  if (*next <= engine_.now() + spin_ns_) return spin();
  const delivery::WallNs at = *next - spin_ns_;
  if (wake_armed_for_ <= at) return;  // an earlier wake-up schedules again
  wake_armed_for_ = at;
  wake_timer_.expires_at(delivery::SteadyClock::at(at));
  wake_timer_.async_wait(with_memory(wake_memory_, [this, at](const boost::system::error_code& ec) {
    if (ec) return;  // re-armed earlier
    if (wake_armed_for_ == at) wake_armed_for_ = std::numeric_limits<delivery::WallNs>::max();
    tick();
  }));
}

// Polling: tick() again as soon as the io_context has run whatever else is
// ready, so that the initiators' commands are still read (their arrival
// times stay exact) while the driver waits for an instant.
void TimedLun::spin() {
  if (spinning_) return;
  spinning_ = true;
  boost::asio::post(io_, with_memory(spin_memory_, [this] {
                      spinning_ = false;
                      if (!stopped_) tick();
                    }));
}

void TimedLun::tick() {
  engine_.tick();
  schedule();
}

// The store's completions are reaped on this thread whenever its eventfd
// says there are some; the wait is armed only while operations are in
// flight, so that an idle LUN leaves the io_context free to return.
void TimedLun::watch_storage() {
  if (!storage_events_ || watching_storage_ || !engine_.storage_in_flight()) return;
  watching_storage_ = true;
  storage_events_->async_wait(
      boost::asio::posix::stream_descriptor::wait_read,
      with_memory(storage_memory_, [this](const boost::system::error_code& ec) {
        if (ec) return;  // cancelled: the driver is going away
        watching_storage_ = false;
        engine_.reap_storage();
        watch_storage();
      }));
}

}  // namespace memstore::driver
