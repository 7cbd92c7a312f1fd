// SPDX-License-Identifier: Apache-2.0
// The length of the CDB TCMU hands over: the command table's for the
// opcode, which for every opcode is what Linux copies into the TCMU ring
// (scsi_command_size: by the opcode's group, SPC-4 §4.2.5.1, and 8 +
// ADDITIONAL CDB LENGTH for a variable-length CDB, 7Fh). Opcodes the table
// lacks get the kernel's size too, so the Lun never reads past what was
// copied; it rejects those opcodes anyway.
#pragma once

#include <cstddef>
#include <cstdint>

#include "target/scsi/command_table.h"

namespace memstore::tcmu {

inline std::size_t cdb_length(const std::uint8_t* cdb) {
  return scsi::cdb_length_of(cdb);
}

}  // namespace memstore::tcmu
