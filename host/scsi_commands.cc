// SPDX-License-Identifier: Apache-2.0
#include "host/scsi_commands.h"

#include <algorithm>
#include <cstdio>

#include "modepages/bytes.h"

namespace memstore::host {
namespace {

using modepages::get_be;
using modepages::put_be;

std::string trimmed(std::span<const std::uint8_t> field) {
  std::string s(field.begin(), field.end());
  while (!s.empty() && (s.back() == ' ' || s.back() == '\0')) s.pop_back();
  return s;
}

}  // namespace

Bytes inquiry_cdb(std::uint16_t allocation_length) {
  Bytes c(6, 0);
  c[0] = 0x12;
  put_be(c, 3, 2, allocation_length);
  return c;
}

std::optional<InquiryData> decode_inquiry(std::span<const std::uint8_t> d) {
  if (d.size() < 36) return std::nullopt;
  InquiryData q;
  q.peripheral_qualifier = static_cast<std::uint8_t>(d[0] >> 5);
  q.device_type = d[0] & 0x1F;
  q.vendor = trimmed(d.subspan(8, 8));
  q.product = trimmed(d.subspan(16, 16));
  q.revision = trimmed(d.subspan(32, 4));
  return q;
}

std::string device_type_name(std::uint8_t type) {
  // SPC-4 Table 49 (peripheral device type), the types a host meets.
  struct Row {
    std::uint8_t type;
    const char* name;
  };
  static constexpr Row kTypes[] = {
      {0x00, "direct access block device"},      {0x05, "CD/DVD device"},
      {0x0D, "enclosure services device"},       {0x0E, "simplified direct-access device"},
      {0x14, "host managed zoned block device"}, {0x1F, "unknown or no device type"},
  };
  for (const Row& r : kTypes) {
    if (r.type == type) return r.name;
  }
  char buf[16];
  std::snprintf(buf, sizeof buf, "type %02Xh", type);
  return buf;
}

Bytes read_capacity10_cdb() {
  Bytes c(10, 0);
  c[0] = 0x25;
  return c;
}

Bytes read_capacity16_cdb() {
  Bytes c(16, 0);
  c[0] = 0x9E;  // SERVICE ACTION IN(16)
  c[1] = 0x10;  // READ CAPACITY(16)
  put_be(c, 10, 4, 32);
  return c;
}

std::optional<Capacity> decode_read_capacity10(std::span<const std::uint8_t> d) {
  if (d.size() < 8) return std::nullopt;
  return Capacity{get_be(d, 0, 4) + 1, static_cast<std::uint32_t>(get_be(d, 4, 4))};
}

std::optional<Capacity> decode_read_capacity16(std::span<const std::uint8_t> d) {
  if (d.size() < 12) return std::nullopt;
  return Capacity{get_be(d, 0, 8) + 1, static_cast<std::uint32_t>(get_be(d, 8, 4))};
}

Bytes mode_sense10_cdb(std::uint8_t page, PageControl pc, std::uint16_t allocation_length) {
  Bytes c(10, 0);
  c[0] = 0x5A;
  c[1] = 0x08;  // DBD
  c[2] = static_cast<std::uint8_t>((static_cast<int>(pc) << 6) | (page & 0x3F));
  put_be(c, 7, 2, allocation_length);
  return c;
}

std::optional<std::span<const std::uint8_t>> find_mode_page(std::span<const std::uint8_t> d,
                                                            std::uint8_t page) {
  // Mode parameter header(10): MODE DATA LENGTH (2), medium type, device
  // specific, LONGLBA, reserved, BLOCK DESCRIPTOR LENGTH (2).
  if (d.size() < 8) return std::nullopt;
  const std::size_t end = std::min<std::size_t>(d.size(), 2 + get_be(d, 0, 2));
  std::size_t at = 8 + get_be(d, 6, 2);
  while (at + 2 <= end) {
    const bool spf = (d[at] & 0x40) != 0;  // sub_page format: 2-byte page length at +2
    if (spf && at + 4 > end) return std::nullopt;
    const std::size_t len = spf ? 4 + get_be(d, at + 2, 2) : 2 + std::size_t{d[at + 1]};
    if (at + len > end) return std::nullopt;
    if (!spf && (d[at] & 0x3F) == page) return d.subspan(at, len);
    at += len;
  }
  return std::nullopt;
}

Bytes mode_select10_cdb(std::uint16_t list_length) {
  Bytes c(10, 0);
  c[0] = 0x55;
  c[1] = 0x10;  // PF: the pages are in the standard page format
  put_be(c, 7, 2, list_length);
  return c;
}

Bytes mode_select10_list(std::span<const std::uint8_t> page) {
  // MODE DATA LENGTH is reserved in MODE SELECT; no block descriptor.
  Bytes l(8 + page.size(), 0);
  std::copy(page.begin(), page.end(), l.begin() + 8);
  if (!page.empty()) l[8] &= 0x7F;  // PS is reserved in MODE SELECT
  return l;
}

Bytes log_sense_cdb(std::uint8_t page, std::uint16_t allocation_length) {
  Bytes c(10, 0);
  c[0] = 0x4D;
  c[2] = static_cast<std::uint8_t>(0x40 | (page & 0x3F));  // PC = 01b
  put_be(c, 7, 2, allocation_length);
  return c;
}

Bytes read16_cdb(std::uint64_t lba, std::uint32_t blocks) {
  Bytes c(16, 0);
  c[0] = 0x88;
  put_be(c, 2, 8, lba);
  put_be(c, 10, 4, blocks);
  return c;
}

Bytes write16_cdb(std::uint64_t lba, std::uint32_t blocks, bool fua) {
  Bytes c(16, 0);
  c[0] = 0x8A;
  if (fua) c[1] = 0x08;
  put_be(c, 2, 8, lba);
  put_be(c, 10, 4, blocks);
  return c;
}

}  // namespace memstore::host
