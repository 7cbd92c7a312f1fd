#include "target/tcmu/threaded_driver.h"

#include <sys/prctl.h>
#include <time.h>

#include <cerrno>
#include <limits>

namespace memstore::tcmu {
namespace {

// Linux rounds a sleeping thread's deadline up by its timer slack (50 µs by
// default) to batch wake-ups; a device that promises microsecond timing
// cannot afford that. Per thread, so it is set on every thread that sleeps
// towards a due time (the decision thread and tcmu-runner's workers).
void precise_timers() {
  thread_local bool done = false;
  if (!done) {
    ::prctl(PR_SET_TIMERSLACK, 1UL, 0UL, 0UL, 0UL);
    done = true;
  }
}

// Sleeps until `t` on CLOCK_MONOTONIC (steady_clock's clock on Linux), never
// returning early.
void sleep_until(ThreadedLunDriver::Clock::time_point t) {
  const auto ns =
      std::chrono::duration_cast<std::chrono::nanoseconds>(t.time_since_epoch()).count();
  timespec ts{};
  ts.tv_sec = static_cast<time_t>(ns / 1'000'000'000);
  ts.tv_nsec = static_cast<long>(ns % 1'000'000'000);
  while (::clock_nanosleep(CLOCK_MONOTONIC, TIMER_ABSTIME, &ts, nullptr) == EINTR) {
  }
}

}  // namespace

ThreadedLunDriver::ThreadedLunDriver(std::unique_ptr<scsi::Lun> lun)
    : lun_(std::move(lun)),
      epoch_(Clock::now()),
      sink_([this](scsi::ScsiResult r) { on_result(std::move(r)); }),
      decider_([this] { run_decisions(); }) {}

ThreadedLunDriver::~ThreadedLunDriver() {
  {
    std::lock_guard lock(mu_);
    stopping_ = true;
  }
  decider_wake_.notify_one();
  decider_.join();
}

// The model's clock: wall time since the epoch, slowed by the scale factor in
// scaled mode (as iscsi::LunDriver: a scale changed through the control page
// rescales the past too).
scsi::Ns ThreadedLunDriver::virtual_now() const {
  const auto wall =
      std::chrono::duration_cast<std::chrono::nanoseconds>(Clock::now() - epoch_).count();
  const scsi::Timing& t = lun_->timing();
  if (t.mode == scsi::TimingMode::kScaled) {
    return static_cast<scsi::Ns>(static_cast<double>(wall) / t.scale);
  }
  return wall;
}

ThreadedLunDriver::Clock::time_point ThreadedLunDriver::wall_at(scsi::Ns virtual_ns) const {
  const scsi::Timing& t = lun_->timing();
  const double scale = t.mode == scsi::TimingMode::kScaled ? t.scale : 1.0;
  return epoch_ + std::chrono::nanoseconds(
                      static_cast<std::int64_t>(static_cast<double>(virtual_ns) * scale));
}

void ThreadedLunDriver::on_result(scsi::ScsiResult r) {
  const auto it = waiting_.find(r.tag);
  if (it == waiting_.end()) return;
  Waiter* w = it->second;
  waiting_.erase(it);
  w->result = std::move(r);
  w->decided.notify_one();
}

scsi::ScsiResult ThreadedLunDriver::execute(std::span<const std::uint8_t> cdb,
                                            std::span<const std::uint8_t> data_out) {
  precise_timers();
  Waiter w;
  std::unique_lock lock(mu_);
  scsi::ScsiCommand c;
  c.tag = next_tag_++;
  c.cdb = cdb;
  c.data_out = data_out;
  // Taken under the lock, so arrivals reach the Lun in non-decreasing order.
  c.arrival_ns = virtual_now();
  waiting_.emplace(c.tag, &w);
  lun_->submit(c, sink_);
  const bool timed = lun_->timing().mode != scsi::TimingMode::kOff;
  if (!timed) lun_->advance(std::numeric_limits<scsi::Ns>::max(), sink_);
  if (!w.result) {
    decider_wake_.notify_one();  // the model's next decision may be earlier now
    w.decided.wait(lock, [&] { return w.result.has_value(); });
  }
  const Clock::time_point due = wall_at(w.result->complete_ns);
  lock.unlock();
  if (timed) {
    sleep_until(due);
    const auto late =
        std::chrono::duration_cast<std::chrono::nanoseconds>(Clock::now() - due).count();
    std::lock_guard stats(lateness_mu_);
    ++lateness_.count;
    lateness_.sum_ns += static_cast<long double>(late);
    lateness_.max_ns = std::max<std::int64_t>(lateness_.max_ns, late);
  }
  return std::move(*w.result);
}

void ThreadedLunDriver::run_decisions() {
  precise_timers();
  std::unique_lock lock(mu_);
  while (!stopping_) {
    const scsi::Ns next = lun_->next_decision_ns();
    if (next < 0) {
      decider_wake_.wait(lock);
      continue;
    }
    const Clock::time_point at = wall_at(next);
    if (Clock::now() < at) {
      decider_wake_.wait_until(lock, at);
      continue;  // woken early (a new command) or on time: look again
    }
    // At or past the decision's wall time; max() absorbs the rounding of the
    // scaled clock so a decision is never retried in a busy loop.
    lun_->advance(std::max(virtual_now(), next), sink_);
  }
}

Lateness ThreadedLunDriver::lateness() const {
  std::lock_guard stats(lateness_mu_);
  return lateness_;
}

scsi::StoreStatus ThreadedLunDriver::flush() {
  std::lock_guard lock(mu_);
  return lun_->flush();
}

}  // namespace memstore::tcmu
