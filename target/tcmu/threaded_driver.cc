// SPDX-License-Identifier: Apache-2.0
#include "target/tcmu/threaded_driver.h"

#include <pthread.h>
#include <sys/prctl.h>

#include <algorithm>
#include <array>
#include <boost/asio/executor_work_guard.hpp>
#include <boost/asio/io_context.hpp>
#include <boost/asio/post.hpp>
#include <boost/asio/steady_timer.hpp>
#include <condition_variable>
#include <exception>
#include <map>
#include <mutex>
#include <optional>
#include <thread>
#include <type_traits>
#include <utility>
#include <vector>

#include "target/delivery/clock.h"
#include "target/driver/handler_memory.h"
#include "target/driver/timed_lun.h"
#include "target/scsi/sense.h"

namespace memstore::tcmu {
namespace {

// A value handed from the LUN thread to a waiting caller, or the exception
// that stood in its way.
template <typename T>
class Handback {
 public:
  void put(T value) {
    // Signalled under the lock: the record lives on the caller's stack, and
    // the caller may return (and free it) as soon as it sees `ready_`.
    std::lock_guard lock(mu_);
    value_.emplace(std::move(value));
    ready_ = true;
    cv_.notify_one();
  }
  void fail(std::exception_ptr e) {
    std::lock_guard lock(mu_);
    error_ = std::move(e);
    ready_ = true;
    cv_.notify_one();
  }
  T take() {
    std::unique_lock lock(mu_);
    cv_.wait(lock, [this] { return ready_; });
    if (error_) std::rethrow_exception(error_);
    return std::move(*value_);
  }

 private:
  std::mutex mu_;
  std::condition_variable cv_;
  bool ready_ = false;
  std::optional<T> value_;
  std::exception_ptr error_;
};

// Linux rounds a sleeping thread's deadline up by its timer slack (50 µs by
// default) to batch wake-ups; a device that promises microsecond timing
// cannot afford that. Set on the LUN thread, the one that sleeps towards
// due instants.
void precise_timers() {
  ::prctl(PR_SET_TIMERSLACK, 1UL, 0UL, 0UL, 0UL);
}

}  // namespace

class ThreadedLunDriver::LunThread {
 public:
  explicit LunThread(std::unique_ptr<scsi::Lun> lun)
      : driver_(io_, with_power_hook(std::move(lun))), thread_([this] { run(); }) {}

  // io_context::run() returns once no work is left: every command has been
  // delivered (the destructor's REQUIRES), so no timer, spin or storage
  // wait is outstanding past an instant already reached.
  ~LunThread() {
    work_.reset();
    thread_.join();
  }

  // The result, and when the LUN thread handed it over.
  struct Returned {
    scsi::ScsiResult result;
    delivery::WallNs handed_at = 0;
  };
  Returned execute(const scsi::ScsiCommand& command) {
    Call call(command);
    boost::asio::post(io_, driver::with_memory(call.memory, [this, &call] { submit(call); }));
    return call.returned.take();
  }

  // Runs f(driver) on the LUN thread and returns its result.
  template <typename F>
  auto ask(F f) {
    using R = std::invoke_result_t<F&, driver::TimedLun&>;
    Handback<R> answer;
    boost::asio::post(io_, [&] {
      try {
        answer.put(f(driver_));
      } catch (...) {
        answer.fail(std::current_exception());
      }
    });
    return answer.take();
  }

  void set_compensation(std::chrono::nanoseconds c) {
    ask([this, c](driver::TimedLun& d) {
      d.set_compensation(c);
      compensation_ns_ = c.count();
      return true;
    });
  }

 private:
  // One command on its way, on the caller's stack until its result is back.
  // The CDB is copied (at most 8 + 255 bytes, TCMU's variable-length CDB);
  // the data-out is not: the caller waits here until the result is due,
  // well after the LUN thread has consumed the data at submission, so the
  // span is valid whenever that thread reads it, and a copy would cost a
  // memcpy of every write's data.
  struct Call {
    explicit Call(const scsi::ScsiCommand& c) : command(c) {
      if (c.cdb.size() <= inline_cdb.size()) {
        std::copy(c.cdb.begin(), c.cdb.end(), inline_cdb.begin());
        command.cdb = std::span<const std::uint8_t>(inline_cdb.data(), c.cdb.size());
      } else {
        long_cdb.assign(c.cdb.begin(), c.cdb.end());
        command.cdb = long_cdb;
      }
    }
    std::array<std::uint8_t, 264> inline_cdb{};
    std::vector<std::uint8_t> long_cdb;  // longer than any CDB TCMU passes
    scsi::ScsiCommand command;           // its CDB the copy above
    driver::HandlerMemory memory;        // for the posted hand-over: no allocation
    Handback<Returned> returned;
  };

