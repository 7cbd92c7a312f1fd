// SPDX-License-Identifier: Apache-2.0
// Crash states from a write log (docs/crash-consistency.md, "Crash states"):
// the blocks a device held if its power had been cut at a chosen point of
// the log, with the writes that were volatile there kept, lost or torn by
// the same policies as a live power cut (scsi::VolatileCacheStore).
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "target/scsi/backing_store.h"
#include "target/scsi/write_log.h"

namespace memstore::crash {

// Where the cuts fall: after every flush, after every write, or at N
// distinct points drawn from a seed. A point k is "after the first k
// entries" (0 = before the first).
struct Points {
  enum class Kind : std::uint8_t { kFlushes, kWrites, kRandom } kind = Kind::kFlushes;
  std::size_t count = 0;  // kRandom
};
// "flushes", "writes" or "random:N"; std::nullopt otherwise.
std::optional<Points> points_named(std::string_view text);
std::vector<std::size_t> crash_points(const scsi::write_log::Log& log, const Points& points,
                                      std::uint64_t seed);

// Gives `store` the first `upto` entries of `log` as the device was given
// them: writes, FUA writes, discards, flushes (marks are skipped).
scsi::StoreStatus replay(const scsi::write_log::Log& log, std::size_t upto,
                         scsi::BackingStore& store);

// One entry as a line: "12 write 4096+8 fua".
std::string describe(const scsi::write_log::Entry& e);

}  // namespace memstore::crash
