// SPDX-License-Identifier: Apache-2.0
// Where one connection (connection.cc) is in its life, and the only ways it
// moves on.
//
// RFC 7143 §8.1 follows a target's connection through S1 FREE, S2 XPT_UP,
// S3 IN_LOGIN, S4 LOGGED_IN and S5 IN_LOGOUT. From S2 to S5 the socket is
// read and answered alike; which of them the connection is in is the
// Session's to know (Session::full_feature: the login before it, the full
// feature phase after), and the connection asks it where it must (digests,
// reading ahead, the login deadline) instead of keeping a second copy. What
// the connection itself goes through is how the transport ends, back to S1:
//
//   from        to          when
//   kOpen       kClosing    the session asks to end (Session::Sink::close):
//                           after the Logout Response (§11.15: the connection
//                           then closes at both ends), a refused login (§8.1.2
//                           T7), a protocol error at ErrorRecoveryLevel 0
//                           (§7.1.4); or the connection ends itself: the
//                           initiator closed or reset it (T6, T7 in the
//                           login), a header digest error (§7.8), a segment
//                           longer than MaxRecvDataSegmentLength, the login
//                           deadline (T6, T7), an unanswered ping (§11.19), a
//                           failed write, a reinstatement or a removed target
//                           (abort(): T8, §6.3.5), the server stopping
//   kOpen       kClosed     the socket went to another loop with the first PDU
//                           (Placement): nothing was answered here
//   kClosing    kLingering  what was queued is written, or cannot be: the
//                           session ends, our side is shut for sending
//   kLingering  kClosed     the initiator closed its side too, or 2 s passed:
//                           the socket is closed (S1 FREE)
//
// Nothing else: a state is never entered twice, and none comes back. Several
// events may race to end one connection (a read fails while the session asks
// to close, a reinstatement meanwhile); the first moves it on and the others
// find it already past where they would take it.
#pragma once

#include <cstdint>

namespace memstore::iscsi {

enum class ConnectionState : std::uint8_t {
  kOpen,       // reading PDUs and answering them (S2-S5)
  kClosing,    // reading no more; writing what is queued
  kLingering,  // the session gone; reading and dropping until the peer closes
  kClosed,     // the socket closed, or moved to another loop (S1)
};

// Whether the table above goes from `from` to `to`.
constexpr bool connection_may_enter(ConnectionState from, ConnectionState to) {
  using enum ConnectionState;
  switch (from) {
    case kOpen:
      return to == kClosing || to == kClosed;
    case kClosing:
      return to == kLingering;
    case kLingering:
      return to == kClosed;
    case kClosed:
      return false;
  }
  return false;
}

// None comes back, and none is entered twice: every move is forward.
static_assert([] {
  constexpr int kStates = static_cast<int>(ConnectionState::kClosed) + 1;
  for (int from = 0; from < kStates; ++from) {
    for (int to = 0; to <= from; ++to) {
      if (connection_may_enter(static_cast<ConnectionState>(from),
                               static_cast<ConnectionState>(to))) {
        return false;
      }
    }
  }
  return true;
}());

}  // namespace memstore::iscsi
