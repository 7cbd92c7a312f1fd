// SPDX-License-Identifier: Apache-2.0
// The standard mode pages of a direct-access device (SPC-4 and SBC-3,
// "Mode parameters"): Caching (08h), Control (0Ah), Power Condition (1Ah) and
// Informational Exceptions Control (1Ch). Each page has a typed value, an
// encoder to its full page_0 image (PS = 0, SPF = 0: nothing is savable) and
// a changeable mask in the same layout, header included, as MODE SENSE with
// PC = 01b returns it (SPC-4, MODE SENSE page control). Decoders take a whole page.
#pragma once

#include <cstdint>
#include <span>

#include "modepages/bytes.h"

namespace memstore::modepages {

// A zeroed page_0 image of `total` bytes: byte 0 = code (PS = 0, SPF = 0),
// byte 1 = total - 2 (SPC-4, mode page format). REQUIRES: 2 <= total <= 257.
Bytes page_frame(std::uint8_t code, std::size_t total);

// Caching mode page 08h, 20 bytes (SBC-3, Caching mode page). RCD is 1 by default: the
// model has no read cache, every read is serviced by the media. Every other
// field (retention priorities, prefetch, segments) is 0.
inline constexpr std::uint8_t kCachingPageCode = 0x08;
inline constexpr std::size_t kCachingPageSize = 20;
struct CachingPage {
  bool wce = false;  // byte 2 bit 2: write cache enable
  bool rcd = true;   // byte 2 bit 0: read cache disable
  friend bool operator==(const CachingPage&, const CachingPage&) = default;
};
Bytes encode(const CachingPage& page);
// REQUIRES: page.size() >= kCachingPageSize.
CachingPage decode_caching_page(std::span<const std::uint8_t> page);
// WCE is changeable only when the LUN allows the host to switch it.
Bytes caching_changeable(bool wce_changeable);

// Control mode page 0Ah, 12 bytes (SPC-4, Control mode page). TST = 0 (one task set),
// QUEUE ALGORITHM MODIFIER = 0 (the device reorders, keeping data integrity),
// QERR = 0, no SWP/ATO/TAS, busy timeout period and extended self-test time
// 0. GLTSD = 1: log parameters are never saved. Only D_SENSE is changeable.
inline constexpr std::uint8_t kControlPageCode = 0x0A;
inline constexpr std::size_t kControlPageSize = 12;
struct ControlModePage {
  bool d_sense = false;  // byte 2 bit 2: descriptor-format sense data
  bool gltsd = true;     // byte 2 bit 1: global logging target save disable
  friend bool operator==(const ControlModePage&, const ControlModePage&) = default;
};
Bytes encode(const ControlModePage& page);
// REQUIRES: page.size() >= kControlPageSize.
ControlModePage decode_control_mode_page(std::span<const std::uint8_t> page);
Bytes control_mode_changeable();

// Power Condition mode page 1Ah, 40 bytes (SPC-4, Power Condition mode page). The device has one
// low-power state, INACTIVE (sled stopped), reported as standby_z; its timer
// is the device's idle timeout in 100 ms units. Idle_a/b/c and standby_y are
// not supported (0). CCF IDLE/STANDBY/STOPPED = 01b: leaving a power
// condition never raises CHECK CONDITION (the startup cost is only time).
inline constexpr std::uint8_t kPowerConditionPageCode = 0x1A;
inline constexpr std::size_t kPowerConditionPageSize = 40;
struct PowerConditionPage {
  bool standby_z = false;                   // byte 3 bit 0
  std::uint32_t standby_z_timer_100ms = 0;  // bytes 8-11
  friend bool operator==(const PowerConditionPage&, const PowerConditionPage&) = default;
};
Bytes encode(const PowerConditionPage& page);
// REQUIRES: page.size() >= kPowerConditionPageSize.
PowerConditionPage decode_power_condition_page(std::span<const std::uint8_t> page);
// STANDBY_Z and its timer are changeable when the LUN allows it.
Bytes power_condition_changeable(bool changeable);

// Idle timeout (model::PowerParams::idle_timeout_ns: -1 never, 0 at once)
// <-> page 1Ah. A timeout that is not a multiple of 100 ms rounds up, so the
// device never spins down earlier than configured; above the timer's range
// the page says "never".
PowerConditionPage power_condition_from_idle_timeout(std::int64_t idle_timeout_ns);
std::int64_t idle_timeout_ns_of(const PowerConditionPage& page);

// Informational Exceptions Control mode page 1Ch, 12 bytes (SPC-4, Informational Exceptions Control
// mode page). The device predicts no failures: DEXCPT = 1, MRIE = 0, timers 0, and nothing is
// changeable (a host enabling exceptions gets INVALID FIELD IN PARAMETER LIST rather than a promise
// the device cannot keep).
inline constexpr std::uint8_t kInfoExceptionsPageCode = 0x1C;
inline constexpr std::size_t kInfoExceptionsPageSize = 12;
Bytes info_exceptions_page();
Bytes info_exceptions_changeable();

}  // namespace memstore::modepages
