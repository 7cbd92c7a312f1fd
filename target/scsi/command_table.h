// The one table of supported commands (SPC-4, SBC-3; docs/scsi-device.md "
// device"): opcode and service action, CDB length, data direction, the
// REPORT SUPPORTED OPERATION CODES usage mask (which also drives the
// reserved-bit check), where the allocation length lives, whether the
// command touches the media (and so is timed by the model), and the handler.
#pragma once

#include <array>
#include <cstdint>
#include <optional>
#include <span>

namespace memstore::scsi {

class Lun;
struct CommandContext;
struct Outcome;

enum class DataDirection : std::uint8_t { kNone, kIn, kOut };

// How a command fares when a reservation is held by another I_T nexus.
// Persistent reservations: the SPC-4 and SBC-3 tables "SPC (SBC) commands
// that are allowed in the presence of various reservations"; SPC-2
// reservations (RESERVE/RELEASE): SPC-2 §5.5 and SBC-2's table of the same
// name. The rules themselves are in reservations.cc.
enum class Access : std::uint8_t {
  kAny,             // never conflicts: INQUIRY, REPORT LUNS, REQUEST SENSE, LOG SENSE,
                    // READ CAPACITY
  kAnyPersistent,   // passes every persistent reservation, not an SPC-2 one: TEST UNIT
                    // READY, PERSISTENT RESERVE IN
  kRead,            // reads medium or state: passes Write Exclusive types
  kWrite,           // changes medium or state: only holders and, for the registrants
                    // types, registrants
  kStartStop,       // kAny with START = 1 and POWER CONDITION = 0, else kWrite
  kPreventAllow,    // kAny with PREVENT = 0, else kWrite
  kPersistentOut,   // the service action decides (SPC-4 "PERSISTENT RESERVE OUT service
                    // actions that are allowed in the presence of various reservations");
                    // conflicts with an SPC-2 reservation
  kReserveRelease,  // RESERVE/RELEASE: the handler decides (SPC-2; SPC-4 "Exceptions to
                    // SPC-2 RESERVE and RELEASE behavior")
};

// A field in the CDB: byte offset and size in bytes (big-endian).
struct CdbField {
  std::uint8_t offset = 0;
  std::uint8_t size = 0;
};

struct CommandSpec {
  const char* name;
  std::uint8_t opcode;
  std::optional<std::uint8_t> service_action;  // in byte 1 bits 4..0
  std::uint8_t cdb_length;
  DataDirection direction;
  std::array<std::uint8_t, 16> usage;  // bits a host may set, per CDB byte
  bool media;                          // timed by the device model
  std::optional<CdbField> allocation_length;
  Outcome (Lun::*handler)(const CommandContext&);
  Access access;
};

std::span<const CommandSpec> command_table();

// The spec for a CDB, or the reason it has none: nullptr with `bad_sa` false
// means an unknown opcode; true, an unknown service action.
const CommandSpec* find_command(std::span<const std::uint8_t> cdb, bool& bad_sa);

// First CDB bit set outside the usage mask: (byte, bit), or nullopt.
struct BitPosition {
  std::uint16_t byte;
  std::int8_t bit;
};
std::optional<BitPosition> reserved_bit_set(const CommandSpec& spec,
                                            std::span<const std::uint8_t> cdb);

std::uint64_t cdb_field(std::span<const std::uint8_t> cdb, CdbField f);

}  // namespace memstore::scsi
