// SPDX-License-Identifier: Apache-2.0
// Log lines an outsider can provoke (refused logins, refused MODE SELECTs of
// a control page) are rate-limited, so that a hostile or broken initiator
// cannot fill the disk or drown the other lines: at most `per_window` lines
// per window, and the lines dropped in between are counted and reported with
// the next line that gets through ("suppressed K messages").
//
// A fixed window: the first line at or after a window's end opens the next
// window. Time is passed in, in nanoseconds of any monotonic clock, so that
// tests need no clock. Not thread-safe: one per thread, or under a lock.
#pragma once

#include <cstdint>
#include <limits>

namespace memstore::scsi {

class RateLimiter {
 public:
  struct Verdict {
    bool log = false;              // write this line
    std::uint64_t suppressed = 0;  // lines dropped since the last one written: say so first
  };

  // REQUIRES: per_window >= 1, window_ns >= 1.
  explicit RateLimiter(std::uint32_t per_window, std::int64_t window_ns = 1'000'000'000);

  // One line wants out at `now_ns` (non-decreasing across calls).
  Verdict admit(std::int64_t now_ns);
  // Lines dropped and not yet reported.
  std::uint64_t pending_suppressed() const { return suppressed_; }

 private:
  std::uint32_t per_window_;
  std::int64_t window_ns_;
  std::int64_t window_start_ = std::numeric_limits<std::int64_t>::min();
  std::uint32_t used_ = 0;
  std::uint64_t suppressed_ = 0;
};

}  // namespace memstore::scsi
