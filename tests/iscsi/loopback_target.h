// SPDX-License-Identifier: Apache-2.0
// A memstored-like target for socket-level tests: one target on
// 127.0.0.1:<free port> serving one LUN, its io_context on its own thread.
// It stops as memstored does: closing every connection lets run() return
// once they have ended, while the LUN they point at still exists.
#pragma once

#include <boost/asio.hpp>
#include <functional>
#include <memory>
#include <optional>
#include <string>
#include <thread>

#include "target/driver/timed_lun.h"
#include "target/iscsi/server.h"
#include "tests/iscsi/raw_initiator.h"

namespace memstore::iscsi::testing {

class LoopbackTarget {
 public:
  LoopbackTarget() = default;
  LoopbackTarget(const LoopbackTarget&) = delete;
  LoopbackTarget& operator=(const LoopbackTarget&) = delete;
  ~LoopbackTarget() { stop(); }

  // Settings before start(), e.g. set_nop_in_interval.
  Server& server() { return server_; }

  // Binds and runs; `on_thread` runs first on the target's thread. Returns
  // the bind error, or "".
  std::string start(std::unique_ptr<scsi::Lun> lun, std::function<void()> on_thread = {}) {
    TargetSetup t;
    t.name = kRawTarget;
    t.portals = {{"127.0.0.1", 0}};
    t.luns[0] = std::make_unique<driver::TimedLun>(io_, std::move(lun));
    server_.add_target(std::move(t));
    if (const Status err = server_.start(); !err.ok()) return err.error().message;
    port_ = server_.bound_ports().at(0);
    thread_ = std::thread([this, on_thread = std::move(on_thread)] {
      if (on_thread) on_thread();
      io_.run();
    });
    return "";
  }

  void stop() {
    if (!thread_.joinable()) return;
    boost::asio::post(io_, [this] { server_.stop(); });
    work_.reset();
    thread_.join();
  }

  std::uint16_t port() const { return port_; }
  // The target's only loop, where the server and the LUN live.
  boost::asio::io_context& io() { return io_; }

 private:
  boost::asio::io_context io_;
  std::optional<boost::asio::executor_work_guard<boost::asio::io_context::executor_type>> work_{
      boost::asio::make_work_guard(io_)};
  Server server_{io_};
  std::uint16_t port_ = 0;
  std::thread thread_;
};

}  // namespace memstore::iscsi::testing
