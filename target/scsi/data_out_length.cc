#include "target/scsi/data_out_length.h"

#include <array>

namespace memstore::scsi {
namespace {

enum class Unit : std::uint8_t {
  kBlocks,    // the field counts logical blocks
  kBytes,     // the field is a parameter list length in bytes
  kOneBlock,  // one block of pattern (WRITE SAME), none with NDOB
};

struct Entry {
  std::uint8_t opcode;
  Unit unit;
  std::uint8_t offset;  // the field, big-endian
  std::uint8_t size;
  std::uint8_t multiplier = 1;  // COMPARE AND WRITE sends the compare and the write data
  bool bytchk = false;          // VERIFY: data only with BYTCHK (SBC-3 §5.33)
  bool zero_is_256 = false;     // WRITE(6): 0 blocks means 256 (SBC-3 §5.32)
};

// SBC-3 and SPC-4 CDB layouts; the field each command's transfer length is in.
constexpr std::array kTable{
    Entry{0x0A, Unit::kBlocks, 4, 1, 1, false, true},  // WRITE(6)
    Entry{0x15, Unit::kBytes, 4, 1},                   // MODE SELECT(6)
    Entry{0x2A, Unit::kBlocks, 7, 2},                  // WRITE(10)
    Entry{0x2E, Unit::kBlocks, 7, 2},                  // WRITE AND VERIFY(10)
    Entry{0x2F, Unit::kBlocks, 7, 2, 1, true},         // VERIFY(10)
    Entry{0x3B, Unit::kBytes, 6, 3},                   // WRITE BUFFER (MEMS BATCH)
    Entry{0x41, Unit::kOneBlock, 0, 0},                // WRITE SAME(10)
    Entry{0x42, Unit::kBytes, 7, 2},                   // UNMAP
    Entry{0x55, Unit::kBytes, 7, 2},                   // MODE SELECT(10)
    Entry{0x5F, Unit::kBytes, 5, 4},                   // PERSISTENT RESERVE OUT
    Entry{0x89, Unit::kBlocks, 13, 1, 2},              // COMPARE AND WRITE
    Entry{0x8A, Unit::kBlocks, 10, 4},                 // WRITE(16)
    Entry{0x8B, Unit::kBlocks, 10, 4},                 // ORWRITE(16)
    Entry{0x8E, Unit::kBlocks, 10, 4},                 // WRITE AND VERIFY(16)
    Entry{0x8F, Unit::kBlocks, 10, 4, 1, true},        // VERIFY(16)
    Entry{0x93, Unit::kOneBlock, 0, 0},                // WRITE SAME(16)
    Entry{0xAA, Unit::kBlocks, 6, 4},                  // WRITE(12)
    Entry{0xAE, Unit::kBlocks, 6, 4},                  // WRITE AND VERIFY(12)
    Entry{0xAF, Unit::kBlocks, 6, 4, 1, true},         // VERIFY(12)
};

}  // namespace

std::uint64_t data_out_length(std::span<const std::uint8_t> cdb, std::uint32_t block_size) {
  if (cdb.empty()) return 0;
  for (const Entry& e : kTable) {
    if (e.opcode != cdb[0]) continue;
    if (e.unit == Unit::kOneBlock) {
      // NDOB (byte 1 bit 0), WRITE SAME(16) only: no data-out buffer.
      const bool ndob = cdb[0] == 0x93 && cdb.size() > 1 && (cdb[1] & 0x01) != 0;
      return ndob ? 0 : block_size;
    }
    if (cdb.size() < std::size_t{e.offset} + e.size) return 0;
    std::uint64_t n = 0;
    for (std::uint8_t i = 0; i < e.size; ++i) n = (n << 8) | cdb[e.offset + i];
    if (e.zero_is_256 && n == 0) n = 256;
    if (e.bytchk) {
      // BYTCHK 00b: the medium alone; 01b: one block per block verified;
      // 11b: one block compared with each.
      const int bytchk = (cdb[1] >> 1) & 0x03;
      if (bytchk == 0) return 0;
      if (bytchk == 3) n = n == 0 ? 0 : 1;
    }
    return e.unit == Unit::kBlocks ? n * block_size * e.multiplier : n;
  }
  return 0;
}

}  // namespace memstore::scsi
