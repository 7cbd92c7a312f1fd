// SPDX-License-Identifier: Apache-2.0
// Prometheus metrics over HTTP (docs/memstored.md, "Metrics"):
// `memstored --metrics ADDR:PORT` answers GET /metrics with every LUN's
// counters and lateness histogram, the open connections, the build and the
// process (metrics_families.h), served by prometheus-cpp's Exposer. Its
// worker threads ask the daemon's loop for the LUNs and each LUN's loop
// for its figures, and wait at most kGatherTimeout for them. Limits:
// kThreads requests at once, a request head of at most kMaxRequest bytes,
// kTimeout to send it.
#pragma once

#include <boost/asio/io_context.hpp>
#include <chrono>
#include <functional>
#include <memory>
#include <string>
#include <thread>

#include "target/control/control_commands.h"

namespace prometheus {
class Exposer;
}

namespace memstore::control {

class MetricsServer {
 public:
  static constexpr std::size_t kThreads = 2;
  static constexpr std::size_t kMaxRequest = 8 * 1024;
  static constexpr std::chrono::seconds kTimeout{5};
  static constexpr std::chrono::milliseconds kGatherTimeout{1000};

  // `commands` lists the LUNs (on `io`); `connections` counts the daemon's
  // iSCSI connections (any thread).
  MetricsServer(boost::asio::io_context& io, ControlCommands& commands,
                std::function<std::size_t()> connections);
  ~MetricsServer();
  MetricsServer(const MetricsServer&) = delete;
  MetricsServer& operator=(const MetricsServer&) = delete;

  // Listens on host:port (port 0: any free one). An error sentence naming
  // the address and the fix.
  Status start(const std::string& host, std::uint16_t port);
  std::uint16_t port() const;
  // Stops answering; a request gathering now gets what arrived in time.
  void stop();

 private:
  class Collector;
  std::shared_ptr<Collector> collector_;
  std::unique_ptr<prometheus::Exposer> exposer_;
  std::thread stopping_;  // the Exposer's threads ending, after stop()
};

}  // namespace memstore::control
