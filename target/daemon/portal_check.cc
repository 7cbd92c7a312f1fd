// SPDX-License-Identifier: Apache-2.0
#include "target/daemon/portal_check.h"

#include <netdb.h>
#include <sys/socket.h>
#include <unistd.h>

#include <cerrno>
#include <charconv>
#include <cstring>

#include "target/iscsi/address_text.h"

namespace memstore::daemon {

std::optional<Portal> parse_portal(std::string_view text) {
  std::string_view host, port;
  if (!text.empty() && text.front() == '[') {
    const auto close = text.find(']');
    if (close == std::string_view::npos || close + 1 >= text.size() || text[close + 1] != ':')
      return std::nullopt;
    host = text.substr(1, close - 1);
    port = text.substr(close + 2);
  } else {
    const auto colon = text.rfind(':');
    if (colon == std::string_view::npos) return std::nullopt;
    host = text.substr(0, colon);
    port = text.substr(colon + 1);
  }
  unsigned value = 0;
  const auto [end, ec] = std::from_chars(port.data(), port.data() + port.size(), value);
  if (host.empty() || ec != std::errc() || end != port.data() + port.size() || value > 65535)
    return std::nullopt;
  return Portal{std::string(host), static_cast<std::uint16_t>(value)};
}

Status check_portal(const Portal& portal) {
  const std::string name = iscsi::address_text(portal.host, portal.port);
  addrinfo hints{};
  hints.ai_flags = AI_NUMERICHOST | AI_NUMERICSERV | AI_PASSIVE;
  hints.ai_socktype = SOCK_STREAM;
  addrinfo* found = nullptr;
  const std::string port = std::to_string(portal.port);
  if (const int rc = ::getaddrinfo(portal.host.c_str(), port.c_str(), &hints, &found); rc != 0) {
    return Error(name + ": not a numeric IP address (" + ::gai_strerror(rc) + ")");
  }
  Status error;
  const int fd = ::socket(found->ai_family, found->ai_socktype | SOCK_CLOEXEC, 0);
  if (fd < 0) {
    error = Error{errno, name + ": " + std::strerror(errno)};
  } else {
    // As the server binds (SO_REUSEADDR), so that a port in TIME_WAIT passes
    // here exactly when it would pass there.
    const int on = 1;
    ::setsockopt(fd, SOL_SOCKET, SO_REUSEADDR, &on, sizeof on);
    if (::bind(fd, found->ai_addr, found->ai_addrlen) != 0 || ::listen(fd, 1) != 0) {
      error = Error{errno, name + ": " + std::strerror(errno)};
    }
    ::close(fd);
  }
  ::freeaddrinfo(found);
  return error;
}

}  // namespace memstore::daemon
