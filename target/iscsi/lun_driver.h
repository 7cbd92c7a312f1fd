// Drives a Lun in wall-clock time for a transport: commands arrive now, and
// each result is handed back at the moment the timing mode says (DESIGN.md
// "Transports"): at the modeled completion (realtime), at k times the
// modeled delays (scaled: the model's clock runs k times slower than the
// wall), or as soon as the model has accounted for it (off).
//
// Lateness: every delivery's distance from its intended instant is recorded
// (it can only be late: a timer never fires early).
//
// Storage: when the LUN's store is asynchronous (a file store on io_uring),
// the driver reaps its completions on this thread, and a result is
// delivered at its instant or when its storage operations finish,
// whichever is later (a late finish shows as lateness).
//
// Single-threaded: call it from the io_context's thread only.
#pragma once

#include <boost/asio/io_context.hpp>
#include <boost/asio/posix/stream_descriptor.hpp>
#include <boost/asio/steady_timer.hpp>
#include <chrono>
#include <cstdint>
#include <functional>
#include <map>
#include <optional>
#include <memory>
#include <utility>
#include <vector>

#include "target/iscsi/handler_memory.h"
#include "target/iscsi/lun_port.h"
#include "target/scsi/lun.h"

namespace memstore::iscsi {

// One delivered completion, for the daemon's completion log: what the model
// predicted and when the result was really handed to the transport. Times
// are ns on the LUN's model clock (arrival, modeled completion) and on the
// wall clock since the driver's epoch (due, delivered).
struct Delivery {
  std::uint64_t nexus = 0;
  std::uint64_t tag = 0;
  scsi::Ns arrival_ns = 0;
  scsi::Ns complete_ns = 0;
  std::int64_t due_ns = 0;
  std::int64_t delivered_ns = 0;
};

struct Lateness {
  std::uint64_t count = 0;
  std::int64_t max_ns = 0;
  long double sum_ns = 0;
  double mean_ns() const { return count == 0 ? 0.0 : static_cast<double>(sum_ns / count); }
};

class LunDriver final : public LunPort {
 public:
  LunDriver(boost::asio::io_context& io, std::unique_ptr<scsi::Lun> lun);
  LunDriver(const LunDriver&) = delete;
  LunDriver& operator=(const LunDriver&) = delete;

  // The command arrives now; `done` runs when its result is due. `cdb` and
  // `data_out` are copied as needed before this returns.
  void submit(std::uint64_t nexus, std::uint64_t tag, std::span<const std::uint8_t> cdb,
              std::span<const std::uint8_t> data_out, Done done) override;

  // Drops the pending callbacks of a nexus (its connection closed); the LUN
  // still serves the commands in the model.
  void forget(std::uint64_t nexus) override;
  void recycle(scsi::Bytes buffer) override { lun_->recycle(std::move(buffer)); }
  void describe_nexus(std::uint64_t nexus, std::string initiator_port) override {
    lun_->describe_nexus(nexus, std::move(initiator_port));
  }
  void reset() override { lun_->lun_reset(); }

  scsi::Lun& lun() { return *lun_; }
  // The io_context the driver and its Lun run on: every call must come
  // from its thread (LunLink carries calls from other threads).
  boost::asio::io_context& context() const { return io_; }
  const Lateness& lateness() const { return lateness_; }
  // Called for every completion delivered in realtime or scaled timing.
  void on_delivery(std::function<void(const Delivery&)> log) { delivery_log_ = std::move(log); }
  // How long before a delivery instant the driver stops sleeping and waits
  // on the CPU instead (0: sleep until the timer fires). It trades CPU time
  // for accuracy; see deliver_due().
  void set_spin(std::chrono::nanoseconds spin) { spin_ = spin; }
  // The initiator's fixed round trip (its send, the network, its receive),
  // as measured with timing off at QD1. Each command's arrival is dated
  // that much earlier on the model's clock, so that the latency the
  // initiator sees, rather than the span between arrival and delivery
  // here, matches the modeled service time. 0: no compensation. See
  // docs/benchmarks.md, "Timing fidelity".
  void set_compensation(std::chrono::nanoseconds c) { compensation_ns_ = c.count(); }

 private:
  using Clock = std::chrono::steady_clock;
  scsi::Ns virtual_now() const;
  Clock::time_point wall_at(scsi::Ns virtual_ns) const;
  void on_result(scsi::ScsiResult r);
  void schedule();  // wake up (or poll) for the next delivery or decision
  void spin();
  void tick();
  void deliver_due(bool all);
  void watch_storage();      // reap the store's completions when there are any
  void deliver_storage_ready();

  boost::asio::io_context& io_;
  std::unique_ptr<scsi::Lun> lun_;
  Clock::time_point epoch_;
  struct Pending {
    Done done;
    scsi::Ns arrival_ns = 0;  // on the model clock
  };
  using PendingMap = std::map<std::pair<std::uint64_t, std::uint64_t>, Pending>;
  PendingMap pending_;
  scsi::NodePool<PendingMap> pending_pool_;

  // Results decided by the model, waiting for their delivery instant: a
  // min-heap on (due, sequence) served by one timer, so that a delivery
  // costs no allocation (no timer object or handler per command).
  struct Due {
    Clock::time_point due;
    std::uint64_t sequence = 0;
    Done done;
    scsi::ScsiResult result;
    scsi::Ns arrival_ns = 0;
    bool timed = false;  // realtime or scaled: lateness is recorded
  };
  void deliver(Due& d);
  std::vector<Due> due_;
  // Due, but their storage operations have not finished (asynchronous store).
  std::vector<Due> waiting_storage_;
  std::optional<boost::asio::posix::stream_descriptor> storage_events_;
  bool watching_storage_ = false;
  HandlerMemory storage_memory_;
  std::uint64_t due_sequence_ = 0;
  boost::asio::steady_timer wake_timer_;
  Clock::time_point wake_armed_for_ = Clock::time_point::max();
  bool drain_posted_ = false;  // timing off: one posted drain at a time
  bool spinning_ = false;    // a spin handler is posted
  HandlerMemory wake_memory_, drain_memory_, spin_memory_;
  std::chrono::nanoseconds spin_{0};
  scsi::Ns compensation_ns_ = 0;
  scsi::Ns model_now_ = 0;  // the latest time handed to the model
  Lateness lateness_;
  std::function<void(const Delivery&)> delivery_log_;
};

}  // namespace memstore::iscsi
