// The length of the CDB TCMU hands over, computed as Linux sizes the CDB it
// copies into the TCMU ring (scsi_command_size): by the operation code's
// group (SPC-4 §4.2.5.1), and 8 + ADDITIONAL CDB LENGTH for a variable-length
// CDB (7Fh). Reserved and vendor groups get the kernel's sizes too, so the
// Lun never reads past what was copied; it rejects those opcodes anyway.
#pragma once

#include <array>
#include <cstddef>
#include <cstdint>

namespace memstore::tcmu {

inline std::size_t cdb_length(const std::uint8_t* cdb) {
  constexpr std::array<std::uint8_t, 8> kByGroup = {6, 10, 10, 12, 16, 12, 10, 10};
  if (cdb[0] == 0x7F) return 8u + cdb[7];
  return kByGroup[cdb[0] >> 5];
}

}  // namespace memstore::tcmu
