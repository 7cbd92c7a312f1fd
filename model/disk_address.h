// SPDX-License-Identifier: Apache-2.0
// A place on a disk: cylinder, surface (head) and sector within the track.
// Shared by the Überdisk and the zoned disks.
#pragma once

#include <cstdint>

namespace memstore::model {

struct DiskAddress {
  std::int32_t cylinder = 0;
  std::int32_t surface = 0;
  std::int32_t sector = 0;
  friend bool operator==(const DiskAddress&, const DiskAddress&) = default;
};

}  // namespace memstore::model
