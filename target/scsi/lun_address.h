// SPDX-License-Identifier: Apache-2.0
// The 8-byte LUN address of a logical unit number (SAM-5 §4.7): what
// REPORT LUNS lists and what a transport's LUN field carries. Header-only,
// so that transport codecs share it without linking the SCSI layer.
#pragma once

#include <array>
#include <cstdint>

namespace memstore::scsi {

// Peripheral device addressing below 256, flat space addressing up to 16383.
inline std::array<std::uint8_t, 8> lun_address(std::uint16_t id) {
  std::array<std::uint8_t, 8> out{};
  if (id < 256) {
    out[1] = static_cast<std::uint8_t>(id);  // bus 0
  } else {
    out[0] = static_cast<std::uint8_t>(0x40 | ((id >> 8) & 0x3F));
    out[1] = static_cast<std::uint8_t>(id);
  }
  return out;
}

}  // namespace memstore::scsi
