// SPDX-License-Identifier: Apache-2.0
#include "modepages/vpd_pages.h"

#include <algorithm>
#include <array>
#include <limits>

namespace memstore::modepages {
namespace {

constexpr std::uint8_t kDirectAccess = 0x00;  // peripheral qualifier 000b, device type 00h

// SPC-4 ASCII data field requirements: ASCII data fields hold 20h..7Eh, left-aligned and padded
// with spaces. Other characters become '_' so a bad config cannot emit control bytes.
void append_ascii(Bytes& out, const std::string& s, std::size_t width) {
  for (std::size_t i = 0; i < width; ++i) {
    const char c = i < s.size() ? s[i] : ' ';
    out.push_back(c >= 0x20 && c <= 0x7E ? static_cast<std::uint8_t>(c) : '_');
  }
}

template <typename T>
T saturate(std::int64_t v) {
  if (v < 0) return 0;
  const auto max = static_cast<std::int64_t>(std::numeric_limits<T>::max());
  return static_cast<T>(std::min(v, max));
}

// Each encoder returns the page body, after the 4-byte VPD header.
using Encoder = Bytes (*)(const VpdInputs&);
struct VpdEntry {
  std::uint8_t code;
  Encoder body;
};

Bytes supported_pages_body(const VpdInputs&) {
  return supported_vpd_pages();
}

// SPC-4 §7.8, Unit Serial Number VPD page.
Bytes serial_body(const VpdInputs& in) {
  Bytes b;
  append_ascii(b, in.identity.serial, in.identity.serial.size());
  return b;
}

// SPC-4 §7.8.6 Device Identification: NAA and T10 vendor ID designators
// for the LU, then whatever the transport adds.
Bytes device_id_body(const VpdInputs& in) {
  Bytes b;
  Bytes naa;
  append_be(naa, 8,
            (std::uint64_t{3} << 60) | (in.identity.naa_id & ((std::uint64_t{1} << 60) - 1)));
  const Bytes d1 =
      make_designator(CodeSet::kBinary, Association::kLogicalUnit, DesignatorType::kNaa, naa);
  b.insert(b.end(), d1.begin(), d1.end());

  // T10 vendor ID: vendor (8) + vendor specific (product id + serial).
  Bytes t10;
  append_ascii(t10, in.identity.vendor, 8);
  append_ascii(t10, in.identity.product, 16);
  append_ascii(
      t10, in.identity.serial,
      std::min<std::size_t>(in.identity.serial.size(), 255 - 24));  // designator length is one byte
  const Bytes d2 = make_designator(CodeSet::kAscii, Association::kLogicalUnit,
                                   DesignatorType::kT10VendorId, t10);
  b.insert(b.end(), d2.begin(), d2.end());

  for (const Bytes& d : in.extra_designators) b.insert(b.end(), d.begin(), d.end());
  return b;
}

// SBC-3 §6.6.3 Block Limits (page length 3Ch).
Bytes block_limits_body(const VpdInputs& in) {
  const BlockLimits& l = in.limits;
  Bytes b(0x3C, 0);
  b[0] = l.wsnz ? 0x01 : 0x00;
  b[1] = l.max_compare_and_write;
  put_be(b, 2, 2, l.optimal_granularity);
  put_be(b, 4, 4, l.max_transfer);
  put_be(b, 8, 4, l.optimal_transfer);
  put_be(b, 12, 4, 0);  // maximum prefetch length: PRE-FETCH not supported
  put_be(b, 16, 4, l.max_unmap_lba_count);
  put_be(b, 20, 4, l.max_unmap_descriptors);
  put_be(b, 24, 4, l.optimal_unmap_granularity);
  if (l.unmap_granularity_alignment) {
    put_be(b, 28, 4, (*l.unmap_granularity_alignment & 0x7FFFFFFFu) | 0x80000000u);  // UGAVALID
  }
  put_be(b, 32, 8, l.max_write_same);
  return b;
}

// SBC-3 §6.6.2 Block Device Characteristics (page length 3Ch).
Bytes characteristics_body(const VpdInputs& in) {
  Bytes b(0x3C, 0);
  put_be(b, 0, 2, in.rotation.medium_rotation_rate);
  b[3] = static_cast<std::uint8_t>(in.rotation.form_factor) & 0x0F;
  return b;
}

// SBC-3 §6.6.4 Logical Block Provisioning (no provisioning group descriptor).
Bytes provisioning_body(const VpdInputs& in) {
  const ProvisioningInfo& p = in.provisioning;
  Bytes b(4, 0);
  b[0] = p.threshold_exponent;
  b[1] = static_cast<std::uint8_t>((p.lbpu ? 0x80 : 0) | (p.lbpws ? 0x40 : 0) |
                                   (p.lbpws10 ? 0x20 : 0) | (p.lbprz ? 0x04 : 0));
  b[2] = p.provisioning_type & 0x07;
  return b;
}

// Ascending by page code (SPC-4 §7.8, Supported VPD Pages: ascending).
constexpr std::array<VpdEntry, 6> kPages = {{
    {0x00, supported_pages_body},
    {0x80, serial_body},
    {0x83, device_id_body},
    {0xB0, block_limits_body},
    {0xB1, characteristics_body},
    {0xB2, provisioning_body},
}};

}  // namespace

BlockLimits block_limits_for(const model::Geometry& geometry) {
  BlockLimits l;
  l.optimal_granularity = saturate<std::uint16_t>(geometry.p());
  l.optimal_transfer = saturate<std::uint32_t>(geometry.st());
  return l;
}

bool valid_rotation_rate(std::uint16_t rate) {
  return rate == kRotationNotReported || rate == kNonRotating || (rate >= 0x0401 && rate <= 0xFFFE);
}

std::vector<std::uint8_t> supported_vpd_pages() {
  std::vector<std::uint8_t> codes;
  codes.reserve(kPages.size());
  for (const VpdEntry& e : kPages) codes.push_back(e.code);
  return codes;
}

std::optional<Bytes> vpd_page(std::uint8_t code, const VpdInputs& in) {
  const auto* it = std::find_if(kPages.begin(), kPages.end(),
                                [code](const VpdEntry& e) { return e.code == code; });
  if (it == kPages.end()) return std::nullopt;
  const Bytes body = it->body(in);
  Bytes page = {kDirectAccess, code};
  append_be(page, 2, std::min<std::size_t>(body.size(), 0xFFFF));
  page.insert(page.end(), body.begin(), body.begin() + std::min<std::size_t>(body.size(), 0xFFFF));
  return page;
}

Bytes standard_inquiry(const LunIdentity& identity) {
  Bytes b(8, 0);
  b[0] = kDirectAccess;
  b[1] = 0x00;                            // RMB 0: not removable
  b[2] = 0x06;                            // VERSION: SPC-4
  b[3] = 0x12;                            // HISUP (bit 4), RESPONSE DATA FORMAT 2
  b[4] = 96 - 5;                          // ADDITIONAL LENGTH (n - 4)
  b[7] = 0x02;                            // CMDQUE
  append_ascii(b, identity.vendor, 8);    // bytes 8..15
  append_ascii(b, identity.product, 16);  // bytes 16..31
  append_ascii(b, identity.revision, 4);  // bytes 32..35
  b.resize(58, 0);                        // 36..55 vendor specific, 56..57 reserved
  for (std::size_t i = 0; i < 8; ++i) {   // bytes 58..73 version descriptors
    append_be(b, 2, i < identity.version_descriptors.size() ? identity.version_descriptors[i] : 0);
  }
  b.resize(96, 0);  // 74..95 reserved
  return b;
}

Bytes make_designator(CodeSet code_set, Association association, DesignatorType type,
                      std::span<const std::uint8_t> value, std::optional<std::uint8_t> protocol) {
  const std::size_t n = std::min<std::size_t>(value.size(), 255);
  Bytes d(4, 0);
  d[0] = static_cast<std::uint8_t>(((protocol.value_or(0) & 0x0F) << 4) |
                                   static_cast<std::uint8_t>(code_set));
  d[1] = static_cast<std::uint8_t>((protocol ? 0x80 : 0) |
                                   (static_cast<std::uint8_t>(association) << 4) |
                                   static_cast<std::uint8_t>(type));
  d[3] = static_cast<std::uint8_t>(n);
  d.resize(4 + n);
  std::copy_n(value.begin(), n, d.begin() + 4);
  return d;
}

}  // namespace memstore::modepages
