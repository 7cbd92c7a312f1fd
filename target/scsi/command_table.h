// SPDX-License-Identifier: Apache-2.0
// The one table of supported commands (SPC-4, SBC-3; docs/scsi-device.md
// "Commands"): opcode and service action, CDB length, data direction, the
// REPORT SUPPORTED OPERATION CODES usage mask (which also drives the
// reserved-bit check), where the LBA and the length field are and what the
// length counts, the medium access it stands for, whether the model times
// it, the handler and its reservation class. The transports' data-out
// length (data_out_length.h), TCMU's CDB length, the fault rules' block
// ranges (fault_range.h) and the allocation-length cut all come from it.
#pragma once

#include <array>
#include <cstdint>
#include <optional>
#include <span>
#include <vector>

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

// A big-endian field in the CDB: byte offset and size in bytes; `bits`, when
// not 0, keeps only that many low-order bits (READ(6)'s 21-bit LBA, SBC-3
// READ (6) command). Size 0: the command has no such field.
struct CdbField {
  std::uint8_t offset = 0;
  std::uint8_t size = 0;
  std::uint8_t bits = 0;
};

// What the CDB's length field counts, and so how much data it moves.
enum class LengthUnit : std::uint8_t {
  kNone,             // no length field
  kBlocks,           // TRANSFER LENGTH or NUMBER OF LOGICAL BLOCKS; data, if any, per block
  kBlocksZeroIs256,  // READ(6), WRITE(6): a TRANSFER LENGTH of 0 means 256 (SBC-3)
  kPatternBlocks,    // WRITE SAME: blocks written from one block of data-out, none with
                     // NDOB; 0 means through the last LBA (SBC-3 WRITE SAME (16))
  kBlockPairs,       // COMPARE AND WRITE: the verify data, then as much write data
  kBytchkBlocks,     // VERIFY: BYTCHK decides the data-out (SBC-3 VERIFY (10))
  kParameterList,    // PARAMETER LIST LENGTH: bytes of data-out
  kAllocation,       // ALLOCATION LENGTH: the most data-in taken (SPC-4 §4.2.5.6)
};

// The medium access a command stands for in SBC-3, at [LBA, LBA + blocks):
// what fault rules (fault_rule.h) match, whether or not the model times it.
enum class Media : std::uint8_t { kNone, kRead, kWrite };

// One supported command. Every service action of an opcode shares the
// opcode's CDB layout (length, direction, fields), which the table checks
// when it is compiled.
struct CommandSpec {
  const char* name = "";
  std::uint8_t opcode = 0;
  std::optional<std::uint8_t> service_action;  // in byte 1 bits 4..0
  std::uint8_t cdb_length = 0;
  DataDirection direction = DataDirection::kNone;
  // Per CDB byte, the bits this target interprets (SPC-4 §6.35.3, CDB USAGE
  // DATA); everything else is reserved or unsupported (RDPROTECT/WRPROTECT,
  // ANCHOR, NACA and LINK in CONTROL) and must be zero. Byte 0 is the opcode.
  std::array<std::uint8_t, 16> usage{};
  CdbField lba;                          // LOGICAL BLOCK ADDRESS
  CdbField length;                       // the length field `unit` describes
  LengthUnit unit = LengthUnit::kNone;
  Media media = Media::kNone;
  bool timed = false;  // the device model times it (docs/scsi-device.md)
  Outcome (Lun::*handler)(const CommandContext&) = nullptr;
  Access access = Access::kAny;
};

std::span<const CommandSpec> command_table();

// Whether a length in `u` counts logical blocks.
constexpr bool in_blocks(LengthUnit u) {
  return u == LengthUnit::kBlocks || u == LengthUnit::kBlocksZeroIs256 ||
         u == LengthUnit::kPatternBlocks || u == LengthUnit::kBlockPairs ||
         u == LengthUnit::kBytchkBlocks;
}

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

// The CDB layout of an opcode (its first entry), or nullptr.
const CommandSpec* find_layout(std::uint8_t opcode);

// A field's value (modepages::get_be, masked to `bits`); 0 when absent.
// REQUIRES: the CDB holds the field (it is at least spec.cdb_length long).
std::uint64_t cdb_field(std::span<const std::uint8_t> cdb, CdbField f);

// The number of logical blocks the CDB addresses, resolving the units'
// special zeros (READ(6): 256; WRITE SAME: to the last of `capacity`
// blocks). 0 for commands whose length is not in blocks.
std::uint64_t cdb_blocks(const CommandSpec& spec, std::span<const std::uint8_t> cdb,
                         std::uint64_t capacity);

// Cuts data-in to the CDB's ALLOCATION LENGTH, for commands that have one
// (SPC-4 §4.2.5.6).
void cut_to_allocation_length(const CommandSpec& spec, std::span<const std::uint8_t> cdb,
                              std::vector<std::uint8_t>& data_in);

// The length of the CDB at `cdb`: the table's for its opcode, or for an
// opcode it lacks that of the opcode's group (SPC-4 §4.2.5.1), as Linux
// sizes the CDBs it passes on (scsi_command_size); a variable-length CDB
// (7Fh) is 8 + its ADDITIONAL CDB LENGTH (byte 7).
// REQUIRES: cdb[0] readable, and cdb[7] when cdb[0] is 7Fh.
std::size_t cdb_length_of(const std::uint8_t* cdb);

}  // namespace memstore::scsi
