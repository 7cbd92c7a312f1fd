#include "target/scsi/fault_range.h"

namespace memstore::scsi {
namespace {

struct Layout {
  std::uint8_t opcode;
  std::uint8_t cdb_length;
  FaultOp op;
  std::uint8_t lba_at, lba_size;
  std::uint8_t len_at, len_size;
  bool zero_means_to_end;  // WRITE SAME: 0 blocks = through the last LBA
};

// SBC-3 §5: the CDB layouts of the medium-addressing commands.
constexpr Layout kLayouts[] = {
    {0x08, 6, FaultOp::kRead, 1, 3, 4, 1, false},     // READ(6); 0 blocks means 256
    {0x28, 10, FaultOp::kRead, 2, 4, 7, 2, false},    // READ(10)
    {0xA8, 12, FaultOp::kRead, 2, 4, 6, 4, false},    // READ(12)
    {0x88, 16, FaultOp::kRead, 2, 8, 10, 4, false},   // READ(16)
    {0x2F, 10, FaultOp::kRead, 2, 4, 7, 2, false},    // VERIFY(10)
    {0xAF, 12, FaultOp::kRead, 2, 4, 6, 4, false},    // VERIFY(12)
    {0x8F, 16, FaultOp::kRead, 2, 8, 10, 4, false},   // VERIFY(16)
    {0x34, 10, FaultOp::kRead, 2, 4, 7, 2, false},    // PRE-FETCH(10)
    {0x90, 16, FaultOp::kRead, 2, 8, 10, 4, false},   // PRE-FETCH(16)
    {0x0A, 6, FaultOp::kWrite, 1, 3, 4, 1, false},    // WRITE(6); 0 blocks means 256
    {0x2A, 10, FaultOp::kWrite, 2, 4, 7, 2, false},   // WRITE(10)
    {0xAA, 12, FaultOp::kWrite, 2, 4, 6, 4, false},   // WRITE(12)
    {0x8A, 16, FaultOp::kWrite, 2, 8, 10, 4, false},  // WRITE(16)
    {0x2E, 10, FaultOp::kWrite, 2, 4, 7, 2, false},   // WRITE AND VERIFY(10)
    {0xAE, 12, FaultOp::kWrite, 2, 4, 6, 4, false},   // WRITE AND VERIFY(12)
    {0x8E, 16, FaultOp::kWrite, 2, 8, 10, 4, false},  // WRITE AND VERIFY(16)
    {0x41, 10, FaultOp::kWrite, 2, 4, 7, 2, true},    // WRITE SAME(10)
    {0x93, 16, FaultOp::kWrite, 2, 8, 10, 4, true},   // WRITE SAME(16)
    {0x89, 16, FaultOp::kWrite, 2, 8, 13, 1, false},  // COMPARE AND WRITE
    {0x8B, 16, FaultOp::kWrite, 2, 8, 10, 4, false},  // ORWRITE(16)
};

std::uint64_t field(std::span<const std::uint8_t> cdb, std::uint8_t at, std::uint8_t size) {
  std::uint64_t v = 0;
  for (std::uint8_t i = 0; i < size; ++i) v = (v << 8) | cdb[at + i];
  return v;
}

}  // namespace

std::optional<BlockRange> block_range(std::span<const std::uint8_t> cdb, std::uint64_t capacity) {
  if (cdb.empty()) return std::nullopt;
  for (const Layout& l : kLayouts) {
    if (l.opcode != cdb[0]) continue;
    if (cdb.size() < l.cdb_length) return std::nullopt;
    BlockRange r;
    r.op = l.op;
    r.lba = field(cdb, l.lba_at, l.lba_size);
    r.blocks = field(cdb, l.len_at, l.len_size);
    if (l.cdb_length == 6) {
      r.lba &= 0x1FFFFF;  // SBC-3 §5.16: 21-bit LBA
      if (r.blocks == 0) r.blocks = 256;
    }
    if (l.zero_means_to_end && r.blocks == 0 && r.lba < capacity) r.blocks = capacity - r.lba;
    return r;
  }
  return std::nullopt;
}

}  // namespace memstore::scsi
