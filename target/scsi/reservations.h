// SPDX-License-Identifier: Apache-2.0
// Reservations of one logical unit: persistent reservations (SPC-4
// "Reservations", PERSISTENT RESERVE IN/OUT §6.15-6.16) and SPC-2
// reservations (RESERVE and RELEASE, SPC-2 §5.5), with the rules for how
// they block other commands and each other. Clauses are cited by title: their
// numbers move between SPC-4 revisions. State and rules only: the Lun decodes the
// CDB and parameter list and encodes the answers.
//
// What this device server offers (PERSISTENT RESERVE IN REPORT
// CAPABILITIES says the same):
// - Every type: Write Exclusive, Exclusive Access, their Registrants Only
//   and All Registrants variants. Logical-unit scope only.
// - No persist-through-power-loss (PTPL_C = 0): state lives in memory, and
//   APTPL = 1 is refused. No SPEC_I_PT (SIP_C = 0). ALL_TG_PT is accepted
//   (ATP_C = 1): a Lun has one target port, so a registration through it is a
//   registration through every target port.
// - CRH = 1: RESERVE and RELEASE from a persistent reservation holder (or a
//   registrant of a Registrants Only / All Registrants reservation) succeed
//   without effect (SPC-4 "Exceptions to SPC-2 RESERVE and RELEASE
//   behavior"); with registrations present, any other RESERVE or RELEASE
//   conflicts (SPC-2 §5.5).
// - REGISTER AND MOVE is not offered (it is not in the command table).
// - PREEMPT AND ABORT preempts like PREEMPT. The tasks it should abort have
//   already had their effect on the data (a Lun applies a command when it
//   arrives), so they complete normally.
//
// Registrations belong to an initiator port (unit_attention.h) and outlive
// its I_T nexus (SPC-4 "Reservations overview"); an SPC-2 reservation
// belongs to the I_T nexus and goes with it, and with a logical unit reset.
#pragma once

#include <cstdint>
#include <functional>
#include <optional>
#include <span>
#include <vector>

#include "target/scsi/command_table.h"
#include "target/scsi/sense.h"
#include "target/scsi/unit_attention.h"

namespace memstore::scsi {

// SPC-4 §6.16.3, TYPE field.
enum class PrType : std::uint8_t {
  kWriteExclusive = 0x1,
  kExclusiveAccess = 0x3,
  kWriteExclusiveRegistrantsOnly = 0x5,
  kExclusiveAccessRegistrantsOnly = 0x6,
  kWriteExclusiveAllRegistrants = 0x7,
  kExclusiveAccessAllRegistrants = 0x8,
};
std::optional<PrType> pr_type(std::uint8_t type_field);

// PERSISTENT RESERVE OUT: the fields of the 24-byte basic parameter list and
// the CDB's TYPE that a service action uses.
struct PrOutParams {
  std::uint64_t reservation_key = 0;     // bytes 0-7
  std::uint64_t service_action_key = 0;  // bytes 8-15
  bool all_tg_pt = false;                // byte 20 bit 2
  PrType type = PrType::kWriteExclusive;
};

// What a PERSISTENT RESERVE OUT, RESERVE or RELEASE came to: GOOD,
// RESERVATION CONFLICT, or CHECK CONDITION with `sense`.
struct PrResult {
  bool conflict = false;
  std::optional<Sense> sense;
  static PrResult good() { return {}; }
  static PrResult reservation_conflict() { return {true, std::nullopt}; }
  static PrResult fail(Sense s) { return {false, s}; }
};

// Who is asking: the I_T nexus (SPC-2 reservations) and its initiator port
// (persistent reservations).
struct Requester {
  std::uint64_t nexus = 0;
  const InitiatorPort& port;  // the Lun's record of the nexus: no copy per command
};

class Reservations {
 public:
  // True when a command of this access class from `who` must end in
  // RESERVATION CONFLICT before it runs. `cdb` resolves kStartStop and
  // kPreventAllow. kPersistentOut and kReserveRelease are decided here only
  // against an SPC-2 reservation; their handlers do the rest.
  bool conflicts(const Requester& who, Access access, std::span<const std::uint8_t> cdb) const;

