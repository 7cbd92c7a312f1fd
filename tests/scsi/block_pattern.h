// SPDX-License-Identifier: Apache-2.0
// Blocks that say which write filled them, for the volatile cache's
// property tests: a block read back names its write and its own LBA, so a
// test can tell which write's data survived a cut.
#pragma once

#include <cstdint>
#include <cstring>
#include <vector>

namespace memstore::scsi::testing {

inline constexpr std::uint32_t kPatternBlock = 512;

// Block `lba` as write number `value` fills it (0: never written).
inline std::vector<std::uint8_t> block_of(std::uint64_t value, std::uint64_t lba) {
  std::vector<std::uint8_t> b(kPatternBlock, 0);
  if (value == 0) return b;
  for (std::size_t i = 0; i < kPatternBlock; i += 16) {
    std::memcpy(b.data() + i, &value, 8);
    std::memcpy(b.data() + i + 8, &lba, 8);
  }
  return b;
}

inline std::vector<std::uint8_t> blocks_of(std::uint64_t value, std::uint64_t lba,
                                           std::uint64_t count) {
  std::vector<std::uint8_t> out;
  for (std::uint64_t i = 0; i < count; ++i) {
    const auto b = block_of(value, lba + i);
    out.insert(out.end(), b.begin(), b.end());
  }
  return out;
}

}  // namespace memstore::scsi::testing
