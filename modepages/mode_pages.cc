// SPDX-License-Identifier: Apache-2.0
#include "modepages/mode_pages.h"

#include <limits>

namespace memstore::modepages {
namespace {

constexpr std::uint8_t bit(int n) {
  return static_cast<std::uint8_t>(1u << n);
}
constexpr std::uint8_t flag(bool on, int n) {
  return on ? bit(n) : std::uint8_t{0};
}

constexpr std::int64_t kTimerUnitNs = 100'000'000;  // condition timers count 100 ms

}  // namespace

Bytes page_frame(std::uint8_t code, std::size_t total) {
  Bytes page(total, 0);
  page[0] = static_cast<std::uint8_t>(code & 0x3F);
  page[1] = static_cast<std::uint8_t>(total - 2);
  return page;
}

// --- Caching (SBC-3, Caching mode page) ---------------------------------------------------

Bytes encode(const CachingPage& page) {
  Bytes out = page_frame(kCachingPageCode, kCachingPageSize);
  out[2] = static_cast<std::uint8_t>(flag(page.wce, 2) | flag(page.rcd, 0));
  return out;
}

CachingPage decode_caching_page(std::span<const std::uint8_t> page) {
  return {.wce = (page[2] & bit(2)) != 0, .rcd = (page[2] & bit(0)) != 0};
}

Bytes caching_changeable(bool wce_changeable) {
  Bytes mask = page_frame(kCachingPageCode, kCachingPageSize);
  mask[2] = flag(wce_changeable, 2);
  return mask;
}

// --- Control (SPC-4, Control mode page) ---------------------------------------------------

Bytes encode(const ControlModePage& page) {
  Bytes out = page_frame(kControlPageCode, kControlPageSize);
  out[2] = static_cast<std::uint8_t>(flag(page.d_sense, 2) | flag(page.gltsd, 1));
  return out;
}

ControlModePage decode_control_mode_page(std::span<const std::uint8_t> page) {
  return {.d_sense = (page[2] & bit(2)) != 0, .gltsd = (page[2] & bit(1)) != 0};
}

Bytes control_mode_changeable() {
  Bytes mask = page_frame(kControlPageCode, kControlPageSize);
  mask[2] = bit(2);  // D_SENSE
  return mask;
}

// --- Power Condition (SPC-4, Power Condition mode page) ------------------------------------------
//   byte 2: PM_BG_PRECEDENCE (7-6), STANDBY_Y (0)
//   byte 3: IDLE_C (3), IDLE_B (2), IDLE_A (1), STANDBY_Z (0)
//   4-7 IDLE_A, 8-11 STANDBY_Z, 12-15 IDLE_B, 16-19 IDLE_C, 20-23 STANDBY_Y
//   condition timers (100 ms units); 24-38 reserved;
//   byte 39: CCF IDLE (7-6), CCF STANDBY (5-4), CCF STOPPED (3-2)

Bytes encode(const PowerConditionPage& page) {
  Bytes out = page_frame(kPowerConditionPageCode, kPowerConditionPageSize);
  out[3] = flag(page.standby_z, 0);
  put_be(out, 8, 4, page.standby_z_timer_100ms);
  out[39] = 0x54;  // CCF IDLE = CCF STANDBY = CCF STOPPED = 01b (disabled)
  return out;
}

PowerConditionPage decode_power_condition_page(std::span<const std::uint8_t> page) {
  return {.standby_z = (page[3] & bit(0)) != 0, .standby_z_timer_100ms = get_be32(page, 8)};
}

Bytes power_condition_changeable(bool changeable) {
  Bytes mask = page_frame(kPowerConditionPageCode, kPowerConditionPageSize);
  if (changeable) {
    mask[3] = bit(0);
    put_be(mask, 8, 4, 0xFFFF'FFFF);
  }
  return mask;
}

PowerConditionPage power_condition_from_idle_timeout(std::int64_t idle_timeout_ns) {
  if (idle_timeout_ns < 0) return {};
  const std::int64_t units = (idle_timeout_ns + kTimerUnitNs - 1) / kTimerUnitNs;
  if (units > std::numeric_limits<std::uint32_t>::max()) return {};
  return {.standby_z = true, .standby_z_timer_100ms = static_cast<std::uint32_t>(units)};
}

std::int64_t idle_timeout_ns_of(const PowerConditionPage& page) {
  if (!page.standby_z) return -1;
  return std::int64_t{page.standby_z_timer_100ms} * kTimerUnitNs;
}

// --- Informational Exceptions Control (SPC-4, Informational Exceptions Control mode page)
// ------------------------
//   byte 2: PERF (7), EBF (5), EWASC (4), DEXCPT (3), TEST (2), EBACKERR (1),
//   LOGERR (0); byte 3: MRIE (3-0); 4-7 INTERVAL TIMER; 8-11 REPORT COUNT

Bytes info_exceptions_page() {
  Bytes out = page_frame(kInfoExceptionsPageCode, kInfoExceptionsPageSize);
  out[2] = bit(3);  // DEXCPT: exception reporting disabled
  return out;
}

Bytes info_exceptions_changeable() {
  return page_frame(kInfoExceptionsPageCode, kInfoExceptionsPageSize);
}

}  // namespace memstore::modepages
