// SPDX-License-Identifier: Apache-2.0
// How many data-out bytes a CDB asks for, before any data has arrived: the
// transport's bound on what it buffers for a command (RFC 7143 §11.4.5: the
// SCSI command's own transfer length, against the initiator's Expected Data
// Transfer Length). It comes from the command table's length field and
// unit (command_table.h); the LUN's handlers compute the same figure when
// they run (ScsiResult::transfer_bytes), and the tests hold the two
// together.
#pragma once

#include <cstdint>
#include <span>

#include "target/scsi/command_table.h"

namespace memstore::scsi {

// Bytes of data-out the CDB describes for a LUN of `block_size`-byte
// blocks; 0 for commands that move no data out, unknown opcodes and CDBs
// shorter than their opcode's (the LUN rejects those without data).
std::uint64_t data_out_length(std::span<const std::uint8_t> cdb, std::uint32_t block_size);

// The same for a CDB whose command is known.
// REQUIRES: cdb.size() >= spec.cdb_length.
std::uint64_t data_out_bytes(const CommandSpec& spec, std::span<const std::uint8_t> cdb,
                             std::uint32_t block_size);

}  // namespace memstore::scsi
