// SPDX-License-Identifier: Apache-2.0
#include "target/scsi/command_table.h"

#include <algorithm>

#include "modepages/bytes.h"
#include "target/scsi/command_entries.h"

namespace memstore::scsi {
namespace {

using command_entries::kCommands;
using command_entries::kFF;

// SPC-4 §4.2.5.1: the CDB length of each group of operation codes (byte 0
// bits 7..5), with the reserved and vendor-specific groups sized as Linux
// sizes them.
constexpr std::array<std::uint8_t, 8> kGroupLength = {6, 10, 10, 12, 16, 12, 10, 10};

constexpr bool same(CdbField a, CdbField b) {
  return a.offset == b.offset && a.size == b.size && a.bits == b.bits;
}

constexpr bool fits(CdbField f, std::uint8_t cdb_length) {
  return f.size <= 8 && f.offset + f.size <= cdb_length && f.bits <= 8 * f.size;
}

// What the consumers of the table rely on, checked when it is compiled.
constexpr bool well_formed(const CommandSpec& c) {
  if (c.cdb_length != kGroupLength[c.opcode >> 5] || c.usage[0] != kFF) return false;
  for (std::size_t i = c.cdb_length; i < c.usage.size(); ++i) {
    if (c.usage[i] != 0) return false;
  }
  if (!fits(c.lba, c.cdb_length) || !fits(c.length, c.cdb_length)) return false;
  if ((c.unit == LengthUnit::kNone) != (c.length.size == 0)) return false;
  // Data-in is cut to an allocation length; data-out is bounded by a
  // transfer or parameter list length.
  if (c.unit == LengthUnit::kAllocation && c.direction != DataDirection::kIn) return false;
  if (c.unit == LengthUnit::kParameterList && c.direction != DataDirection::kOut) return false;
  if (c.direction == DataDirection::kOut && !in_blocks(c.unit) &&
      c.unit != LengthUnit::kParameterList) {
    return false;
  }
  // A medium access has blocks to match fault rules against.
  if (c.media != Media::kNone && (c.lba.size == 0 || !in_blocks(c.unit))) return false;
  return c.handler != nullptr;
}

constexpr bool same_layout(const CommandSpec& a, const CommandSpec& b) {
  return a.cdb_length == b.cdb_length && a.direction == b.direction && same(a.lba, b.lba) &&
         same(a.length, b.length) && a.unit == b.unit && a.media == b.media;
}

constexpr bool table_well_formed() {
  for (const CommandSpec& a : kCommands) {
    if (!well_formed(a)) return false;
    for (const CommandSpec& b : kCommands) {
      if (&a == &b || a.opcode != b.opcode) continue;
      // One layout per opcode, told apart by service action.
      if (!a.service_action || !b.service_action || *a.service_action == *b.service_action ||
          !same_layout(a, b)) {
        return false;
      }
    }
  }
  return true;
}
static_assert(table_well_formed(), "kCommands: see well_formed() for what each entry must hold");

}  // namespace

std::span<const CommandSpec> command_table() {
  return kCommands;
}

const CommandSpec* find_command(std::span<const std::uint8_t> cdb, bool& bad_sa) {
  bad_sa = false;
  if (cdb.empty()) return nullptr;
  bool opcode_known = false;
  for (const CommandSpec& c : kCommands) {
    if (c.opcode != cdb[0]) continue;
    opcode_known = true;
    if (!c.service_action) return &c;
    if (cdb.size() > 1 && (cdb[1] & 0x1F) == *c.service_action) return &c;
  }
  bad_sa = opcode_known;
  return nullptr;
}

const CommandSpec* find_layout(std::uint8_t opcode) {
  for (const CommandSpec& c : kCommands) {
    if (c.opcode == opcode) return &c;
  }
  return nullptr;
}

std::size_t cdb_length_of(const std::uint8_t* cdb) {
  if (cdb[0] == 0x7F) return 8u + cdb[7];
  if (const CommandSpec* c = find_layout(cdb[0])) return c->cdb_length;
  return kGroupLength[cdb[0] >> 5];
}

}  // namespace memstore::scsi
