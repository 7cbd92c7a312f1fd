// The iSCSI target server (RFC 7143) on Boost.Asio: listens on the configured
// portals and runs one Session per connection. One thread runs the
// io_context, so sessions and LUNs need no locks.
#pragma once

#include <chrono>
#include <cstdint>
#include <map>
#include <memory>
#include <string>
#include <vector>

#include "target/iscsi/session.h"

namespace boost::asio {
class io_context;
}

namespace memstore::iscsi {

class LunDriver;

struct TargetSetup {
  std::string name;
  std::string alias;
  std::vector<std::pair<std::string, std::uint16_t>> portals;  // host, port
  SecurityConfig security;
  std::map<std::uint16_t, std::unique_ptr<LunDriver>> luns;
};

class Server {
 public:
  explicit Server(boost::asio::io_context& io);
  ~Server();

  // Adds a target; its portals start listening when start() runs.
  void add_target(TargetSetup target);
  // Pings every connection with a NOP-In this often, and ends one whose
  // previous ping went unanswered (0: never). Set before start().
  void set_nop_in_interval(std::chrono::seconds interval);
  // Binds every portal. Returns an error naming the portal, or "".
  std::string start();
  // Stops accepting and closes every connection (their sessions end).
  void stop();

  // The ports actually bound (useful with port 0), in portal order.
  std::vector<std::uint16_t> bound_ports() const;
  std::size_t connections() const;

 private:
  struct Impl;
  std::unique_ptr<Impl> impl_;
};

}  // namespace memstore::iscsi
