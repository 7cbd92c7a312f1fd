// SPDX-License-Identifier: Apache-2.0
// The limits this LUN enforces and advertises in VPD B0h (SBC-3 §6.6.3):
// one definition for both.
#pragma once

#include <cstdint>

namespace memstore::scsi {

inline constexpr std::uint32_t kMaxTransferBlocks = 0x10000;  // 32 MiB of 512-byte blocks
inline constexpr std::uint32_t kMaxWriteSameBlocks = 0x100000;
inline constexpr std::uint8_t kMaxCompareAndWriteBlocks = 0xFF;
inline constexpr std::uint32_t kMaxUnmapDescriptors = 256;
inline constexpr std::uint32_t kMaxUnmapBlocks = 0x100000;

}  // namespace memstore::scsi