  // PERSISTENT RESERVE OUT service actions (SPC-4 "Registering" to
  // "Clearing"). The
  // caller has checked the CDB and the parameter list length and refused
  // SPEC_I_PT and APTPL. Unit attentions they cause go to `ua`.
  PrResult register_key(const InitiatorPort& port, const PrOutParams& p, bool ignore_existing,
                        UnitAttentions& ua);
  PrResult reserve(const InitiatorPort& port, const PrOutParams& p);
  PrResult release(const InitiatorPort& port, const PrOutParams& p, UnitAttentions& ua);
  PrResult clear(const InitiatorPort& port, const PrOutParams& p, UnitAttentions& ua);
  PrResult preempt(const InitiatorPort& port, const PrOutParams& p, UnitAttentions& ua);

  // PERSISTENT RESERVE IN parameter data (SPC-4 §6.15.2-6.15.5), whole; the
  // caller applies the allocation length. `transport_id` names a port in
  // READ FULL STATUS.
  Bytes read_keys() const;
  Bytes read_reservation() const;
  static Bytes report_capabilities();
  Bytes read_full_status(const std::function<Bytes(const InitiatorPort&)>& transport_id) const;

  // RESERVE(6/10) and RELEASE(6/10), logical unit reservations only.
  PrResult spc2_reserve(const Requester& who);
  PrResult spc2_release(const Requester& who);
  // The nexus is gone, or the logical unit was reset: its SPC-2 reservation
  // (any, for a reset) is released. Persistent reservations stay (SPC-4
  // "Reservations overview": I_T nexus loss and logical unit reset do not
  // affect them).
  void nexus_lost(std::uint64_t nexus);
  void lun_reset() { spc2_holder_.reset(); }
  // Power on: with no persist through power loss (PTPL_C = 0, above), every
  // registration and reservation is gone and PRGENERATION starts again at 0
  // (SPC-4 "Persistent reservations overview").
  void power_on() { *this = Reservations{}; }

  std::uint32_t generation() const { return generation_; }

  // Registrations kept at most; one more gets INSUFFICIENT REGISTRATION
  // RESOURCES (SPC-4 "Registering"). Each initiator port has at most one, so
  // this bounds what reconnecting initiators that never describe their port
  // can pile up.
  static constexpr std::size_t kMaxRegistrations = 1024;

 private:
  struct Registration {
    InitiatorPort port;
    std::uint64_t key = 0;
    bool all_tg_pt = false;
  };
  struct Reservation {
    PrType type;
    InitiatorPort holder;  // unused by the All Registrants types: every registrant holds it
  };

  const Registration* find(const InitiatorPort& port) const;
  Registration* find(const InitiatorPort& port);
  bool holds(const InitiatorPort& port) const;
  // Key check common to every service action but REGISTER AND IGNORE
  // EXISTING KEY: registered, and RESERVATION KEY equal to the registered key.
  bool key_matches(const InitiatorPort& port, std::uint64_t reservation_key) const;
  // Removes the port's registration; SPC-4 "Unregistering" for the reservation.
  void unregister(const InitiatorPort& port, UnitAttentions& ua);
  // Removes every registration with `key` except the requester's; each one
  // removed gets REGISTRATIONS PREEMPTED. How many were removed.
  std::size_t preempt_key(const InitiatorPort& requester, std::uint64_t key, UnitAttentions& ua);
  void to_registrants_except(const InitiatorPort& port, Reason r, UnitAttentions& ua) const;
  bool persistent_conflict(const InitiatorPort& port, Access access) const;

  std::vector<Registration> registrations_;  // in registration order (READ KEYS)
  std::optional<Reservation> reservation_;
  std::uint32_t generation_ = 0;              // PRGENERATION, wraps (SPC-4 §6.15.2)
  std::optional<std::uint64_t> spc2_holder_;  // nexus holding the SPC-2 reservation
};

}  // namespace memstore::scsi
