#include "target/iscsi/lun_driver.h"

#include <boost/asio/post.hpp>
#include <limits>

namespace memstore::iscsi {

LunDriver::LunDriver(boost::asio::io_context& io, std::unique_ptr<scsi::Lun> lun)
    : io_(io), lun_(std::move(lun)), epoch_(Clock::now()), decision_timer_(io) {}

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
  c.arrival_ns = virtual_now();
  pending_[{nexus, tag}] = Pending{std::move(done), c.arrival_ns};
  auto sink = [this](scsi::ScsiResult r) { on_result(std::move(r)); };
  lun_->submit(c, sink);
  if (lun_->timing().mode == scsi::TimingMode::kOff) {
    // As fast as possible: let the model decide everything queued now.
    lun_->advance(std::numeric_limits<scsi::Ns>::max(), sink);
  }
  arm_decision_timer();
}

void LunDriver::arm_decision_timer() {
  const scsi::Ns next = lun_->next_decision_ns();
  if (next < 0) return;
  decision_timer_.expires_at(wall_at(next));
  decision_timer_.async_wait([this](const boost::system::error_code& ec) {
    if (ec) return;  // re-armed or cancelled
    lun_->advance(virtual_now(), [this](scsi::ScsiResult r) { on_result(std::move(r)); });
    arm_decision_timer();
  });
}

void LunDriver::on_result(scsi::ScsiResult r) {
  const auto key = std::make_pair(r.nexus, r.tag);
  auto it = pending_.find(key);
  if (it == pending_.end()) return;  // the connection is gone
  Done done = std::move(it->second.done);
  const scsi::Ns arrival_ns = it->second.arrival_ns;
  pending_.erase(it);
  if (lun_->timing().mode == scsi::TimingMode::kOff) {
    boost::asio::post(io_,
                      [done = std::move(done), r = std::move(r)]() mutable { done(std::move(r)); });
    return;
  }
  const Clock::time_point due = wall_at(r.complete_ns);
  auto timer = std::make_shared<boost::asio::steady_timer>(io_, due);
  timer->async_wait([this, timer, due, arrival_ns, done = std::move(done),
                     r = std::move(r)](const boost::system::error_code&) mutable {
    const Clock::time_point now = Clock::now();
    const auto late = std::chrono::duration_cast<std::chrono::nanoseconds>(now - due).count();
    ++lateness_.count;
    lateness_.sum_ns += static_cast<long double>(late);
    lateness_.max_ns = std::max<std::int64_t>(lateness_.max_ns, late);
    lun_->record_delivery(static_cast<std::uint64_t>(std::max<std::int64_t>(0, late)));
    if (delivery_log_) {
      auto since_epoch = [&](Clock::time_point t) {
        return std::chrono::duration_cast<std::chrono::nanoseconds>(t - epoch_).count();
      };
      delivery_log_(
          Delivery{r.nexus, r.tag, arrival_ns, r.complete_ns, since_epoch(due), since_epoch(now)});
    }
    done(std::move(r));
  });
}

void LunDriver::forget(std::uint64_t nexus) {
  for (auto it = pending_.begin(); it != pending_.end();) {
    it = it->first.first == nexus ? pending_.erase(it) : std::next(it);
  }
}

}  // namespace memstore::iscsi
