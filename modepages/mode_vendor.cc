// SPDX-License-Identifier: Apache-2.0
#include "modepages/mode_vendor.h"

#include <algorithm>
#include <cmath>
#include <limits>
#include <numbers>
#include <type_traits>

#include "model/axis.h"
#include "model/geometry.h"
#include "model/scheduler.h"
#include "model/seek_piecewise.h"
#include "modepages/mode_pages.h"

namespace memstore::modepages {
namespace {

// An integer into an unsigned field of type T, clamped to its range.
template <typename T>
T saturate(std::int64_t v) {
  if (v < 0) return 0;
  if (static_cast<std::uint64_t>(v) > std::numeric_limits<T>::max()) {
    return std::numeric_limits<T>::max();
  }
  return static_cast<T>(v);
}

// v x scale, rounded to nearest, clamped to [0, 2^32 - 1] (NaN gives 0).
std::uint32_t scaled(double v, double scale) {
  const double x = v * scale;
  if (!(x >= 0)) return 0;
  if (x >= 4294967295.0) return std::numeric_limits<std::uint32_t>::max();
  return static_cast<std::uint32_t>(std::llround(x));
}

// Each page's layout is written once, as a list of (byte offset, member)
// pairs; the field width is the member's size. Encoders and decoders walk it.
template <typename Page, typename F>
void geometry_fields(Page& g, F&& f) {
  f(5, g.sleds);
  f(6, g.p), f(10, g.n), f(14, g.sx), f(18, g.sy), f(22, g.m);
  f(26, g.nx), f(30, g.ny), f(34, g.st), f(38, g.sc);
  f(42, g.blocks_per_sled);
  f(50, g.conflict_group);
  f(54, g.max_batch_descriptors);
  f(56, g.max_batch_blocks);
}

template <typename Page, typename F>
void physics_fields(Page& h, F&& f) {
  f(6, h.servo_bits_per_sector), f(8, h.data_bits_per_sector);
  f(12, h.bit_width_pm), f(16, h.region_bits_x), f(20, h.region_bits_y);
  f(24, h.tips), f(28, h.active_tips), f(32, h.tips_per_block);
  f(36, h.sled_accel_um_s2), f(40, h.per_tip_rate_bit_s), f(44, h.access_velocity_um_s);
  f(48, h.spring_factor_micro), f(52, h.resonant_frequency_mhz);
  f(56, h.settle_time_constants_micro);
  f(60, h.row_ns), f(64, h.settle_ns), f(68, h.turnaround_centre_ns);
  f(72, h.tip_active_uw), f(76, h.sled_motion_uw), f(80, h.inactive_uw);
  f(84, h.startup_ns), f(88, h.idle_timeout_ms), f(92, h.startup_nj), f(96, h.idle_tips);
}

// Frame, format version and flags byte (bit 0, bit 1), then the fields.
template <typename Page, typename Fields>
Bytes encode_vendor(std::uint8_t code, std::size_t size, const Page& page, bool flag0, bool flag1,
                    Fields fields) {
  Bytes out = page_frame(code, size);
  put_be(out, 2, 2, kVendorPageVersion);
  out[4] = static_cast<std::uint8_t>((flag0 ? 1 : 0) | (flag1 ? 2 : 0));
  fields(page, [&out](std::size_t at, const auto& v) { put_be(out, at, sizeof(v), v); });
  return out;
}

// Page code (SPF = 0), a page length of at least this version's, the bytes it
// announces, and format version 1.
bool vendor_header_ok(std::span<const std::uint8_t> b, std::uint8_t code, std::size_t size) {
  if (b.size() < size || (b[0] & 0x7F) != code) return false;
  const std::size_t length = b[1];
  return length + 2 >= size && b.size() >= length + 2 && get_be16(b, 2) == kVendorPageVersion;
}

template <typename Page, typename Fields>
Page decode_fields(std::span<const std::uint8_t> b, Fields fields) {
  Page page;
  fields(page, [b](std::size_t at, auto& v) {
    v = static_cast<std::remove_cvref_t<decltype(v)>>(get_be(b, at, sizeof(v)));
  });
  return page;
}

FieldError bad_field(std::uint16_t at, std::int8_t bit, std::string what) {
  return {FieldError::Kind::kInvalidFieldInParamList, at, bit, std::move(what)};
}

}  // namespace

// --- 20h ----------------------------------------------------------------------

GeometryPage geometry_page_from(const model::DeviceParams& params) {
  const model::Geometry g(params);
  GeometryPage page;
  page.bidirectional = params.bidirectional;
  page.conflict_relation = g.conflict_group() > 0;
  page.sleds = saturate<std::uint8_t>(g.sleds());
  page.p = saturate<std::uint32_t>(g.p());
  page.n = saturate<std::uint32_t>(g.n());
  page.sx = saturate<std::uint32_t>(g.sx());
  page.sy = saturate<std::uint32_t>(g.sy());
  page.m = saturate<std::uint32_t>(g.m());
  page.nx = saturate<std::uint32_t>(g.nx());
  page.ny = saturate<std::uint32_t>(g.ny());
  page.st = saturate<std::uint32_t>(g.st());
  page.sc = saturate<std::uint32_t>(g.sc());
  page.blocks_per_sled = saturate<std::uint64_t>(g.blocks_per_sled());
  page.conflict_group = saturate<std::uint32_t>(g.conflict_group());
  page.max_batch_descriptors = saturate<std::uint16_t>(params.max_batch_descriptors);
  page.max_batch_blocks = saturate<std::uint32_t>(params.max_batch_blocks);
  return page;
}

Bytes encode(const GeometryPage& page) {
  Bytes out = encode_vendor(kGeometryPageCode, kGeometryPageSize, page, page.bidirectional,
                            page.conflict_relation,
                            [](const GeometryPage& g, auto&& f) { geometry_fields(g, f); });
  if (page.failed_tips.empty()) return out;
  const std::size_t n = std::min(page.failed_tips.size(), kMaxFailedTips);
  out.resize(kGeometryPageSize + kFailedTipsHeader + n * kFailedTipSize, 0);
  out[1] = static_cast<std::uint8_t>(out.size() - 2);
  put_be(out, kGeometryPageSize, 2, n);
  for (std::size_t i = 0; i < n; ++i) {
    const FailedTip& t = page.failed_tips[i];
    const std::size_t at = kGeometryPageSize + kFailedTipsHeader + i * kFailedTipSize;
    out[at] = t.sled;
    out[at + 1] = t.spared ? 1 : 0;
    put_be(out, at + 4, 4, t.tip);
  }
  return out;
}

std::optional<GeometryPage> decode_geometry_page(std::span<const std::uint8_t> b) {
  if (!vendor_header_ok(b, kGeometryPageCode, kGeometryPageSize)) return std::nullopt;
  auto page =
      decode_fields<GeometryPage>(b, [](GeometryPage& g, auto&& f) { geometry_fields(g, f); });
  page.bidirectional = (b[4] & 1) != 0;
  page.conflict_relation = (b[4] & 2) != 0;
  const std::size_t end = std::size_t{b[1]} + 2;
  if (end >= kGeometryPageSize + kFailedTipsHeader) {
    const std::size_t n = get_be16(b, kGeometryPageSize);
    if (n > kMaxFailedTips || kGeometryPageSize + kFailedTipsHeader + n * kFailedTipSize > end) {
      return std::nullopt;  // a list longer than the page holds
    }
    for (std::size_t i = 0; i < n; ++i) {
      const std::size_t at = kGeometryPageSize + kFailedTipsHeader + i * kFailedTipSize;
      page.failed_tips.push_back(
          {b[at], (b[at + 1] & 1) != 0, static_cast<std::uint32_t>(get_be(b, at + 4, 4))});
    }
  }
  return page;
}

// --- 21h ----------------------------------------------------------------------

PhysicsPage physics_page_from(const model::DeviceParams& p) {
  const double bit_m = p.bit_width_nm * 1e-9;
  const double v_m_s = p.per_tip_rate_bit_s * bit_m;  // thesis §2.3
  const model::Axis y_axis =
      model::Axis::make(p.sled_accel_m_s2, p.spring_factor, p.region_bits_y * bit_m / 2);
  PhysicsPage h;
  h.bidirectional = p.bidirectional;
  h.min_turnaround_cylinder_switch = p.cylinder_switch == model::CylinderSwitch::kMinTurnaround;
  h.servo_bits_per_sector = saturate<std::uint16_t>(p.servo_bits_per_sector);
  h.data_bits_per_sector = saturate<std::uint16_t>(p.data_bits_per_sector);
  h.bit_width_pm = scaled(p.bit_width_nm, 1e3);
  h.region_bits_x = saturate<std::uint32_t>(p.region_bits_x);
  h.region_bits_y = saturate<std::uint32_t>(p.region_bits_y);
  h.tips = saturate<std::uint32_t>(p.tips);
  h.active_tips = saturate<std::uint32_t>(p.active_tips);
  h.tips_per_block = saturate<std::uint32_t>(p.tips_per_block);
  h.sled_accel_um_s2 = scaled(p.sled_accel_m_s2, 1e6);
  h.per_tip_rate_bit_s = scaled(p.per_tip_rate_bit_s, 1);
  h.access_velocity_um_s = scaled(v_m_s, 1e6);
  h.spring_factor_micro = scaled(p.spring_factor, 1e6);
  h.resonant_frequency_mhz = scaled(p.resonant_frequency_hz, 1e3);
  h.settle_time_constants_micro = scaled(p.settle_time_constants, 1e6);
  const double row_s = (p.servo_bits_per_sector + p.data_bits_per_sector) / p.per_tip_rate_bit_s;
  h.row_ns = scaled(row_s, 1e9);
  // Eq. 3.5: settle = time constants / (2 pi f).
  h.settle_ns =
      scaled(p.settle_time_constants / (2 * std::numbers::pi * p.resonant_frequency_hz), 1e9);
  // Eq. 3.6 at the centre, where the spring neither helps nor hurts.
  h.turnaround_centre_ns = scaled(model::turnaround_s(y_axis, 0.0, v_m_s), 1e9);
  h.tip_active_uw = scaled(p.power.tip_active_w, 1e6);
  h.sled_motion_uw = scaled(p.power.sled_motion_w, 1e6);
  h.inactive_uw = scaled(p.power.inactive_w, 1e6);
  h.startup_ns = saturate<std::uint32_t>(p.power.startup_ns);
  // Rounded up to whole ms (never spin down earlier than configured); a
  // timeout beyond the field's range reads as "never".
  h.idle_timeout_ms =
      p.power.idle_timeout_ns < 0
          ? kNeverIdleTimeout
          : saturate<std::uint32_t>((p.power.idle_timeout_ns + 999'999) / 1'000'000);
  h.startup_nj = scaled(p.power.startup_j, 1e9);
  h.idle_tips = saturate<std::uint32_t>(p.power.idle_tips);
  return h;
}

Bytes encode(const PhysicsPage& page) {
  return encode_vendor(kPhysicsPageCode, kPhysicsPageSize, page, page.bidirectional,
                       page.min_turnaround_cylinder_switch,
                       [](const PhysicsPage& h, auto&& f) { physics_fields(h, f); });
}

std::optional<PhysicsPage> decode_physics_page(std::span<const std::uint8_t> b) {
  if (!vendor_header_ok(b, kPhysicsPageCode, kPhysicsPageSize)) return std::nullopt;
  auto page = decode_fields<PhysicsPage>(b, [](PhysicsPage& h, auto&& f) { physics_fields(h, f); });
  page.bidirectional = (b[4] & 1) != 0;
  page.min_turnaround_cylinder_switch = (b[4] & 2) != 0;
  return page;
}

// --- 22h ----------------------------------------------------------------------
//   2-3 version, 4 scheduler index, 5 timing mode, 6-7 reserved,
//   8-11 scale factor (x 1000), 12-15 reserved

std::optional<std::uint8_t> scheduler_index(std::string_view name) {
  const std::vector<std::string> names = model::scheduler_names();
  for (std::size_t i = 0; i < names.size() && i <= 0xFF; ++i) {
    if (names[i] == name) return static_cast<std::uint8_t>(i);
  }
  return std::nullopt;
}

std::optional<std::string> scheduler_name(std::uint8_t index) {
  std::vector<std::string> names = model::scheduler_names();
  if (index >= names.size()) return std::nullopt;
  return std::move(names[index]);
}

namespace {
// Page 22h byte 6 (docs/vendor-interface.md).
constexpr std::uint8_t kMergeBit = 0x01;
constexpr std::uint8_t kSubsectorBit = 0x02;
}  // namespace

Bytes encode(const ControlPage& page) {
  Bytes out = page_frame(kControlVendorPageCode, kControlVendorPageSize);
  put_be(out, 2, 2, kVendorPageVersion);
  out[4] = page.scheduler;
  out[5] = static_cast<std::uint8_t>(page.timing);
  out[6] = static_cast<std::uint8_t>((page.merge_requests ? kMergeBit : 0) |
                                     (page.subsector ? kSubsectorBit : 0));
  put_be(out, 8, 4, page.scale_milli);
  return out;
}

Expected<ControlPage, FieldError> decode_control_page(std::span<const std::uint8_t> b,
                                                      std::uint16_t at) {
  const auto off = [at](int i) { return static_cast<std::uint16_t>(at + i); };
  if (b.size() < kControlVendorPageSize) {
    return FieldError{FieldError::Kind::kParamListLengthError, at, -1, "control page truncated"};
  }
  if ((b[0] & 0x7F) != kControlVendorPageCode) return bad_field(at, 5, "not page 22h");
  if (b[1] + 2u < kControlVendorPageSize) return bad_field(off(1), -1, "page length");
  if (get_be16(b, 2) != kVendorPageVersion) return bad_field(off(2), -1, "format version");
  ControlPage page;
  page.scheduler = b[4];
  if (!scheduler_name(page.scheduler)) return bad_field(off(4), -1, "unknown scheduler");
  if (b[5] > static_cast<std::uint8_t>(TimingMode::kOff)) {
    return bad_field(off(5), -1, "unknown timing mode");
  }
  page.timing = static_cast<TimingMode>(b[5]);
  if ((b[6] & ~(kMergeBit | kSubsectorBit)) != 0) {
    return bad_field(off(6), -1, "reserved power strategy bits set");
  }
  page.merge_requests = (b[6] & kMergeBit) != 0;
  page.subsector = (b[6] & kSubsectorBit) != 0;
  page.scale_milli = get_be32(b, 8);
  if (page.scale_milli < kMinScaleMilli || page.scale_milli > kMaxScaleMilli) {
    return bad_field(off(8), -1, "scale factor outside 1 to 1000000 (x 1000)");
  }
  return page;
}

Bytes control_page_changeable() {
  Bytes mask = page_frame(kControlVendorPageCode, kControlVendorPageSize);
  mask[4] = 0xFF;
  mask[5] = 0xFF;
  mask[6] = kMergeBit | kSubsectorBit;
  put_be(mask, 8, 4, 0xFFFF'FFFF);
  return mask;
}

}  // namespace memstore::modepages
