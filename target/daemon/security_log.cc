// SPDX-License-Identifier: Apache-2.0
#include "target/daemon/security_log.h"

#include <array>
#include <chrono>
#include <cstdio>
#include <memory>
#include <mutex>

#include "target/scsi/log_sink.h"
#include "target/scsi/rate_limiter.h"

namespace memstore::daemon {

std::int64_t steady_now_ns() {
  return std::chrono::duration_cast<std::chrono::nanoseconds>(
             std::chrono::steady_clock::now().time_since_epoch())
      .count();
}

std::string describe(const iscsi::SecurityEvent& e) {
  char status[8];
  std::snprintf(status, sizeof status, "%02x%02x", e.status.status_class, e.status.detail);
  std::string line = std::string(iscsi::security_kind_name(e.kind)) + ": login refused (status " +
                     status + "): initiator ";
  line += e.initiator.empty() ? "(no InitiatorName)" : "'" + scsi::loggable(e.initiator) + "'";
  line += " from " + std::string(e.peer);
  line += e.target.empty() ? std::string(", discovery or no target")
                           : ", target '" + scsi::loggable(e.target) + "'";
  line += ": " + scsi::loggable(e.reason);
  return line;
}

namespace {

struct State {
  explicit State(std::uint32_t per_second)
      : limits{scsi::RateLimiter(per_second), scsi::RateLimiter(per_second),
               scsi::RateLimiter(per_second)} {}
  std::mutex mutex;
  std::array<scsi::RateLimiter, iscsi::kSecurityKinds> limits;
};

}  // namespace

iscsi::SecurityLog make_security_log(std::uint32_t lines_per_second, LineSink write, NowNs now) {
  auto state = std::make_shared<State>(lines_per_second);
  return [state, lines_per_second, write = std::move(write),
          now = std::move(now)](const iscsi::SecurityEvent& e) {
    // Under the lock, so that a summary comes right before its line.
    const std::lock_guard lock(state->mutex);
    const scsi::RateLimiter::Verdict v =
        state->limits[static_cast<std::size_t>(e.kind)].admit(now());
    if (v.suppressed > 0) {
      write(std::string(iscsi::security_kind_name(e.kind)) + ": suppressed " +
            std::to_string(v.suppressed) + " messages (more than " +
            std::to_string(lines_per_second) + " refused logins per second)");
    }
    if (v.log) write(describe(e));
  };
}

}  // namespace memstore::daemon