  // On the LUN thread. All commands share nexus 0; the tags only tell them
  // apart in the driver's table of pending commands. While the power is
  // off the command waits in held_ (power_on()).
  void submit(Call& call) {
    if (power_back_) {
      held_.push_back(&call);
      return;
    }
    const std::uint64_t tag = next_tag_++;
    try {
      call.command.nexus = 0;
      call.command.tag = tag;
      outstanding_.emplace(tag, &call);
      driver_.submit(call.command, [this, tag](scsi::ScsiResult r) {
        // A call the cut took (power_lost) is answered by power_on(), and
        // the engine drops its result anyway; this guards the call record,
        // which is gone once answered.
        const auto it = outstanding_.find(tag);
        if (it == outstanding_.end()) return;
        Call& done = *it->second;
        outstanding_.erase(it);
        done.returned.put(Returned{std::move(r), clock_.now()});
      });
    } catch (...) {
      // Answered once: from here, unless the cut already took it.
      if (outstanding_.erase(tag) != 0) call.returned.fail(std::current_exception());
    }
  }

  // The Lun's power was cut (scsi::Lun::power_cycle, from a power-cut
  // fault rule), inside the submit of the command that met the rule.
  // memstored ends the target's sessions here; under LIO the handler owns
  // no connection, so the cut is what an initiator behind a target that
  // keeps its power (an array, a bridge) sees of a logical unit that lost
  // its own: nothing comes back for the off time. Every command in the LUN
  // at the cut is gone (SAM-5, power on: the logical unit aborts every
  // command): the one that met the rule never ran, and what one taken
  // earlier wrote is in the volatile cache, kept, lost or torn by the
  // policy like any unflushed write. A command that arrives while the
  // power is off reaches nothing and never runs. Their workers are held until the power
  // comes back and are then answered with what the logical unit reports
  // after a power on, CHECK CONDITION, UNIT ATTENTION, POWER ON, RESET, OR
  // BUS DEVICE RESET OCCURRED (06h/29h/00h). Not GOOD: what such a command
  // would acknowledge may be what the cut took. The initiator retries a
  // command ended by a unit attention (Linux: scsi_check_sense's
  // NEEDS_RETRY), as it would retry one that timed out and was aborted;
  // the worker cannot wait for that abort instead, since tcmu-runner 1.5.x
  // has no way to end a command without answering it, and LIO times out a
  // TCMU command itself after cmd_time_out (30 s).
  void power_lost(std::chrono::nanoseconds off) {
    power_back_ = clock_.now() + off.count();
    off_for_ = off;
    for (const auto& [tag, call] : outstanding_) held_.push_back(call);
    outstanding_.clear();
    wait_for_power(off);
  }

  void wait_for_power(std::chrono::nanoseconds after) {
    power_timer_.expires_after(after);
    power_timer_.async_wait([this](const boost::system::error_code& e) {
      if (!e) power_on();
    });
  }

  // The off time has passed: every held command is answered with the unit
  // attention; commands that arrive from now on reach the Lun, and the
  // first meets the Lun's own POWER ON unit attention as well (SAM-5, "Unit
  // attention conditions": it is reported once per I_T nexus, and these
  // answers do not clear it).
  void power_on() {
    // Not before the Lun itself is back on its model clock (scaled timing
    // rounds, and compensation dates an arrival earlier): a command it
    // still took to be without power would never be answered.
    if (driver_.lun().powered_off(driver_.model_time() - compensation_ns_)) {
      wait_for_power(std::chrono::milliseconds(1));
      return;
    }
    power_back_.reset();
    std::vector<Call*> held = std::move(held_);
    held_.clear();
    // Logged first: once answered, a caller may look for the line. Nothing
    // thrown here may leave a held call unanswered (its worker would wait
    // for ever).
    try {
      if (log_) {
        log_(scsi::LogLevel::kInfo,
             log_name_ + ": power on after " +
                 std::to_string(
                     std::chrono::duration_cast<std::chrono::milliseconds>(off_for_).count()) +
                 " ms: " + std::to_string(held.size()) +
                 " commands held answered POWER ON (06h/29h/00h)");
      }
    } catch (...) {
    }
    const bool descriptor = driver_.lun().descriptor_sense();
    for (Call* call : held) {
      try {
        scsi::ScsiResult r;
        r.status = scsi::Status::kCheckCondition;
        r.sense = scsi::build_sense({scsi::Reason::kPowerOnReset, std::nullopt, std::nullopt},
                                    descriptor);
        call->returned.put(Returned{std::move(r), clock_.now()});
      } catch (...) {
        call->returned.fail(std::current_exception());
      }
    }
  }

