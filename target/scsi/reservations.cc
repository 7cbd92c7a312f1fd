// SPDX-License-Identifier: Apache-2.0
#include "target/scsi/reservations.h"

#include <algorithm>

#include "modepages/bytes.h"

namespace memstore::scsi {
namespace {

using modepages::append_be;

bool all_registrants(PrType t) {
  return t == PrType::kWriteExclusiveAllRegistrants || t == PrType::kExclusiveAccessAllRegistrants;
}
bool registrants_only(PrType t) {
  return t == PrType::kWriteExclusiveRegistrantsOnly ||
         t == PrType::kExclusiveAccessRegistrantsOnly;
}
bool write_exclusive(PrType t) {
  return t == PrType::kWriteExclusive || t == PrType::kWriteExclusiveRegistrantsOnly ||
         t == PrType::kWriteExclusiveAllRegistrants;
}

// START STOP UNIT and PREVENT ALLOW MEDIUM REMOVAL are allowed or not by
// their CDB (SBC-3's reservation table; SPC-2 §5.5 for PREVENT = 0).
Access resolve(Access a, std::span<const std::uint8_t> cdb) {
  if (a == Access::kStartStop) {
    const bool start = (cdb[4] & 0x01) != 0;
    const std::uint8_t power_condition = cdb[4] >> 4;
    return start && power_condition == 0 ? Access::kAny : Access::kWrite;
  }
  if (a == Access::kPreventAllow) return (cdb[4] & 0x03) == 0 ? Access::kAny : Access::kWrite;
  return a;
}

constexpr std::uint8_t kScopeLogicalUnit = 0x0;
constexpr std::uint16_t kRelativeTargetPort = 1;  // a Lun has one target port

}  // namespace

std::optional<PrType> pr_type(std::uint8_t type_field) {
  switch (type_field) {
    case 0x1:
    case 0x3:
    case 0x5:
    case 0x6:
    case 0x7:
    case 0x8:
      return static_cast<PrType>(type_field);
    default:
      return std::nullopt;
  }
}

const Reservations::Registration* Reservations::find(const InitiatorPort& port) const {
  const auto it = std::find_if(registrations_.begin(), registrations_.end(),
                               [&](const Registration& r) { return r.port == port; });
  return it == registrations_.end() ? nullptr : &*it;
}

Reservations::Registration* Reservations::find(const InitiatorPort& port) {
  return const_cast<Registration*>(std::as_const(*this).find(port));
}

bool Reservations::holds(const InitiatorPort& port) const {
  if (!reservation_) return false;
  // SPC-4 "Persistent reservation holder": with an All Registrants type every
  // registrant is a holder.
  if (all_registrants(reservation_->type)) return find(port) != nullptr;
  return reservation_->holder == port;
}

bool Reservations::key_matches(const InitiatorPort& port, std::uint64_t reservation_key) const {
  const Registration* r = find(port);
  return r != nullptr && r->key == reservation_key;
}

bool Reservations::conflicts(const Requester& who, Access access,
                             std::span<const std::uint8_t> cdb) const {
  const Access a = resolve(access, cdb);
  // SPC-2 §5.5 and SBC-2's reservation table: a logical unit reserved by
  // another I_T nexus lets through only the commands that never conflict,
  // and RELEASE (which then does nothing; its handler answers, as for
  // RESERVE).
  if (spc2_holder_ && *spc2_holder_ != who.nexus && a != Access::kAny &&
      a != Access::kReserveRelease) {
    return true;
  }
  return persistent_conflict(who.port, a);
}

// The SPC-4 and SBC-3 tables "... commands that are allowed in the presence
// of various reservations", for an I_T nexus that does not hold the
// persistent reservation. PERSISTENT RESERVE OUT is decided by its service
// action, RESERVE and RELEASE by "Exceptions to SPC-2 RESERVE and RELEASE
// behavior" (both in their handlers).
bool Reservations::persistent_conflict(const InitiatorPort& port, Access a) const {
  if (!reservation_ || holds(port)) return false;
  const PrType t = reservation_->type;
  // Registrants of a Registrants Only or All Registrants reservation have
  // the access of a holder.
  if (find(port) != nullptr && (registrants_only(t) || all_registrants(t))) return false;
  switch (a) {
    case Access::kAny:
    case Access::kAnyPersistent:
    case Access::kPersistentOut:
    case Access::kReserveRelease:
      return false;
    case Access::kRead:
      return !write_exclusive(t);
    case Access::kWrite:
    case Access::kStartStop:
    case Access::kPreventAllow:
      return true;
  }
  return true;
}

void Reservations::to_registrants_except(const InitiatorPort& port, Reason r,
                                         UnitAttentions& ua) const {
  for (const Registration& reg : registrations_) {
    if (reg.port != port) ua.establish(reg.port, r);
  }
}

void Reservations::unregister(const InitiatorPort& port, UnitAttentions& ua) {
  std::erase_if(registrations_, [&](const Registration& r) { return r.port == port; });
  if (!reservation_) return;
  const PrType t = reservation_->type;
  if (all_registrants(t)) {
    // SPC-4 "Unregistering": released only with the last registration.
    if (registrations_.empty()) reservation_.reset();
    return;
  }
  if (reservation_->holder != port) return;
  reservation_.reset();
  // SPC-4 "Unregistering": the other registrants of a Registrants Only
  // reservation learn that it is gone.
  if (registrants_only(t)) to_registrants_except(port, Reason::kReservationsReleased, ua);
}

std::size_t Reservations::preempt_key(const InitiatorPort& requester, std::uint64_t key,
                                      UnitAttentions& ua) {
  std::size_t removed = 0;
  std::erase_if(registrations_, [&](const Registration& r) {
    if (r.key != key || r.port == requester) return false;
    ua.establish(r.port, Reason::kRegistrationsPreempted);
    ++removed;
    return true;
  });
  return removed;
}

PrResult Reservations::register_key(const InitiatorPort& port, const PrOutParams& p,
                                    bool ignore_existing, UnitAttentions& ua) {
  Registration* reg = find(port);
  // SPC-4 "Registering": REGISTER from an unregistered nexus must carry
  // RESERVATION KEY 0, from a registered one its registered key.
  if (!ignore_existing && p.reservation_key != (reg != nullptr ? reg->key : 0)) {
    return PrResult::reservation_conflict();
  }
  if (reg == nullptr) {
    // Registering key 0 registers nothing: GOOD, and nothing changed, so
    // PRGENERATION stays.
    if (p.service_action_key == 0) return PrResult::good();
    if (registrations_.size() >= kMaxRegistrations) {
      return PrResult::fail({Reason::kNoRegistrationResources, std::nullopt, std::nullopt});
    }
    registrations_.push_back({port, p.service_action_key, p.all_tg_pt});
  } else if (p.service_action_key == 0) {
    unregister(port, ua);
  } else {
    reg->key = p.service_action_key;  // a holder keeps its reservation under the new key
  }
  ++generation_;
  return PrResult::good();
}

PrResult Reservations::reserve(const InitiatorPort& port, const PrOutParams& p) {
  // SPC-4 "Reserving".
  if (!key_matches(port, p.reservation_key)) return PrResult::reservation_conflict();
  if (!reservation_) {
    reservation_ = Reservation{p.type, port};
    return PrResult::good();
  }
  // The holder reserving again with the same type: nothing to do. Anything
  // else (another holder, another type) conflicts.
  if (holds(port) && reservation_->type == p.type) return PrResult::good();
  return PrResult::reservation_conflict();
}

PrResult Reservations::release(const InitiatorPort& port, const PrOutParams& p,
                               UnitAttentions& ua) {
  // SPC-4 "Releasing".
  if (!key_matches(port, p.reservation_key)) return PrResult::reservation_conflict();
  if (!reservation_ || !holds(port)) return PrResult::good();  // nothing of ours to release
  if (reservation_->type != p.type) {
    return PrResult::fail({Reason::kInvalidRelease, std::nullopt, std::nullopt});
  }
  const PrType t = reservation_->type;
  reservation_.reset();
  if (registrants_only(t) || all_registrants(t)) {
    to_registrants_except(port, Reason::kReservationsReleased, ua);
  }
  return PrResult::good();
}

PrResult Reservations::clear(const InitiatorPort& port, const PrOutParams& p, UnitAttentions& ua) {
  // SPC-4 "Clearing": everyone else learns their registration and any
  // reservation are gone.
  if (!key_matches(port, p.reservation_key)) return PrResult::reservation_conflict();
  to_registrants_except(port, Reason::kReservationsPreempted, ua);
  registrations_.clear();
  reservation_.reset();
  ++generation_;
  return PrResult::good();
}

PrResult Reservations::preempt(const InitiatorPort& port, const PrOutParams& p,
                               UnitAttentions& ua) {
  // SPC-4 "Preempting".
  if (!key_matches(port, p.reservation_key)) return PrResult::reservation_conflict();
  const std::uint64_t sark = p.service_action_key;
  const Sense bad_sark = Sense::param(Reason::kInvalidFieldInParamList, 8);
  const bool all_regs = reservation_ && all_registrants(reservation_->type);

  if (all_regs && sark == 0) {
    // "Preempting persistent reservations", All Registrants with key 0:
    // everyone else loses their registration; the requester gets a new
    // reservation of the requested type.
    for (const Registration& r : registrations_) {
      if (r.port != port) ua.establish(r.port, Reason::kRegistrationsPreempted);
    }
    std::erase_if(registrations_, [&](const Registration& r) { return r.port != port; });
    reservation_ = Reservation{p.type, port};
  } else if (!reservation_ || all_regs) {
    // "Removing registrations" (also under an All Registrants reservation
    // when a key is given): remove the registrations with that key; the
    // reservation, if any, stays.
    if (sark == 0) return PrResult::fail(bad_sark);
    if (preempt_key(port, sark, ua) == 0) return PrResult::reservation_conflict();
  } else {
    const Registration* holder = find(reservation_->holder);
    const std::uint64_t holder_key = holder != nullptr ? holder->key : 0;
    if (sark == 0) return PrResult::fail(bad_sark);
    if (sark == holder_key) {
      // "Preempting persistent reservations". The holder's key goes (with
      // every other registration under it), the requester holds a
      // reservation of the requested type, and when the type changed the
      // remaining registrants are told the old one is gone.
      const PrType old_type = reservation_->type;
      preempt_key(port, sark, ua);
      reservation_ = Reservation{p.type, port};
      if (old_type != p.type) to_registrants_except(port, Reason::kReservationsReleased, ua);
    } else if (preempt_key(port, sark, ua) == 0) {
      return PrResult::reservation_conflict();
    }
  }
  ++generation_;
  return PrResult::good();
}

Bytes Reservations::read_keys() const {
  Bytes b;
  append_be(b, 4, generation_);
  append_be(b, 4, 8 * registrations_.size());
  for (const Registration& r : registrations_) append_be(b, 8, r.key);
  return b;
}

Bytes Reservations::read_reservation() const {
  Bytes b;
  append_be(b, 4, generation_);
  append_be(b, 4, reservation_ ? 16 : 0);
  if (!reservation_) return b;
  // SPC-4 §6.15.3: an All Registrants reservation reports key 0.
  const Registration* holder = find(reservation_->holder);
  const bool zero = all_registrants(reservation_->type) || holder == nullptr;
  append_be(b, 8, zero ? 0 : holder->key);
  append_be(b, 4, 0);  // obsolete
  b.push_back(0);
  b.push_back(static_cast<std::uint8_t>((kScopeLogicalUnit << 4) |
                                        static_cast<std::uint8_t>(reservation_->type)));
  append_be(b, 2, 0);  // obsolete
  return b;
}

Bytes Reservations::report_capabilities() {
  // SPC-4 §6.15.4.
  constexpr std::uint8_t kCrh = 0x10;
  constexpr std::uint8_t kAtpC = 0x04;  // SIP_C = 0, PTPL_C = 0
  constexpr std::uint8_t kTmv = 0x80;
  // ALLOW COMMANDS 011b: TEST UNIT READY passes Write Exclusive and Exclusive
  // Access reservations; MODE SENSE, READ BUFFER and REPORT SUPPORTED
  // OPERATION CODES pass Write Exclusive ones (see persistent_conflict).
  // PTPL_A = 0.
  constexpr std::uint8_t kAllowCommands = 0x3 << 4;
  // PERSISTENT RESERVATION TYPE MASK: WR_EX_AR, EX_AC_RO, WR_EX_RO, EX_AC,
  // WR_EX in byte 4; EX_AC_AR in byte 5.
  constexpr std::uint8_t kMaskByte4 = 0x80 | 0x40 | 0x20 | 0x08 | 0x02;
  constexpr std::uint8_t kMaskByte5 = 0x01;
  return {0x00, 0x08, kCrh | kAtpC, kTmv | kAllowCommands, kMaskByte4, kMaskByte5, 0, 0};
}

Bytes Reservations::read_full_status(
    const std::function<Bytes(const InitiatorPort&)>& transport_id) const {
  // SPC-4 §6.15.5: one full status descriptor per registration.
  Bytes list;
  for (const Registration& r : registrations_) {
    const bool holder = holds(r.port);
    const Bytes id = transport_id(r.port);
    append_be(list, 8, r.key);
    append_be(list, 4, 0);
    list.push_back(static_cast<std::uint8_t>((r.all_tg_pt ? 0x02 : 0) | (holder ? 0x01 : 0)));
    list.push_back(holder ? static_cast<std::uint8_t>((kScopeLogicalUnit << 4) |
                                                      static_cast<std::uint8_t>(reservation_->type))
                          : 0);
    append_be(list, 4, 0);
    append_be(list, 2, kRelativeTargetPort);
    append_be(list, 4, id.size());
    list.insert(list.end(), id.begin(), id.end());
  }
  Bytes b;
  append_be(b, 4, generation_);
  append_be(b, 4, list.size());
  b.insert(b.end(), list.begin(), list.end());
  return b;
}

PrResult Reservations::spc2_reserve(const Requester& who) {
  if (!registrations_.empty()) {
    // SPC-4 "Exceptions to SPC-2 RESERVE and RELEASE behavior" (CRH = 1): a
    // persistent reservation holder, or a
    // registrant of a Registrants Only reservation, gets GOOD and nothing
    // changes; SPC-2 §5.5: for everyone else registrations make RESERVE
    // conflict.
    const bool exempt = holds(who.port) || (reservation_ && registrants_only(reservation_->type) &&
                                            find(who.port) != nullptr);
    return exempt ? PrResult::good() : PrResult::reservation_conflict();
  }
  if (spc2_holder_ && *spc2_holder_ != who.nexus) return PrResult::reservation_conflict();
  spc2_holder_ = who.nexus;  // the holder reserving again: no change
  return PrResult::good();
}

PrResult Reservations::spc2_release(const Requester& who) {
  if (!registrations_.empty()) {
    // The same exceptions and conflicts as for RESERVE.
    const bool exempt = holds(who.port) || (reservation_ && registrants_only(reservation_->type) &&
                                            find(who.port) != nullptr);
    return exempt ? PrResult::good() : PrResult::reservation_conflict();
  }
  // SPC-2 RELEASE(6): releasing a reservation held by someone else, or none,
  // succeeds and changes nothing.
  if (spc2_holder_ == who.nexus) spc2_holder_.reset();
  return PrResult::good();
}

void Reservations::nexus_lost(std::uint64_t nexus) {
  if (spc2_holder_ == nexus) spc2_holder_.reset();
}

}  // namespace memstore::scsi
