#include "target/iscsi/lun_driver.h"

#include <algorithm>
#include <boost/asio/post.hpp>
#include <limits>
#include <unistd.h>

namespace memstore::iscsi {

LunDriver::LunDriver(boost::asio::io_context& io, std::unique_ptr<scsi::Lun> lun)
    : io_(io),
      lun_(std::move(lun)),
      epoch_(Clock::now()),
      wake_timer_(io) {
  if (lun_->enable_async_io()) {
    // A duplicate: the stream descriptor closes what it holds.
    storage_events_.emplace(io_, ::dup(lun_->store_async()->completion_fd()));
  }
}

// The model's clock: wall time since the epoch, slowed by the scale factor in
// scaled mode. (Changing the scale at run time rescales the past too; the
// control page documents that the change applies from then on only roughly.)
scsi::Ns LunDriver::virtual_now() const {
  const auto wall =
      std::chrono::duration_cast<std::chrono::nanoseconds>(Clock::now() - epoch_).count();
  const scsi::Timing& t = lun_->timing();
  if (t.mode == scsi::TimingMode::kScaled)
    return static_cast<scsi::Ns>(static_cast<double>(wall) / t.scale);
  return wall;
}

LunDriver::Clock::time_point LunDriver::wall_at(scsi::Ns virtual_ns) const {
  const scsi::Timing& t = lun_->timing();
  const double scale = t.mode == scsi::TimingMode::kScaled ? t.scale : 1.0;
  return epoch_ + std::chrono::nanoseconds(
                      static_cast<std::int64_t>(static_cast<double>(virtual_ns) * scale));
}

void LunDriver::submit(std::uint64_t nexus, std::uint64_t tag, std::span<const std::uint8_t> cdb,
                       std::span<const std::uint8_t> data_out, Done done) {
  scsi::ScsiCommand c;
  c.nexus = nexus;
  c.tag = tag;
  c.cdb = cdb;
  c.data_out = data_out;
  // Backdated by the initiator's round trip when compensating for it, but
  // never before a time the model has already been advanced to.
  const bool realtime = lun_->timing().mode == scsi::TimingMode::kRealtime;
  c.arrival_ns = std::max(virtual_now() - (realtime ? compensation_ns_ : 0), model_now_);
  model_now_ = c.arrival_ns;
  pending_pool_.insert(pending_, {nexus, tag}).first->second = Pending{std::move(done), c.arrival_ns};
  auto sink = [this](scsi::ScsiResult r) { on_result(std::move(r)); };
  lun_->submit(c, sink);
  watch_storage();
  if (lun_->timing().mode == scsi::TimingMode::kOff) {
    // As fast as possible: let the model decide everything queued now.
    lun_->advance(std::numeric_limits<scsi::Ns>::max(), sink);
  }
  schedule();
}

namespace {
bool later(const auto& a, const auto& b) {
  return a.due != b.due ? a.due > b.due : a.sequence > b.sequence;
}
}  // namespace

void LunDriver::on_result(scsi::ScsiResult r) {
  const auto key = std::make_pair(r.nexus, r.tag);
  auto it = pending_.find(key);
  if (it == pending_.end()) return;  // the connection is gone
  Due d;
  d.done = std::move(it->second.done);
  d.arrival_ns = it->second.arrival_ns;
  pending_pool_.erase(pending_, it);
  const bool off = lun_->timing().mode == scsi::TimingMode::kOff;
  d.due = off ? Clock::time_point::min() : wall_at(r.complete_ns);
  d.timed = !off;
  d.sequence = due_sequence_++;
  d.result = std::move(r);
  due_.push_back(std::move(d));
  std::push_heap(due_.begin(), due_.end(), [](const Due& a, const Due& b) { return later(a, b); });
  if (off && !drain_posted_) {
    // As soon as possible, but not from inside the LUN's callback: the
    // session may submit the initiator's next command from its completion.
    drain_posted_ = true;
    boost::asio::post(io_, with_memory(drain_memory_, [this] {
                        drain_posted_ = false;
                        deliver_due(true);
                      }));
  }
  // Otherwise whoever made the model decide (submit, tick) calls schedule().
}

// Two kinds of instants matter in realtime and scaled timing: a result's
// delivery, and the model's next decision (a queued command's service
// starts when the one before it completes). One timer wakes the driver the
// spin margin before the earlier of the two; from there it polls: waking a
// sleeping thread costs tens of microseconds on a VM, far more than the
// delivery accuracy the emulator promises (docs/benchmarks.md, "Timing
// fidelity"). The decision shares the timer because it usually falls on a
// delivery's instant: as a timer of its own, its expiry cost the delivery
// 3 µs at QD 8.
void LunDriver::schedule() {
  if (spinning_ || lun_->timing().mode == scsi::TimingMode::kOff) return;
  Clock::time_point next = Clock::time_point::max();
  if (!due_.empty()) next = due_.front().due;
  if (const scsi::Ns decision = lun_->next_decision_ns(); decision >= 0) {
    next = std::min(next, wall_at(decision));
  }
  if (next == Clock::time_point::max()) return;
  if (next - Clock::now() <= spin_) return spin();
  const Clock::time_point at = next - spin_;
  if (wake_armed_for_ <= at) return;  // an earlier wake-up schedules again
  wake_armed_for_ = at;
  wake_timer_.expires_at(at);
  wake_timer_.async_wait(with_memory(wake_memory_, [this, at](const boost::system::error_code& ec) {
    if (ec) return;  // re-armed earlier
    if (wake_armed_for_ == at) wake_armed_for_ = Clock::time_point::max();
    tick();
  }));
}

// Polling: tick() again as soon as the io_context has run whatever else is
// ready, so that the initiators' commands are still read (their arrival
// times stay exact) while the driver waits for an instant.
void LunDriver::spin() {
  if (spinning_) return;
  spinning_ = true;
  boost::asio::post(io_, with_memory(spin_memory_, [this] {
                      spinning_ = false;
                      tick();
                    }));
}

// Deliveries first, then the model's decision: a queued command's service
// starts at the instant the one before it is due, and working it out takes
// a few microseconds that would make that delivery late.
void LunDriver::tick() {
  deliver_due(false);
  const scsi::Ns decision = lun_->next_decision_ns();
  if (decision >= 0 && wall_at(decision) <= Clock::now()) {
    model_now_ = std::max(model_now_, virtual_now());
    lun_->advance(model_now_, [this](scsi::ScsiResult r) { on_result(std::move(r)); });
    deliver_due(false);  // results due at once
  }
  schedule();
}

// Delivers every result whose instant has come (all of them with `all`).
// An instant is compared with the clock, so a delivery is never before
// its modeled time. A result whose storage operations are still running
// waits for them (deliver_storage_ready()).
void LunDriver::deliver_due(bool all) {
  auto cmp = [](const Due& a, const Due& b) { return later(a, b); };
  while (!due_.empty()) {
    if (!all && due_.front().due > Clock::now()) break;
    std::pop_heap(due_.begin(), due_.end(), cmp);
    Due d = std::move(due_.back());
    due_.pop_back();
    if (d.result.io && !d.result.io->ready()) {
      waiting_storage_.push_back(std::move(d));
      continue;
    }
    deliver(d);
  }
}

void LunDriver::deliver(Due& d) {
  lun_->complete_io(d.result);
  if (d.timed) {
    const Clock::time_point now = Clock::now();
    const auto late = std::chrono::duration_cast<std::chrono::nanoseconds>(now - d.due).count();
    ++lateness_.count;
    lateness_.sum_ns += static_cast<long double>(late);
    lateness_.max_ns = std::max<std::int64_t>(lateness_.max_ns, late);
    lun_->record_delivery(static_cast<std::uint64_t>(std::max<std::int64_t>(0, late)));
    if (delivery_log_) {
      auto since_epoch = [&](Clock::time_point t) {
        return std::chrono::duration_cast<std::chrono::nanoseconds>(t - epoch_).count();
      };
      delivery_log_(Delivery{d.result.nexus, d.result.tag, d.arrival_ns, d.result.complete_ns,
                             since_epoch(d.due), since_epoch(now)});
    }
  }
  d.done(std::move(d.result));
}

// The store's completions are reaped on this thread whenever its eventfd
// says there are some; the wait is armed only while operations are in
// flight, so that an idle LUN leaves the io_context free to return.
void LunDriver::watch_storage() {
  if (!storage_events_ || watching_storage_ || lun_->store_async()->in_flight() == 0) return;
  watching_storage_ = true;
  storage_events_->async_wait(
      boost::asio::posix::stream_descriptor::wait_read,
      with_memory(storage_memory_, [this](const boost::system::error_code& ec) {
        if (ec) return;  // cancelled: the driver is going away
        watching_storage_ = false;
        lun_->store_async()->reap();
        deliver_storage_ready();
        watch_storage();
      }));
}

// Delivers, one at a time, the due results whose storage has finished: a
// delivery may make the session forget a nexus, which changes the list.
void LunDriver::deliver_storage_ready() {
  for (;;) {
    const auto it = std::find_if(waiting_storage_.begin(), waiting_storage_.end(),
                                 [](const Due& d) { return d.result.io->ready(); });
    if (it == waiting_storage_.end()) return;
    Due d = std::move(*it);
    waiting_storage_.erase(it);
    deliver(d);
  }
}

void LunDriver::forget(std::uint64_t nexus) {
  lun_->nexus_lost(nexus);
  for (auto it = pending_.begin(); it != pending_.end();) {
    it = it->first.first == nexus ? pending_pool_.erase(pending_, it) : std::next(it);
  }
  // Results already decided for that nexus are dropped too.
  std::erase_if(due_, [&](const Due& d) { return d.result.nexus == nexus; });
  std::erase_if(waiting_storage_, [&](const Due& d) { return d.result.nexus == nexus; });
  std::make_heap(due_.begin(), due_.end(), [](const Due& a, const Due& b) { return later(a, b); });
}

}  // namespace memstore::iscsi
