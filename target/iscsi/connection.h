// SPDX-License-Identifier: Apache-2.0
// One iSCSI connection on an Asio socket (docs/design.md, "Threads"): a
// read loop (PDU framing and digests), a gathered writer draining a queue,
// pings and the login deadline. Completion handlers use their own memory
// (target/driver/handler_memory.h) so the steady READ/WRITE path allocates nothing.
// Everything protocol-level is in Session. Where a connection is in its
// life, and how it moves on: connection_state.h.
#pragma once

#include <atomic>
#include <boost/asio/any_io_executor.hpp>
#include <boost/asio/ip/tcp.hpp>
#include <chrono>
#include <cstddef>
#include <functional>
#include <memory>
#include <optional>
#include <string>
#include <vector>

#include "target/iscsi/pdu_bhs.h"
#include "target/iscsi/session.h"

namespace memstore::iscsi {

// What one connection may hold, and how long it may stay silent.
struct ConnectionLimits {
  // From accept to the full feature phase (0: no deadline).
  std::chrono::seconds login_timeout{15};
  // A NOP-In ping after this much silence (0: never), and how long after
  // it the initiator may stay silent (0: as long as the interval).
  std::chrono::seconds nop_in_interval{0};
  std::chrono::seconds nop_in_timeout{0};
  // Responses waiting to be written before the connection stops reading.
  std::size_t max_output_bytes = std::size_t{16} << 20;
};

using MakeSession = std::function<std::unique_ptr<Session>(Session::Sink)>;

// A connection's first PDU, as read: its BHS, then its AHS and data segment
// (no digests: none is negotiated before the login).
struct FirstPdu {
  Bhs bhs{};
  std::vector<std::uint8_t> rest;
};

// Where a connection belongs (docs/design.md, "Threads"). A connection is
// accepted onto the loops in turn; its first PDU, a login naming its target,
// may show that the target's LUNs all live on another loop. Then `rehome`
// takes the socket and the PDU to open the connection again on that loop,
// where its commands reach the LUNs without crossing threads, and returns
// true; the connection here ends without a word. Asked once; empty: stay.
// `first`: the PDU a connection opened that way starts from.
struct Placement {
  std::function<bool(boost::asio::ip::tcp::socket&, FirstPdu&)> rehome;
  std::optional<FirstPdu> first;
};

// A connection as `memsctl admin connections` shows it.
struct ConnectionStatus {
  std::string peer;    // the initiator's address and port
  std::string portal;  // the target's address and port it came to
  SessionStatus session;
};

class Connection {
 public:
  virtual ~Connection() = default;
  // Starts reading; call on executor().
  virtual void start() = 0;
  // Ends the connection once the queued PDUs are written; call on executor().
  virtual void close() = 0;
  // Ends it now, dropping what is queued: its peer is presumed gone (a
  // reinstated session), and a write it never reads must not keep the
  // session and its tasks alive. Call on executor().
  virtual void abort() = 0;
  // Its event loop: every call but the constructor's is made there.
  virtual boost::asio::any_io_executor executor() = 0;
  // Who is connected and what its session negotiated; empty once the
  // connection has ended. Call on executor().
  virtual std::optional<ConnectionStatus> status() = 0;
};

// `open` counts the connections not yet finished (read from any thread);
// `on_finish` runs on the connection's loop when it ends.
std::shared_ptr<Connection> make_connection(boost::asio::ip::tcp::socket socket,
                                            const MakeSession& make_session,
                                            const ConnectionLimits& limits,
                                            std::atomic<std::size_t>& open,
                                            std::function<void()> on_finish,
                                            Placement placement = {});

}  // namespace memstore::iscsi
