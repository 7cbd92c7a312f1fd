// SPDX-License-Identifier: Apache-2.0
#include "target/iscsi/tcp_quiet.h"

#include <netinet/in.h>
#include <netinet/tcp.h>
#include <sys/socket.h>

#include <cstddef>

namespace memstore::iscsi {

std::chrono::milliseconds quiet_for(int fd) {
  tcp_info info{};
  socklen_t len = sizeof(info);
  if (::getsockopt(fd, IPPROTO_TCP, TCP_INFO, &info, &len) != 0 ||
      len < offsetof(tcp_info, tcpi_last_data_recv) + sizeof(info.tcpi_last_data_recv)) {
    return std::chrono::milliseconds::max();
  }
  return std::chrono::milliseconds(info.tcpi_last_data_recv);
}

}  // namespace memstore::iscsi
