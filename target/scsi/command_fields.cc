// SPDX-License-Identifier: Apache-2.0
// Reading a CDB through its table entry: reserved bits, fields, the blocks
// addressed and the allocation length (command_table.h).
#include "modepages/bytes.h"
#include "target/scsi/command_table.h"

namespace memstore::scsi {

std::optional<BitPosition> reserved_bit_set(const CommandSpec& spec,
                                            std::span<const std::uint8_t> cdb) {
  for (std::size_t i = 1; i < spec.cdb_length && i < cdb.size(); ++i) {
    const std::uint8_t bad = cdb[i] & static_cast<std::uint8_t>(~spec.usage[i]);
    if (bad == 0) continue;
    std::int8_t bit = 7;
    while (((bad >> bit) & 1) == 0) --bit;
    return BitPosition{static_cast<std::uint16_t>(i), bit};
  }
  return std::nullopt;
}

std::uint64_t cdb_field(std::span<const std::uint8_t> cdb, CdbField f) {
  if (f.size == 0) return 0;
  const std::uint64_t v = modepages::get_be(cdb, f.offset, f.size);
  return f.bits == 0 || f.bits >= 64 ? v : v & ((std::uint64_t{1} << f.bits) - 1);
}

std::uint64_t cdb_blocks(const CommandSpec& spec, std::span<const std::uint8_t> cdb,
                         std::uint64_t capacity) {
  if (!in_blocks(spec.unit)) return 0;
  const std::uint64_t n = cdb_field(cdb, spec.length);
  if (n != 0) return n;
  if (spec.unit == LengthUnit::kBlocksZeroIs256) return 256;
  if (spec.unit == LengthUnit::kPatternBlocks) {
    const std::uint64_t lba = cdb_field(cdb, spec.lba);
    return lba < capacity ? capacity - lba : 0;
  }
  return 0;
}

void cut_to_allocation_length(const CommandSpec& spec, std::span<const std::uint8_t> cdb,
                              std::vector<std::uint8_t>& data_in) {
  if (spec.unit != LengthUnit::kAllocation) return;
  const std::uint64_t alloc = cdb_field(cdb, spec.length);
  if (data_in.size() > alloc) data_in.resize(static_cast<std::size_t>(alloc));
}

}  // namespace memstore::scsi
