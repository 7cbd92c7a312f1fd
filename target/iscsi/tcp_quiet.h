// SPDX-License-Identifier: Apache-2.0
// How long a TCP socket has received nothing, as the kernel knows it: the
// target's ping (connection.cc) counts any byte from the initiator as a sign
// of life, including bytes still in the socket's buffers or in the middle of
// a read the connection has not finished.
#pragma once

#include <chrono>

namespace memstore::iscsi {

// Time since data last arrived on the connected TCP socket `fd`
// (TCP_INFO's tcpi_last_data_recv, millisecond resolution); the longest
// duration when the kernel cannot tell, so a caller falls back to treating
// the peer as silent.
std::chrono::milliseconds quiet_for(int fd);

}  // namespace memstore::iscsi
