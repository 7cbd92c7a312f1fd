// SPDX-License-Identifier: Apache-2.0
// An address and port as iSCSI and the logs write them: "127.0.0.1:3260",
// "[::1]:3260" (an IPv6 address in brackets, RFC 3986 §3.2.2, as RFC 7143
// §13.9's TargetAddress and the configuration's `portals` take it).
#pragma once

#include <cstdint>
#include <string>

namespace memstore::iscsi {

inline std::string address_text(const std::string& host, std::uint16_t port) {
  return (host.find(':') != std::string::npos ? "[" + host + "]" : host) + ":" +
         std::to_string(port);
}

}  // namespace memstore::iscsi
