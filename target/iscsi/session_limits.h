// SPDX-License-Identifier: Apache-2.0
// What one session may hold at most, and what the server learns of a
// session at login: every resource an initiator controls has a bound
// (docs/memstored.md, "Limits").
#pragma once

#include <array>
#include <cstddef>
#include <cstdint>
#include <functional>
#include <string>

namespace memstore::iscsi {

struct SessionLimits {
  // Commands outstanding at once, immediate ones counted. The CmdSN window
  // (MaxCmdSN) closes as they fill it; one beyond is answered TASK SET FULL.
  std::uint32_t max_tasks = 128;
  // The CmdSN window the target opens at most (RFC 7143 §4.2.2.1).
  std::uint32_t cmd_window = 64;
  // Text of one login or Text request, continuation (C bit) included.
  std::size_t max_text_bytes = 64 * 1024;
};

// A session that reached the full feature phase, as the server knows it.
struct SessionIdentity {
  std::string initiator;  // InitiatorName
  std::array<std::uint8_t, 6> isid{};
  std::string target;  // empty for a discovery session
  std::uint64_t nexus = 0;
};

// The ISID in hex, 12 digits, as logs and port names write it.
inline std::string isid_hex(const std::array<std::uint8_t, 6>& isid) {
  static constexpr char kHex[] = "0123456789abcdef";
  std::string s;
  for (const std::uint8_t b : isid) {
    s += kHex[b >> 4];
    s += kHex[b & 0x0F];
  }
  return s;
}
// The iSCSI initiator port name (RFC 7143 §4.2.7.1: "name,i,0xISID"): what
// a LUN knows an I_T nexus by for persistent reservations and unit
// attentions (Lun::describe_nexus).
inline std::string initiator_port_name(const std::string& initiator,
                                       const std::array<std::uint8_t, 6>& isid) {
  return initiator + ",i,0x" + isid_hex(isid);
}

// Asked at the transition to the full feature phase: whether the session
// may start (false: the server's limits refuse it), after ending any older
// session of the same initiator port (reinstatement, RFC 7143 §6.3.5).
using AdmitSession = std::function<bool(const SessionIdentity&)>;

}  // namespace memstore::iscsi
