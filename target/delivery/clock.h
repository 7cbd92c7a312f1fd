// SPDX-License-Identifier: Apache-2.0
// The wall clock the delivery engine reads, injectable so that its tests are
// exact: a fake clock says what "now" is, and every instant, lateness and
// arrival the engine computes follows from it.
#pragma once

#include <chrono>
#include <cstdint>

namespace memstore::delivery {

// Nanoseconds on a monotonic wall clock; the real one is CLOCK_MONOTONIC
// (std::chrono::steady_clock on Linux), so an Asio steady_timer can wait for
// an instant given in it.
using WallNs = std::int64_t;

class Clock {
 public:
  virtual ~Clock() = default;
  virtual WallNs now() const = 0;
};

class SteadyClock final : public Clock {
 public:
  WallNs now() const override {
    return std::chrono::duration_cast<std::chrono::nanoseconds>(
               std::chrono::steady_clock::now().time_since_epoch())
        .count();
  }
  // The steady_clock instant of `t`, for timers.
  static std::chrono::steady_clock::time_point at(WallNs t) {
    return std::chrono::steady_clock::time_point(
        std::chrono::duration_cast<std::chrono::steady_clock::duration>(
            std::chrono::nanoseconds(t)));
  }
};

}  // namespace memstore::delivery
