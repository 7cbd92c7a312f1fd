// SPDX-License-Identifier: Apache-2.0
#include "target/scsi/fault_range.h"

#include "target/scsi/command_table.h"

namespace memstore::scsi {

std::optional<BlockRange> block_range(std::span<const std::uint8_t> cdb, std::uint64_t capacity) {
  if (cdb.empty()) return std::nullopt;
  const CommandSpec* spec = find_layout(cdb[0]);
  if (spec == nullptr || spec->media == Media::kNone || cdb.size() < spec->cdb_length) {
    return std::nullopt;
  }
  BlockRange r;
  r.op = spec->media == Media::kWrite ? FaultOp::kWrite : FaultOp::kRead;
  r.lba = cdb_field(cdb, spec->lba);
  r.blocks = cdb_blocks(*spec, cdb, capacity);
  return r;
}

}  // namespace memstore::scsi
