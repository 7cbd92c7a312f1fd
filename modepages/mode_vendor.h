// SPDX-License-Identifier: Apache-2.0
// The vendor mode pages of a MEMStore (vendor-specific page codes 20h-3Eh of
// SBC-3's mode page code table): geometry 20h, physics 21h and
// control 22h (docs/vendor-interface.md, "Pages"). All big-endian, page_0
// format, PS = 0. 20h and 21h are read-only; 22h is changeable.
//
// Decoders accept a page whose length is larger than this version's
// (fields appended later keep the format version), read the fields they
// know and ignore the rest. A different format version is an incompatible
// layout and is rejected.
#pragma once

#include <cstdint>
#include <optional>
#include <span>
#include <string>
#include <string_view>
#include <vector>

#include "model/params.h"
#include "modepages/bytes.h"
#include "modepages/field_error.h"

namespace memstore::modepages {

inline constexpr std::uint16_t kVendorPageVersion = 1;

// --- 20h: virtual geometry (thesis §6.3.1, Table 6.1) ------------------------
inline constexpr std::uint8_t kGeometryPageCode = 0x20;
inline constexpr std::size_t kGeometryPageSize = 60;
// Failed virtual tips (docs/faults.md, "Geometry-aware faults"): appended
// after the version-1 fields only when the device has one, so a healthy
// device's page is unchanged. Bytes 60-61 count, 62-63 reserved, then 8
// bytes per tip. A page_0 page holds at most 255 bytes after its length
// byte, hence the cap.
inline constexpr std::size_t kFailedTipsHeader = 4;
inline constexpr std::size_t kFailedTipSize = 8;
inline constexpr std::size_t kMaxFailedTips = 24;

struct FailedTip {
  std::uint8_t sled = 0;
  bool spared = false;    // its blocks are served from a spare, one extra access
  std::uint32_t tip = 0;  // virtual tip (square), 0..N-1
  friend bool operator==(const FailedTip&, const FailedTip&) = default;
};

struct GeometryPage {
  bool bidirectional = false;      // byte 4 bit 0
  bool conflict_relation = false;  // byte 4 bit 1: conflict_group > 0
  std::uint8_t sleds = 1;
  std::uint32_t p = 0, n = 0, sx = 0, sy = 0, m = 0;
  std::uint32_t nx = 0, ny = 0, st = 0, sc = 0;
  std::uint64_t blocks_per_sled = 0;
  std::uint32_t conflict_group = 0;  // G
  std::uint16_t max_batch_descriptors = 0;
  std::uint32_t max_batch_blocks = 0;
  std::vector<FailedTip> failed_tips;  // at most kMaxFailedTips
  friend bool operator==(const GeometryPage&, const GeometryPage&) = default;
};

// Values from model::Geometry; a value beyond its field saturates.
// REQUIRES: model::validate(params) is empty.
GeometryPage geometry_page_from(const model::DeviceParams& params);
Bytes encode(const GeometryPage& page);
std::optional<GeometryPage> decode_geometry_page(std::span<const std::uint8_t> page);

// --- 21h: physics, timing and power (thesis §2.2-2.3, §3.1; paper §3.1) ------
inline constexpr std::uint8_t kPhysicsPageCode = 0x21;
inline constexpr std::size_t kPhysicsPageSize = 100;
inline constexpr std::uint32_t kNeverIdleTimeout = 0xFFFF'FFFF;

struct PhysicsPage {
  bool bidirectional = false;                   // byte 4 bit 0
  bool min_turnaround_cylinder_switch = false;  // byte 4 bit 1
  std::uint16_t servo_bits_per_sector = 0;
  std::uint16_t data_bits_per_sector = 0;
  std::uint32_t bit_width_pm = 0;
  std::uint32_t region_bits_x = 0, region_bits_y = 0;
  std::uint32_t tips = 0, active_tips = 0, tips_per_block = 0;
  std::uint32_t sled_accel_um_s2 = 0;
  std::uint32_t per_tip_rate_bit_s = 0;
  std::uint32_t access_velocity_um_s = 0;
  std::uint32_t spring_factor_micro = 0;  // x 1e6
  std::uint32_t resonant_frequency_mhz = 0;
  std::uint32_t settle_time_constants_micro = 0;  // x 1e6
  std::uint32_t row_ns = 0;                       // one tip-sector row (servo + data bits)
  std::uint32_t settle_ns = 0;                    // Eq. 3.5
  std::uint32_t turnaround_centre_ns = 0;         // Eq. 3.6 at the rest position
  std::uint32_t tip_active_uw = 0, sled_motion_uw = 0, inactive_uw = 0;
  std::uint32_t startup_ns = 0;
  std::uint32_t idle_timeout_ms = 0;  // kNeverIdleTimeout = never spin down
  std::uint32_t startup_nj = 0;       // energy of one startup
  std::uint32_t idle_tips = 0;        // tips active while IDLE
  friend bool operator==(const PhysicsPage&, const PhysicsPage&) = default;
};

// Scaled values round to nearest and saturate at their field's range.
// REQUIRES: model::validate(params) is empty.
PhysicsPage physics_page_from(const model::DeviceParams& params);
Bytes encode(const PhysicsPage& page);
std::optional<PhysicsPage> decode_physics_page(std::span<const std::uint8_t> page);

// --- 22h: control (changeable) -----------------------------------------------
inline constexpr std::uint8_t kControlVendorPageCode = 0x22;
inline constexpr std::size_t kControlVendorPageSize = 16;

// How transports deliver completions (docs/memstored.md "Timing").
enum class TimingMode : std::uint8_t { kRealtime = 0, kScaled = 1, kOff = 2 };

// The scale factor's bounds, x 1000: from 0.001 (the field's resolution; the
// model's clock then runs 1000 times faster than the wall) to 1000 (a 1 ms
// access takes 1 s; beyond that an initiator's own command timeout, 30 s
// for Linux sd and for LIO's TCMU cmd_time_out, fires on a queue of a few
// dozen commands, so a larger factor serves no initiator). The same bounds
// hold for memstored's `scale` and the TCMU handler's (scsi::kMinScale,
// scsi::kMaxScale).
inline constexpr std::uint32_t kMinScaleMilli = 1;
inline constexpr std::uint32_t kMaxScaleMilli = 1'000'000;

struct ControlPage {
  std::uint8_t scheduler = 0;  // index into model::scheduler_names()
  TimingMode timing = TimingMode::kRealtime;
  // Scaled mode delivers at (scale_milli / 1000) x the modeled time.
  // kMinScaleMilli to kMaxScaleMilli.
  std::uint32_t scale_milli = 1000;
  // Byte 6, once reserved: the second paper's power strategies (§5.2.2,
  // §5.2.3), model::PowerParams::merge_requests (bit 0) and subsector (bit 1).
  bool merge_requests = false;
  bool subsector = false;
  friend bool operator==(const ControlPage&, const ControlPage&) = default;
};

// The scheduler's index in model::scheduler_names(), and back.
std::optional<std::uint8_t> scheduler_index(std::string_view name);
std::optional<std::string> scheduler_name(std::uint8_t index);

Bytes encode(const ControlPage& page);
// Decodes and validates; a FieldError (kInvalidFieldInParamList) names the
// offending field as `at` + its byte offset in the page. A page too short
// for this version is a kParamListLengthError at `at`.
Expected<ControlPage, FieldError> decode_control_page(std::span<const std::uint8_t> page,
                                                      std::uint16_t at = 0);
// Scheduler, timing mode, the power strategy bits and scale factor.
Bytes control_page_changeable();

}  // namespace memstore::modepages