 public:
  // On the LUN thread (ask): the Lun's log, and this thread's power-on line.
  void set_log(driver::TimedLun& d, scsi::LogSink sink, std::string name) {
    log_ = sink;
    log_name_ = name;
    d.lun().set_log(std::move(sink), std::move(name));
  }

 private:
  // Before the LUN thread exists; the hook runs on it, once every member
  // is built.
  std::unique_ptr<scsi::Lun> with_power_hook(std::unique_ptr<scsi::Lun> lun) {
    lun->set_power_lost([this](std::chrono::nanoseconds off) { power_lost(off); });
    return lun;
  }

  void run() {
    precise_timers();
    ::pthread_setname_np(::pthread_self(), "memstore-lun");
    // A handler that throws (out of memory while deciding or delivering)
    // leaves run(); the thread goes on serving the others.
    for (;;) {
      try {
        io_.run();
        return;
      } catch (...) {
      }
    }
  }

  const delivery::SteadyClock clock_;
  boost::asio::io_context io_{1};  // one thread runs it
  driver::TimedLun driver_;
  boost::asio::executor_work_guard<boost::asio::io_context::executor_type> work_ =
      boost::asio::make_work_guard(io_);
  std::uint64_t next_tag_ = 0;  // the LUN thread's
  // The LUN thread's: calls submitted to the Lun and not yet answered; from
  // a power cut to power-on, the calls it took and those that arrived
  // meanwhile; when it comes back, and how long it was off; the log.
  std::map<std::uint64_t, Call*> outstanding_;
  std::vector<Call*> held_;
  std::chrono::nanoseconds off_for_{0};
  scsi::LogSink log_;
  std::string log_name_;
  std::optional<delivery::WallNs> power_back_;
  boost::asio::steady_timer power_timer_{io_};
  scsi::Ns compensation_ns_ = 0;  // as set_compensation() gave the driver
  std::thread thread_;            // last: starts once everything above exists
};

ThreadedLunDriver::ThreadedLunDriver(std::unique_ptr<scsi::Lun> lun)
    : blocks_(lun->blocks()),
      block_size_(lun->block_size()),
      lun_thread_(std::make_unique<LunThread>(std::move(lun))) {}

ThreadedLunDriver::~ThreadedLunDriver() = default;

scsi::ScsiResult ThreadedLunDriver::execute(scsi::ScsiCommand command) {
  LunThread::Returned r = lun_thread_->execute(command);
  const delivery::WallNs woke = delivery::SteadyClock().now();
  std::lock_guard lock(handback_mu_);
  handback_.add(woke - r.handed_at);
  return std::move(r.result);
}

Lateness ThreadedLunDriver::handback() const {
  std::lock_guard lock(handback_mu_);
  return handback_;
}

Lateness ThreadedLunDriver::lateness() const {
  return lun_thread_->ask([](driver::TimedLun& d) { return d.lateness(); });
}

scsi::StoreStatus ThreadedLunDriver::switch_off() {
  return lun_thread_->ask(
      [](driver::TimedLun& d) { return d.lun().switch_off("the TCMU device closed"); });
}

void ThreadedLunDriver::set_spin(std::chrono::nanoseconds spin) {
  lun_thread_->ask([spin](driver::TimedLun& d) {
    d.set_spin(spin);
    return true;
  });
}

void ThreadedLunDriver::set_compensation(std::chrono::nanoseconds c) {
  lun_thread_->set_compensation(c);
}

void ThreadedLunDriver::set_log(scsi::LogSink sink, std::string name) {
  lun_thread_->ask([&](driver::TimedLun& d) {
    lun_thread_->set_log(d, std::move(sink), std::move(name));
    return true;
  });
}

}  // namespace memstore::tcmu
