// SPDX-License-Identifier: Apache-2.0
#include "target/scsi/data_out_length.h"

#include <algorithm>

namespace memstore::scsi {

std::uint64_t data_out_length(std::span<const std::uint8_t> cdb, std::uint32_t block_size) {
  if (cdb.empty()) return 0;
  // Every service action of an opcode has its layout (command_table.cc),
  // so one the LUN will refuse still bounds the data the same way.
  const CommandSpec* spec = find_layout(cdb[0]);
  if (spec == nullptr || cdb.size() < spec->cdb_length) return 0;
  return data_out_bytes(*spec, cdb, block_size);
}

std::uint64_t data_out_bytes(const CommandSpec& spec, std::span<const std::uint8_t> cdb,
                             std::uint32_t block_size) {
  if (spec.direction != DataDirection::kOut) return 0;
  const std::uint64_t n = cdb_field(cdb, spec.length);
  switch (spec.unit) {
    case LengthUnit::kParameterList:
      return n;
    case LengthUnit::kBlocksZeroIs256:
      return (n == 0 ? 256 : n) * block_size;
    case LengthUnit::kPatternBlocks: {
      // NDOB (byte 1 bit 0, where the CDB has it): no data-out buffer.
      const bool ndob = (spec.usage[1] & cdb[1] & 0x01) != 0;
      return ndob ? 0 : block_size;
    }
    case LengthUnit::kBlockPairs:
      return 2 * n * block_size;
    case LengthUnit::kBytchkBlocks: {
      // BYTCHK 00b: the medium alone; 01b: one block per block verified;
      // 11b: one block compared with each (SBC-3 VERIFY (10)).
      const int bytchk = (cdb[1] >> 1) & 0x03;
      if (bytchk == 0) return 0;
      return (bytchk == 3 ? std::min<std::uint64_t>(n, 1) : n) * block_size;
    }
    case LengthUnit::kBlocks:
      return n * block_size;
    case LengthUnit::kNone:
    case LengthUnit::kAllocation:
      return 0;
  }
  return 0;
}

}  // namespace memstore::scsi
