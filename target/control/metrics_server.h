// SPDX-License-Identifier: Apache-2.0
// Prometheus text metrics over HTTP (docs/memstored.md, "Metrics"):
// `memstored --metrics ADDR:PORT` answers GET /metrics with every LUN's
// statistics (the control socket's `stats`, control_commands.h) in the
// text exposition format, plus the daemon's open connections. Plain
// HTTP/1.1, one request per connection. Limits: kMaxClients at once, a
// request head of at most kMaxRequest bytes, kTimeout to send it.
#pragma once

#include <boost/asio/io_context.hpp>
#include <boost/asio/ip/tcp.hpp>
#include <chrono>
#include <functional>
#include <memory>
#include <string>
#include <vector>

#include "target/control/control_commands.h"

namespace memstore::control {

// The exposition text for these LUNs' `stats` replies (in the order of
// `luns`) and the open connections. Exposed for tests.
std::string metrics_text(const std::vector<ControlLun>& luns, const std::vector<json>& stats,
                         std::size_t connections);

class MetricsServer {
 public:
  static constexpr std::size_t kMaxClients = 16;
  static constexpr std::size_t kMaxRequest = 8 * 1024;
  static constexpr std::chrono::seconds kTimeout{5};

  // `commands` lists the LUNs and answers the `stats` requests (on each
  // LUN's loop); `connections` counts the daemon's iSCSI connections (on
  // `io`).
  MetricsServer(boost::asio::io_context& io, ControlCommands& commands,
                std::function<std::size_t()> connections);
  ~MetricsServer();
  MetricsServer(const MetricsServer&) = delete;
  MetricsServer& operator=(const MetricsServer&) = delete;

  // Listens on host:port (port 0: any free one). An error sentence naming
  // the address and the fix.
  Status start(const std::string& host, std::uint16_t port);
  std::uint16_t port() const;
  void stop();

 private:
  class Client;
  void accept();

  ControlCommands& commands_;
  std::function<std::size_t()> connections_;
  boost::asio::ip::tcp::acceptor acceptor_;
  std::vector<std::weak_ptr<Client>> clients_;
};

}  // namespace memstore::control
