// SPDX-License-Identifier: Apache-2.0
// How a transport delivers completions relative to the model (docs/memstored.md,
// "Timing"): at the modeled time (realtime), at k times it (scaled), or
// as soon as possible while the model still accounts (off).
#pragma once

#include <cstdint>
#include <optional>
#include <string_view>

#include "modepages/mode_vendor.h"

namespace memstore::scsi {

// One enum for the config, the control mode page (22h) and the transports.
using modepages::TimingMode;

// Scale factors memstored's configuration, the TCMU handler's and MODE
// SELECT of page 22h accept (why these: mode_vendor.h, kMaxScaleMilli).
inline constexpr double kMinScale = modepages::kMinScaleMilli / 1000.0;
inline constexpr double kMaxScale = modepages::kMaxScaleMilli / 1000.0;
// False for NaN and the infinities too.
constexpr bool scale_in_range(double scale) {
  return scale >= kMinScale && scale <= kMaxScale;
}

struct Timing {
  TimingMode mode = TimingMode::kRealtime;
  double scale = 1.0;  // scaled: wall-clock delay = scale * modeled delay

  // Wall-clock delay after arrival at which a completion modeled `modeled_ns`
  // after arrival is delivered.
  std::int64_t delay_ns(std::int64_t modeled_ns) const {
    switch (mode) {
      case TimingMode::kRealtime:
        return modeled_ns;
      case TimingMode::kScaled:
        return static_cast<std::int64_t>(static_cast<double>(modeled_ns) * scale);
      case TimingMode::kOff:
        return 0;
    }
    return modeled_ns;
  }
};

std::optional<TimingMode> parse_timing_mode(std::string_view s);  // realtime | scaled | off
const char* timing_mode_name(TimingMode m);

}  // namespace memstore::scsi
