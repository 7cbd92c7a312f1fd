// SPDX-License-Identifier: Apache-2.0
#include "target/driver/loop_bridge.h"

#include <boost/asio/post.hpp>
#include <utility>
#include <vector>

#include "target/driver/owned_command.h"
#include "target/driver/timed_lun.h"
#include "target/scsi/report_luns.h"

namespace memstore::driver {

namespace asio = boost::asio;

LoopBridge::LoopBridge(asio::io_context& home, TimedLun& timed)
    : home_(home),
      timed_(timed),
      local_(&home == &timed.context()),
      block_size_(timed.block_size()) {}

const void* LoopBridge::loop() const {
  return retired_ ? nullptr : &timed_.context();
}

void LoopBridge::submit(scsi::ScsiCommand command, Done done) {
  if (retired_) {
    scsi::AbsentLunAnswer a = scsi::absent_lun(command.cdb);
    scsi::ScsiResult r;
    r.nexus = command.nexus;
    r.tag = command.tag;
    r.status = a.status;
    r.sense = std::move(a.sense);
    r.data_in = std::move(a.data_in);
    return done(std::move(r));
  }
  if (local_) return timed_.submit(command, std::move(done));
  std::shared_ptr<bool>& alive = alive_[command.nexus];
  if (!alive) alive = std::make_shared<bool>(true);
  // The spans are the session's only until this returns: the command
  // crosses owning its CDB and data-out.
  asio::post(timed_.context(), [&timed = timed_, &home = home_, alive = alive,
                                owned = OwnedCommand(command), done = std::move(done)]() mutable {
    timed.submit(owned.command(), [&home, alive = std::move(alive),
                                   done = std::move(done)](scsi::ScsiResult r) mutable {
      asio::post(home,
                 [alive = std::move(alive), done = std::move(done), r = std::move(r)]() mutable {
                   if (*alive) done(std::move(r));
                 });
    });
  });
}

bool LoopBridge::may_withhold_r2t() const {
  // An atomic of the Lun's: safe from this loop while the TimedLun lives,
  // which it does until the bridge is retired.
  return !retired_ && timed_.lun().may_withhold_r2t();
}

void LoopBridge::screen_r2t(std::uint64_t nexus, std::span<const std::uint8_t> cdb,
                            R2tAnswer answer) {
  if (retired_) return answer(false);
  if (local_) return answer(timed_.withholds_r2t(nexus, cdb));
  std::shared_ptr<bool>& alive = alive_[nexus];
  if (!alive) alive = std::make_shared<bool>(true);
  asio::post(timed_.context(), [&timed = timed_, &home = home_, nexus, alive = alive,
                                cdb = std::vector<std::uint8_t>(cdb.begin(), cdb.end()),
                                answer = std::move(answer)]() mutable {
    const bool withhold = timed.withholds_r2t(nexus, cdb);
    asio::post(home, [alive = std::move(alive), answer = std::move(answer), withhold] {
      if (*alive) answer(withhold);
    });
  });
}

void LoopBridge::forget(std::uint64_t nexus) {
  if (const auto it = alive_.find(nexus); it != alive_.end()) {
    *it->second = false;
    alive_.erase(it);
  }
  if (retired_) return;
  if (local_) return timed_.forget(nexus);
  asio::post(timed_.context(), [&timed = timed_, nexus] { timed.forget(nexus); });
}

void LoopBridge::describe_nexus(std::uint64_t nexus, std::string initiator_port) {
  if (retired_) return;
  if (local_) return timed_.describe_nexus(nexus, std::move(initiator_port));
  asio::post(timed_.context(), [&timed = timed_, nexus, p = std::move(initiator_port)]() mutable {
    timed.describe_nexus(nexus, std::move(p));
  });
}

void LoopBridge::reset() {
  if (retired_) return;
  if (local_) return timed_.reset();
  asio::post(timed_.context(), [&timed = timed_] { timed.reset(); });
}

void LoopBridge::recycle(scsi::Bytes buffer) {
  if (retired_) return;  // the buffer is freed here
  if (local_) return timed_.recycle(std::move(buffer));
  asio::post(timed_.context(),
             [&timed = timed_, b = std::move(buffer)]() mutable { timed.recycle(std::move(b)); });
}

}  // namespace memstore::driver
