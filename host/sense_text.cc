// SPDX-License-Identifier: Apache-2.0
#include "host/sense_text.h"

#include <algorithm>
#include <cstdio>

namespace memstore::host {
namespace {

// SPC-4 Table 27 (sense key descriptions).
constexpr const char* kSenseKeys[16] = {
    "NO SENSE",       "RECOVERED ERROR", "NOT READY",      "MEDIUM ERROR",
    "HARDWARE ERROR", "ILLEGAL REQUEST", "UNIT ATTENTION", "DATA PROTECT",
    "BLANK CHECK",    "VENDOR SPECIFIC", "COPY ABORTED",   "ABORTED COMMAND",
    "RESERVED",       "VOLUME OVERFLOW", "MISCOMPARE",     "COMPLETED",
};

struct AscRow {
  std::uint8_t asc;
  std::uint8_t ascq;
  const char* name;
};

// SPC-4 Annex D (ASC and ASCQ assignments): every pair target/scsi/sense.cc
// can produce, plus the common ones an ordinary disk or a LIO/TCMU path adds.
constexpr AscRow kAscTable[] = {
    {0x00, 0x00, "NO ADDITIONAL SENSE INFORMATION"},
    {0x04, 0x00, "LOGICAL UNIT NOT READY, CAUSE NOT REPORTABLE"},
    {0x04, 0x01, "LOGICAL UNIT IS IN PROCESS OF BECOMING READY"},
    {0x04, 0x02, "LOGICAL UNIT NOT READY, INITIALIZING COMMAND REQUIRED"},
    {0x08, 0x00, "LOGICAL UNIT COMMUNICATION FAILURE"},
    {0x0C, 0x00, "WRITE ERROR"},
    {0x11, 0x00, "UNRECOVERED READ ERROR"},
    {0x1A, 0x00, "PARAMETER LIST LENGTH ERROR"},
    {0x1D, 0x00, "MISCOMPARE DURING VERIFY OPERATION"},
    {0x20, 0x00, "INVALID COMMAND OPERATION CODE"},
    {0x20, 0x02, "ACCESS DENIED - NO ACCESS RIGHTS"},
    {0x21, 0x00, "LOGICAL BLOCK ADDRESS OUT OF RANGE"},
    {0x24, 0x00, "INVALID FIELD IN CDB"},
    {0x25, 0x00, "LOGICAL UNIT NOT SUPPORTED"},
    {0x26, 0x00, "INVALID FIELD IN PARAMETER LIST"},
    // Vendor-specific ASCQ of MEMS BATCH (docs/vendor-interface.md, "Errors").
    {0x26, 0x80,
     "BATCH NOT PARALLEL-ACCESSIBLE (vendor: the STRICT batch needs more than one "
     "media step)"},
    {0x27, 0x00, "WRITE PROTECTED"},
    {0x29, 0x00, "POWER ON, RESET, OR BUS DEVICE RESET OCCURRED"},
    {0x2A, 0x01, "MODE PARAMETERS CHANGED"},
    {0x39, 0x00, "SAVING PARAMETERS NOT SUPPORTED"},
    {0x3A, 0x00, "MEDIUM NOT PRESENT"},
    {0x3F, 0x0E, "REPORTED LUNS DATA HAS CHANGED"},
    {0x44, 0x00, "INTERNAL TARGET FAILURE"},
    {0x47, 0x05, "PROTOCOL SERVICE CRC ERROR"},
    {0x49, 0x00, "INVALID MESSAGE ERROR"},
    {0x55, 0x03, "INSUFFICIENT RESOURCES"},
};

std::uint64_t be(std::span<const std::uint8_t> b, std::size_t at, std::size_t n) {
  std::uint64_t v = 0;
  for (std::size_t i = 0; i < n; ++i) v = (v << 8) | b[at + i];
  return v;
}

// Three SKS bytes (fixed format bytes 15-17, descriptor 02h bytes 4-6).
std::optional<SenseFieldPointer> field_pointer(std::span<const std::uint8_t> sks) {
  if ((sks[0] & 0x80) == 0) return std::nullopt;  // SKSV
  SenseFieldPointer f;
  f.in_cdb = (sks[0] & 0x40) != 0;
  f.bit = (sks[0] & 0x08) != 0 ? static_cast<std::int8_t>(sks[0] & 0x07) : std::int8_t{-1};
  f.byte = static_cast<std::uint16_t>(be(sks, 1, 2));
  return f;
}

constexpr std::uint8_t kIllegalRequest = 0x5;

std::optional<SenseData> decode_fixed(std::span<const std::uint8_t> s) {
  SenseData d;
  d.deferred = (s[0] & 0x7F) == 0x71;
  d.key = s[2] & 0x0F;
  // The additional sense length (byte 7) says how much of bytes 8.. is valid.
  const std::size_t end = s.size() < 8 ? s.size() : std::min<std::size_t>(s.size(), 8u + s[7]);
  if ((s[0] & 0x80) != 0 && s.size() >= 7) d.information = be(s, 3, 4);
  if (end >= 14) {
    d.asc = s[12];
    d.ascq = s[13];
  }
  if (end >= 18 && d.key == kIllegalRequest) d.field = field_pointer(s.subspan(15, 3));
  return d;
}

std::optional<SenseData> decode_descriptor(std::span<const std::uint8_t> s) {
  SenseData d;
  d.descriptor_format = true;
  d.deferred = (s[0] & 0x7F) == 0x73;
  d.key = s[1] & 0x0F;
  d.asc = s[2];
  d.ascq = s[3];
  if (s.size() < 8) return d;
  const std::size_t end = std::min<std::size_t>(s.size(), 8u + s[7]);
  std::size_t at = 8;
  while (at + 2 <= end) {
    const std::uint8_t type = s[at];
    const std::size_t len = 2u + s[at + 1];
    if (at + len > end) break;
    const auto desc = s.subspan(at, len);
    if (type == 0x00 && len >= 12 && (desc[2] & 0x80) != 0) d.information = be(desc, 4, 8);
    if (type == 0x02 && len >= 7 && d.key == kIllegalRequest) {
      d.field = field_pointer(desc.subspan(4, 3));
    }
    at += len;
  }
  return d;
}

std::string hex2(std::uint8_t v) {
  char buf[4];
  std::snprintf(buf, sizeof buf, "%02Xh", v);
  return buf;
}

}  // namespace

std::optional<SenseData> decode_sense(std::span<const std::uint8_t> s) {
  if (s.empty()) return std::nullopt;
  const std::uint8_t code = s[0] & 0x7F;
  if ((code == 0x70 || code == 0x71) && s.size() >= 3) return decode_fixed(s);
  if ((code == 0x72 || code == 0x73) && s.size() >= 4) return decode_descriptor(s);
  return std::nullopt;
}

const char* sense_key_name(std::uint8_t key) {
  return kSenseKeys[key & 0x0F];
}

std::string asc_name(std::uint8_t asc, std::uint8_t ascq) {
  for (const AscRow& r : kAscTable) {
    if (r.asc == asc && r.ascq == ascq) return r.name;
  }
  return "ASC " + hex2(asc) + " ASCQ " + hex2(ascq);
}

std::string describe(const SenseData& s) {
  std::string out = sense_key_name(s.key);
  out += ": ";
  out += asc_name(s.asc, s.ascq);
  out += " (" + hex2(s.asc) + "/" + hex2(s.ascq) + ")";
  if (s.field) {
    out += s.field->in_cdb ? " at CDB byte " : " at parameter list byte ";
    out += std::to_string(s.field->byte);
    if (s.field->bit >= 0) out += " bit " + std::to_string(s.field->bit);
  }
  if (s.information) out += ", information " + std::to_string(*s.information);
  if (s.deferred) out += " (deferred error)";
  return out;
}

}  // namespace memstore::host
