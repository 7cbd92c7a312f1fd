// SPDX-License-Identifier: Apache-2.0
// The blocks a command reads or writes on the medium, from its CDB, for
// matching fault rules (fault_rule.h): the commands of the command table
// that stand for a medium access (CommandSpec::media), at their LBA and
// length fields.
#pragma once

#include <cstdint>
#include <optional>
#include <span>

#include "target/scsi/fault_rule.h"

namespace memstore::scsi {

struct BlockRange {
  std::uint64_t lba = 0;
  std::uint64_t blocks = 0;
  FaultOp op = FaultOp::kRead;  // kRead or kWrite
};

// Nullopt for a command that does not address blocks (or a CDB too short
// for its opcode). `capacity` resolves WRITE SAME's "to the last LBA" (a
// NUMBER OF LOGICAL BLOCKS of 0, SBC-3 §5.42).
std::optional<BlockRange> block_range(std::span<const std::uint8_t> cdb, std::uint64_t capacity);

}  // namespace memstore::scsi
