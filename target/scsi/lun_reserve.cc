// SPDX-License-Identifier: Apache-2.0
// PERSISTENT RESERVE IN/OUT (SPC-4 §6.15, §6.16), RESERVE/RELEASE(6/10)
// (SPC-2), and what the transport tells the Lun about I_T
// nexuses and resets. The state and its rules are in reservations.cc; this
// file decodes CDBs and parameter lists.
#include "modepages/bytes.h"
#include "target/scsi/lun.h"
#include "target/scsi/transport_id.h"

namespace memstore::scsi {
namespace {

using modepages::get_be;

// SPC-4 §6.16.2, PERSISTENT RESERVE OUT service actions. REGISTER AND MOVE
// (07h) is not in the command table.
enum ProutAction : std::uint8_t {
  kRegister = 0x00,
  kReserve = 0x01,
  kRelease = 0x02,
  kClear = 0x03,
  kPreempt = 0x04,
  kPreemptAndAbort = 0x05,
  kRegisterAndIgnore = 0x06,
};

// SPC-4 §6.15.1, PERSISTENT RESERVE IN service actions.
enum PrinAction : std::uint8_t {
  kReadKeys = 0x00,
  kReadReservation = 0x01,
  kReportCapabilities = 0x02,
  kReadFullStatus = 0x03,
};

constexpr std::uint64_t kBasicParameterListBytes = 24;
constexpr std::uint8_t kSpecIPt = 0x08;  // byte 20
constexpr std::uint8_t kAllTgPt = 0x04;
constexpr std::uint8_t kAptpl = 0x01;
constexpr std::uint8_t kReservedFlags = 0xF2;
constexpr std::size_t kMaxPortNameBytes = 255;

Outcome outcome_of(const PrResult& r) {
  if (r.conflict) return Outcome::reservation_conflict();
  if (r.sense) return Outcome::fail(*r.sense);
  return {};
}

}  // namespace

Outcome Lun::persistent_reserve_in(const CommandContext& c) {
  Outcome o;
  switch (c.cdb[1] & 0x1F) {
    case kReadKeys:
      o.data_in = reservations_.read_keys();
      break;
    case kReadReservation:
      o.data_in = reservations_.read_reservation();
      break;
    case kReportCapabilities:
      o.data_in = Reservations::report_capabilities();
      break;
    case kReadFullStatus:
    default:  // the table has no other service action
      o.data_in = reservations_.read_full_status(
          [](const InitiatorPort& port) { return iscsi_transport_id(port.name); });
      break;
  }
  return o;
}

Outcome Lun::persistent_reserve_out(const CommandContext& c) {
  const std::uint8_t action = c.cdb[1] & 0x1F;
  const bool registering = action == kRegister || action == kRegisterAndIgnore;
  PrOutParams p;
  // SCOPE and TYPE matter to RESERVE, RELEASE and the PREEMPTs; REGISTER,
  // REGISTER AND IGNORE EXISTING KEY and CLEAR ignore them (SPC-4 §6.16.2).
  if (!registering && action != kClear) {
    if ((c.cdb[2] >> 4) != 0) {  // only LU_SCOPE
      return Outcome::fail(Sense::cdb(Reason::kInvalidFieldInCdb, 2, 7));
    }
    const std::optional<PrType> type = pr_type(c.cdb[2] & 0x0F);
    if (!type) return Outcome::fail(Sense::cdb(Reason::kInvalidFieldInCdb, 2, 3));
    p.type = *type;
  }
  // SPC-4 §6.16.3: without SPEC_I_PT (not offered) the parameter list is the
  // 24-byte basic one, whatever the service action.
  if (cdb_field(c.cdb, c.spec.length) != kBasicParameterListBytes ||
      c.data_out.size() < kBasicParameterListBytes) {
    return Outcome::fail({Reason::kParamListLengthError, std::nullopt, std::nullopt});
  }
  const auto list = c.data_out.first(kBasicParameterListBytes);
  p.reservation_key = get_be(list, 0, 8);
  p.service_action_key = get_be(list, 8, 8);
  const std::uint8_t flags = list[20];
  if ((flags & kSpecIPt) != 0) {
    return Outcome::fail(Sense::param(Reason::kInvalidFieldInParamList, 20, 3));  // SIP_C = 0
  }
  // APTPL counts only for the registering actions (SPC-4 §6.16.3); PTPL_C = 0.
  if (registering && (flags & kAptpl) != 0) {
    return Outcome::fail(Sense::param(Reason::kInvalidFieldInParamList, 20, 0));
  }
  if ((flags & kReservedFlags) != 0 || list[21] != 0) {
    const std::uint16_t byte = (flags & kReservedFlags) != 0 ? 20 : 21;
    return Outcome::fail(Sense::param(Reason::kInvalidFieldInParamList, byte));
  }
  p.all_tg_pt = registering && (flags & kAllTgPt) != 0;

  const InitiatorPort port = port_of(c.nexus);
  switch (action) {
    case kRegister:
    case kRegisterAndIgnore:
      return outcome_of(
          reservations_.register_key(port, p, action == kRegisterAndIgnore, attentions_));
    case kReserve:
      return outcome_of(reservations_.reserve(port, p));
    case kRelease:
      return outcome_of(reservations_.release(port, p, attentions_));
    case kClear:
      return outcome_of(reservations_.clear(port, p, attentions_));
    default:  // kPreempt, kPreemptAndAbort (see reservations.h for the abort part)
      return outcome_of(reservations_.preempt(port, p, attentions_));
  }
}

Outcome Lun::reserve(const CommandContext& c) {
  return outcome_of(reservations_.spc2_reserve(requester(c.nexus)));
}

Outcome Lun::release(const CommandContext& c) {
  return outcome_of(reservations_.spc2_release(requester(c.nexus)));
}

void Lun::describe_nexus(std::uint64_t nexus, std::string iscsi_initiator_port) {
  if (iscsi_initiator_port.size() > kMaxPortNameBytes) {
    iscsi_initiator_port.resize(kMaxPortNameBytes);
  }
  nexuses_.insert(nexus);
  const auto it =
      ports_
          .insert_or_assign(nexus, iscsi_initiator_port.empty()
                                       ? InitiatorPort::anonymous(nexus)
                                       : InitiatorPort::named(std::move(iscsi_initiator_port)))
          .first;
  attentions_.port_returned(it->second);
}

void Lun::nexus_lost(std::uint64_t nexus) {
  reservations_.nexus_lost(nexus);
  // A nexus the transport never described cannot come back: nothing can
  // ever report its unit attentions. A described port keeps them for its
  // next nexus.
  const InitiatorPort port = port_of(nexus);
  if (!port.described()) {
    attentions_.forget(port);
  } else {
    attentions_.port_left(port);  // bounded: UnitAttentions::kMaxPorts
  }
  ports_.erase(nexus);
  nexuses_.erase(nexus);
  echo_.erase(nexus);
  batch_results_.erase(nexus);
}

void Lun::change_target_luns(std::vector<std::uint16_t> ids) {
  if (ids == target_luns_) return;
  target_luns_ = std::move(ids);
  for (const std::uint64_t nexus : nexuses_) {
    attentions_.establish(port_of(nexus), Reason::kReportedLunsChanged);
  }
}

void Lun::lun_reset() {
  reservations_.lun_reset();
  for (const std::uint64_t nexus : nexuses_) {
    attentions_.establish(port_of(nexus), Reason::kBusDeviceReset);
  }
}

}  // namespace memstore::scsi
