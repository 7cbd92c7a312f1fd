// SPDX-License-Identifier: Apache-2.0
// The control socket: a Unix-domain stream socket that takes one JSON
// request per line and answers one JSON line each (control_commands.h).
// Only the file's permissions guard it: it is created 0600, for the user
// the daemon runs as (and root). Limits: kMaxClients at once, kMaxLine
// bytes per request; a longer line gets an error and the connection ends.
#pragma once

#include <boost/asio/io_context.hpp>
#include <boost/asio/local/stream_protocol.hpp>
#include <functional>
#include <memory>
#include <string>

#include "target/control/control_commands.h"

namespace memstore::control {

class ControlServer {
 public:
  static constexpr std::size_t kMaxClients = 16;
  static constexpr std::size_t kMaxLine = 64 * 1024;

  // Runs on `io` (the daemon's first loop); LUN commands are posted to
  // each LUN's own loop and their replies posted back.
  ControlServer(boost::asio::io_context& io, std::vector<ControlLun> luns);
  ~ControlServer();
  ControlServer(const ControlServer&) = delete;
  ControlServer& operator=(const ControlServer&) = delete;

  // Binds `path` (replacing a stale socket no daemon answers on) and starts
  // accepting. An error sentence names the path and the fix.
  Status start(const std::string& path);
  // Stops accepting, closes every client and removes the socket file.
  void stop();
  // The commands it serves (the metrics endpoint asks them too).
  ControlCommands& commands() { return commands_; }
  // Where each change made through the socket (fault-add, fault-remove,
  // fault-clear, timing) is reported once it is done, for the daemon's log.
  using Log = std::function<void(const std::string&)>;
  void set_log(Log log) { log_ = std::move(log); }
  // Where every request is reported (secrets redacted, redact.h) with its
  // reply, changes or not, for a daemon logging at debug level.
  void set_debug_log(Log log) { debug_log_ = std::move(log); }

 private:
  class Client;
  void accept();

  boost::asio::io_context& io_;
  ControlCommands commands_;
  boost::asio::local::stream_protocol::acceptor acceptor_;
  std::string path_;
  std::vector<std::weak_ptr<Client>> clients_;
  Log log_;
  Log debug_log_;
};

}  // namespace memstore::control
