// SPDX-License-Identifier: Apache-2.0
#include "modepages/mode_sense.h"

#include <algorithm>
#include <bit>
#include <tuple>

#include "model/geometry.h"
#include "modepages/mode_disk.h"
#include "modepages/mode_pages.h"

namespace memstore::modepages {
namespace {

using Kind = FieldError::Kind;

FieldError error(Kind kind, std::size_t byte, int bit, std::string what) {
  return {kind, static_cast<std::uint16_t>(byte), static_cast<std::int8_t>(bit), std::move(what)};
}

// page_0 pages have a 2-byte header, sub_page pages (SPF = 1) a 4-byte one
// (SPC-4, mode page format).
std::size_t header_size(std::span<const std::uint8_t> page) {
  return (page[0] & 0x40) != 0 ? 4 : 2;
}

FieldStatus check_control_page(std::span<const std::uint8_t> page, std::uint16_t at) {
  auto decoded = decode_control_page(page, at);
  if (!decoded.ok()) return std::move(decoded.error());
  return {};
}

ModePage row(std::uint8_t code, Bytes defaults, Bytes changeable, PageCheck check = nullptr,
             bool control = false) {
  Bytes current = defaults;
  return {code, 0, std::move(defaults), std::move(changeable), std::move(current), check, control};
}

// Mode parameter block descriptors (SBC-3, mode parameter block descriptors): short (8 bytes,
// number of blocks saturating at FFFFFFFFh, 24-bit block length) or long (16 bytes).
constexpr std::size_t kShortDescriptor = 8;
constexpr std::size_t kLongDescriptor = 16;
std::uint64_t short_blocks(std::uint64_t blocks) {
  return std::min<std::uint64_t>(blocks, 0xFFFF'FFFF);
}

void append_block_descriptor(Bytes& out, bool long_lba, std::uint64_t blocks,
                             std::uint32_t block_size) {
  if (long_lba) {
    append_be(out, 8, blocks);
    append_be(out, 4, 0);  // reserved
    append_be(out, 4, block_size);
  } else {
    append_be(out, 4, short_blocks(blocks));
    append_be(out, 1, 0);  // reserved (density code)
    append_be(out, 3, block_size);
  }
}

}  // namespace

bool ModePage::read_only() const {
  const auto body = std::span(changeable).subspan(header_size(changeable));
  return std::all_of(body.begin(), body.end(), [](std::uint8_t b) { return b == 0; });
}

ModeState::ModeState(const model::DeviceParams& params, const ModeOptions& options)
    : blocks_(static_cast<std::uint64_t>(model::Geometry(params).blocks())),
      block_size_(static_cast<std::uint32_t>(params.block_bytes)),
      configured_idle_timeout_ns_(params.power.idle_timeout_ns),
      geometry_(geometry_page_from(params)) {
  // The MEMStore's own pages; the model has no read cache.
  std::vector<ModePage> own;
  // 1Ah's standby timer is when the sled spins down, after which the next
  // command of any initiator pays the startup time: a control page too.
  own.push_back(row(kPowerConditionPageCode,
                    encode(power_condition_from_idle_timeout(params.power.idle_timeout_ns)),
                    power_condition_changeable(options.power_changeable), nullptr, true));
  own.push_back(
      row(kGeometryPageCode, encode(geometry_), page_frame(kGeometryPageCode, kGeometryPageSize)));
  own.push_back(row(kPhysicsPageCode, encode(physics_page_from(params)),
                    page_frame(kPhysicsPageCode, kPhysicsPageSize)));
  set_pages(options, false, std::move(own));
}

ModeState::ModeState(const model::ZonedDiskParams& disk, std::uint64_t blocks,
                     const ModeOptions& options)
    : blocks_(blocks),
      block_size_(static_cast<std::uint32_t>(disk.block_bytes)),
      configured_idle_timeout_ns_(-1) {
  std::vector<ModePage> own;
  own.push_back(row(kFormatDevicePageCode, encode(format_device_page_from(disk)),
                    page_frame(kFormatDevicePageCode, kFormatDevicePageSize)));
  own.push_back(row(kRigidDiskPageCode, encode(rigid_disk_page_from(disk)),
                    page_frame(kRigidDiskPageCode, kRigidDiskPageSize)));
  set_pages(options, disk.cache.segments > 0, std::move(own));
}

void ModeState::set_pages(const ModeOptions& options, bool read_cache, std::vector<ModePage> own) {
  const ControlPage control =
      check_control_page(encode(options.control), 0).ok() ? options.control : ControlPage{};
  // The pages every LUN has (SBC-3 and SPC-4 mode page code tables).
  pages_ = {
      row(kCachingPageCode, encode(CachingPage{.wce = options.write_cache, .rcd = !read_cache}),
          caching_changeable(options.write_cache_changeable)),
      row(kControlPageCode, encode(ControlModePage{}), control_mode_changeable()),
      row(kInfoExceptionsPageCode, info_exceptions_page(), info_exceptions_changeable()),
      // 22h sets the scheduler, timing mode and scale of the whole LUN: a control page.
      row(kControlVendorPageCode, encode(control), control_page_changeable(), check_control_page,
          true),
  };
  for (ModePage& p : own) pages_.push_back(std::move(p));
  std::sort(pages_.begin(), pages_.end(), [](const ModePage& a, const ModePage& b) {
    return std::tie(a.code, a.subpage) < std::tie(b.code, b.subpage);
  });
}

void ModeState::set_failed_tips(std::vector<FailedTip> tips) {
  if (tips.size() > kMaxFailedTips) tips.resize(kMaxFailedTips);
  geometry_.failed_tips = std::move(tips);
  for (ModePage& p : pages_) {
    if (p.code != kGeometryPageCode) continue;
    p.defaults = encode(geometry_);
    p.current = p.defaults;
    p.changeable = page_frame(kGeometryPageCode, p.defaults.size());
  }
}

const ModePage* ModeState::find(std::uint8_t code, std::uint8_t subpage) const {
  for (const ModePage& p : pages_) {
    if (p.code == code && p.subpage == subpage) return &p;
  }
  return nullptr;
}

std::vector<std::pair<std::uint8_t, std::uint8_t>> ModeState::supported_pages() const {
  std::vector<std::pair<std::uint8_t, std::uint8_t>> out;
  for (const ModePage& p : pages_) out.emplace_back(p.code, p.subpage);
  return out;
}

const Bytes& ModeState::current(std::uint8_t code) const {
  return find(code, 0)->current;
}

bool ModeState::wce() const {
  return decode_caching_page(current(kCachingPageCode)).wce;
}
bool ModeState::d_sense() const {
  return decode_control_mode_page(current(kControlPageCode)).d_sense;
}

std::int64_t ModeState::idle_timeout_ns() const {
  const ModePage* p = find(kPowerConditionPageCode, 0);
  if (p == nullptr || p->current == p->defaults) return configured_idle_timeout_ns_;
  return idle_timeout_ns_of(decode_power_condition_page(p->current));
}

ControlPage ModeState::control() const {
  const auto decoded = decode_control_page(current(kControlVendorPageCode));
  return decoded.ok() ? *decoded : ControlPage{};
}

// SPC-4 MODE SENSE(6), MODE SENSE(10); mode parameter header formats.
Expected<Bytes, FieldError> mode_sense(const ModeState& state, const ModeSenseRequest& req) {
  const bool known_code = std::any_of(state.pages().begin(), state.pages().end(),
                                      [&](const ModePage& p) { return p.code == req.page; });
  if (req.page != kAllPages && !known_code) {
    return error(Kind::kInvalidFieldInCdb, 2, 5, "unsupported mode page");
  }
  if (req.subpage != kAllSubpages && req.subpage != 0 &&
      (req.page == kAllPages || state.find(req.page, req.subpage) == nullptr)) {
    return error(Kind::kInvalidFieldInCdb, 3, -1, "unsupported mode subpage");
  }
  if (req.pc == PageControl::kSaved) {
    return error(Kind::kSavingNotSupported, 2, 7, "saved values not supported");
  }

  const bool long_lba = req.ten && req.llbaa;
  const std::size_t descriptor = req.dbd ? 0 : long_lba ? kLongDescriptor : kShortDescriptor;
  Bytes out(req.ten ? 8 : 4, 0);
  const auto device_specific = static_cast<std::uint8_t>(
      (req.write_protected ? 0x80 : 0) | 0x10);  // SBC-3 device-specific parameter: WP, DPOFUA
  if (req.ten) {
    out[3] = device_specific;
    out[4] = long_lba ? 1 : 0;  // LONGLBA
    put_be(out, 6, 2, descriptor);
  } else {
    out[2] = device_specific;
    out[3] = static_cast<std::uint8_t>(descriptor);
  }
  if (descriptor != 0) append_block_descriptor(out, long_lba, req.blocks, req.block_size);

  // The whole response must be transferable: MODE SENSE(6)'s ALLOCATION
  // LENGTH is one byte (at most 255 bytes), MODE SENSE(10)'s two. Hosts
  // (libiscsi, Linux sd) refuse a response whose MODE DATA LENGTH claims more
  // than they received.
  const std::size_t limit = req.ten ? 0xFFFF : 0xFF;
  for (const ModePage& p : state.pages()) {
    if (req.page != kAllPages && p.code != req.page) continue;
    if (req.subpage != kAllSubpages && p.subpage != req.subpage) continue;
    const Bytes& image = req.pc == PageControl::kChangeable ? p.changeable
                         : req.pc == PageControl::kDefault  ? p.defaults
                                                            : p.current;
    if (out.size() + image.size() > limit) break;
    out.insert(out.end(), image.begin(), image.end());
  }
  if (req.ten) {
    put_be(out, 0, 2, out.size() - 2);
  } else {
    out[0] = static_cast<std::uint8_t>(out.size() - 1);
  }
  return out;
}

// SPC-4 MODE SELECT(6), MODE SELECT(10); mode parameters.
FieldStatus mode_select(ModeState& state, bool ten, bool pf, bool sp,
                        std::span<const std::uint8_t> list, bool may_change_control) {
  if (sp) return error(Kind::kInvalidFieldInCdb, 1, 0, "saving pages not supported");
  if (!pf) return error(Kind::kInvalidFieldInCdb, 1, 4, "vendor-specific page format");
  if (list.empty()) return {};

  // Mode parameter header (SPC-4, mode parameter header formats). MODE DATA LENGTH is reserved here
  // and the device-specific parameter (WP, DPOFUA) is ignored (SBC-3, device-specific parameter).
  const std::size_t header = ten ? 8 : 4;
  if (list.size() < header) {
    return error(Kind::kParamListLengthError, 0, -1, "truncated mode parameter header");
  }
  const std::size_t medium_at = ten ? 2 : 1;
  if (list[medium_at] != 0) {
    return error(Kind::kInvalidFieldInParamList, medium_at, -1, "medium type not 0");
  }
  const bool long_lba = ten && (list[4] & 1) != 0;
  const std::size_t bdl_at = ten ? 6 : 3;
  const std::size_t bdl = ten ? get_be16(list, 6) : list[3];
  if (bdl != 0 && bdl != (long_lba ? kLongDescriptor : kShortDescriptor)) {
    return error(Kind::kInvalidFieldInParamList, bdl_at, -1, "block descriptor length");
  }
  if (list.size() < header + bdl) {
    return error(Kind::kParamListLengthError, header, -1, "truncated block descriptor");
  }
  if (bdl != 0) {
    const std::uint64_t blocks = long_lba ? get_be64(list, header) : get_be32(list, header);
    const std::uint64_t capacity = long_lba ? state.blocks() : short_blocks(state.blocks());
    if (blocks != 0 && blocks != capacity) {
      return error(Kind::kInvalidFieldInParamList, header, -1, "number of logical blocks");
    }
    const std::size_t length_at = header + (long_lba ? 12 : 5);
    if (get_be(list, length_at, long_lba ? 4 : 3) != state.block_size()) {
      return error(Kind::kInvalidFieldInParamList, length_at, -1, "logical block length");
    }
  }

  // Pages, into a copy of the current values; committed only if all pass.
  std::vector<Bytes> staged;
  for (const ModePage& p : state.pages_) staged.push_back(p.current);
  for (std::size_t at = header + bdl; at < list.size();) {
    const auto rest = list.subspan(at);
    const bool spf = (rest[0] & 0x40) != 0;
    if (rest.size() < (spf ? 4u : 2u)) {
      return error(Kind::kParamListLengthError, at, -1, "truncated page header");
    }
    if ((rest[0] & 0x80) != 0) return error(Kind::kInvalidFieldInParamList, at, 7, "PS set");
    const std::uint8_t code = rest[0] & 0x3F;
    const std::uint8_t subpage = spf ? rest[1] : 0;
    const auto it = std::find_if(state.pages_.begin(), state.pages_.end(), [&](const ModePage& p) {
      return p.code == code && p.subpage == subpage;
    });
    if (it == state.pages_.end()) {
      const bool known_code = state.find(code, 0) != nullptr;
      return known_code ? error(Kind::kInvalidFieldInParamList, at + 1, -1, "unsupported subpage")
                        : error(Kind::kInvalidFieldInParamList, at, 5, "unsupported page");
    }
    const std::size_t length = spf ? get_be16(rest, 2) + 4u : rest[1] + 2u;
    if (length != it->current.size()) {
      return error(Kind::kInvalidFieldInParamList, at + (spf ? 2 : 1), -1, "page length");
    }
    if (rest.size() < length) return error(Kind::kParamListLengthError, at, -1, "truncated page");
    const auto page = rest.first(length);
    Bytes& target = staged[static_cast<std::size_t>(it - state.pages_.begin())];
    // A control page is refused as a whole to an initiator that may not
    // change it, at its page code, whatever its fields say. ACCESS DENIED -
    // NO ACCESS RIGHTS (20h/02h, ILLEGAL REQUEST) says what is wrong where
    // INVALID FIELD IN PARAMETER LIST would send a correct initiator looking
    // for a malformed field; the field pointer is still valid with ILLEGAL
    // REQUEST (SPC-4, field pointer sense key specific data).
    if (it->control && !may_change_control &&
        !std::equal(page.begin() + static_cast<std::ptrdiff_t>(header_size(page)), page.end(),
                    target.begin() + static_cast<std::ptrdiff_t>(header_size(page)))) {
      return error(Kind::kAccessDenied, at, 5, "control page: this initiator may not change it");
    }
    for (std::size_t i = header_size(page); i < length; ++i) {
      const auto fixed = static_cast<std::uint8_t>((page[i] ^ target[i]) & ~it->changeable[i]);
      if (fixed != 0) {
        return error(Kind::kInvalidFieldInParamList, at + i, std::bit_width(fixed) - 1,
                     "changed a bit that is not changeable");
      }
    }
    if (it->check != nullptr) {
      if (auto s = it->check(page, static_cast<std::uint16_t>(at)); !s.ok()) return s;
    }
    target.assign(page.begin(), page.end());
    at += length;
  }
  for (std::size_t i = 0; i < staged.size(); ++i) state.pages_[i].current = std::move(staged[i]);
  return {};
}

}  // namespace memstore::modepages
