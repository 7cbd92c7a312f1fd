// SPDX-License-Identifier: Apache-2.0
// CDBs for the tests: READ/WRITE(10) and (16) with an LBA and a block count
// (SBC-3 §5.7, §5.10, §5.32, §5.35), one definition for every test that
// drives a LUN, a driver or a session.
#pragma once

#include <cstdint>
#include <vector>

namespace memstore::scsi::testing {

// 0x28 READ(10), 0x2A WRITE(10).
inline std::vector<std::uint8_t> rw10(std::uint8_t opcode, std::uint32_t lba,
                                      std::uint16_t blocks) {
  return {opcode,
          0,
          static_cast<std::uint8_t>(lba >> 24),
          static_cast<std::uint8_t>(lba >> 16),
          static_cast<std::uint8_t>(lba >> 8),
          static_cast<std::uint8_t>(lba),
          0,
          static_cast<std::uint8_t>(blocks >> 8),
          static_cast<std::uint8_t>(blocks),
          0};
}

inline std::vector<std::uint8_t> read16(std::uint64_t lba, std::uint32_t blocks) {
  std::vector<std::uint8_t> cdb(16, 0);
  cdb[0] = 0x88;
  for (int i = 0; i < 8; ++i) cdb[2 + i] = static_cast<std::uint8_t>(lba >> (56 - 8 * i));
  for (int i = 0; i < 4; ++i) cdb[10 + i] = static_cast<std::uint8_t>(blocks >> (24 - 8 * i));
  return cdb;
}

// WRITE(16), with FUA when asked.
inline std::vector<std::uint8_t> write16(std::uint64_t lba, std::uint32_t blocks,
                                         bool fua = false) {
  std::vector<std::uint8_t> cdb = read16(lba, blocks);
  cdb[0] = 0x8A;
  if (fua) cdb[1] = 0x08;
  return cdb;
}

}  // namespace memstore::scsi::testing
