// SPDX-License-Identifier: Apache-2.0
#include "target/scsi/rate_limiter.h"

#include <algorithm>

namespace memstore::scsi {

RateLimiter::RateLimiter(std::uint32_t per_window, std::int64_t window_ns)
    : per_window_(std::max<std::uint32_t>(per_window, 1)),
      window_ns_(std::max<std::int64_t>(window_ns, 1)) {}

RateLimiter::Verdict RateLimiter::admit(std::int64_t now_ns) {
  // The first call opens a window; so does the first call past its end.
  if (window_start_ == std::numeric_limits<std::int64_t>::min() ||
      now_ns - window_start_ >= window_ns_) {
    window_start_ = now_ns;
    used_ = 0;
  }
  if (used_ >= per_window_) {
    ++suppressed_;
    return {};
  }
  ++used_;
  Verdict v{true, suppressed_};
  suppressed_ = 0;
  return v;
}

}  // namespace memstore::scsi
