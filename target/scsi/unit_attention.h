// SPDX-License-Identifier: Apache-2.0
// Who an initiator is, for state that outlives one I_T nexus, and the unit
// attention conditions queued for it (SAM-5 "Unit attention conditions").
//
// A Lun has one target port, so an I_T nexus is named by its initiator port.
// The transport picks a number per nexus (ScsiCommand::nexus) and may tell
// the Lun the initiator port's name (Lun::describe_nexus); a new nexus with
// the same name is the same initiator port again, and finds its persistent
// reservation registrations and pending unit attentions where it left them.
// A nexus that was never described is known only by its number, which the
// transport never reuses.
#pragma once

#include <cstdint>
#include <deque>
#include <map>
#include <optional>
#include <string>
#include <tuple>
#include <utility>

#include "target/scsi/sense.h"

namespace memstore::scsi {

struct InitiatorPort {
  std::string name;         // iSCSI: "iqn...,i,0x<ISID>"; empty: not described
  std::uint64_t nexus = 0;  // the nexus number; 0 when `name` is set
  static InitiatorPort named(std::string name) { return {std::move(name), 0}; }
  static InitiatorPort anonymous(std::uint64_t nexus) { return {{}, nexus}; }
  bool described() const { return !name.empty(); }
  bool operator==(const InitiatorPort&) const = default;
  bool operator<(const InitiatorPort& o) const {
    return std::tie(name, nexus) < std::tie(o.name, o.nexus);
  }
};

// Per initiator port, oldest first. A command other than INQUIRY, REPORT
// LUNS and REQUEST SENSE from a port with a pending condition gets CHECK
// CONDITION with the oldest one, which is then cleared; REQUEST SENSE returns
// it as its parameter data and clears it (SAM-5, SPC-4 §6.29).
class UnitAttentions {
 public:
  // A condition already queued for the port is not queued twice; past
  // kMaxQueued the newest ones are dropped (SAM-5 allows a device server to
  // lose the later conditions of a full queue).
  void establish(const InitiatorPort& port, Reason r);
  // The oldest pending condition, removed from the queue.
  std::optional<Reason> take(const InitiatorPort& port);
  bool pending(const InitiatorPort& port) const { return queues_.contains(port); }
  void forget(const InitiatorPort& port) { queues_.erase(port); }
  // The port has no I_T nexus now, or has one again. An absent port keeps
  // its conditions for its return, but a port that never returns must not
  // keep them for ever: an initiator that logs in with a new ISID every time
  // would grow the map without bound. So at most kMaxPorts ports have
  // conditions queued; past that, the conditions of the port absent the
  // longest go, and with no port absent, the new condition is dropped.
  void port_left(const InitiatorPort& port);
  void port_returned(const InitiatorPort& port);
  std::size_t ports() const { return queues_.size(); }

  static constexpr std::size_t kMaxQueued = 8;
  static constexpr std::size_t kMaxPorts = 1024;

 private:
  bool evict_absent();

  std::map<InitiatorPort, std::deque<Reason>> queues_;
  std::deque<InitiatorPort> absent_;  // ports that left with conditions queued, oldest first
};

// SAM-5 "Unit attention conditions": these report nothing and clear nothing
// (REQUEST SENSE reports the condition as its data instead of failing).
bool passes_unit_attention(std::uint8_t opcode);

}  // namespace memstore::scsi
