// SPDX-License-Identifier: Apache-2.0
#include "target/iscsi/pdu_ahs.h"

#include <string>
#include <utility>

namespace memstore::iscsi {

namespace {

constexpr std::size_t kAhsHeader = 3;             // AHSLength (2) + AHSType (1)
constexpr std::uint8_t kFirstExtensionCode = 60;  // 60-63: non-iSCSI extensions

PduError ahs_error(RejectReason reason, std::size_t at, std::string what) {
  return PduError{reason, static_cast<std::uint16_t>(at), std::move(what)};
}

}  // namespace

Expected<ScsiCommandAhs, PduError> decode_ahs(std::span<const std::uint8_t> ahs) {
  ScsiCommandAhs out;
  bool have_cdb = false;
  std::size_t at = 0;
  while (at < ahs.size()) {
    if (ahs.size() - at < kAhsHeader + 1) {
      return ahs_error(RejectReason::kProtocolError, at, "truncated AHS header");
    }
    const std::size_t length = static_cast<std::size_t>(ahs[at] << 8 | ahs[at + 1]);
    const auto code = static_cast<std::uint8_t>(ahs[at + 2] & 0x3F);  // bits 7-6 reserved
    if (length == 0 || kAhsHeader + length > ahs.size() - at) {
      return ahs_error(RejectReason::kProtocolError, at, "AHSLength overruns TotalAHSLength");
    }
    const auto body = ahs.subspan(at + kAhsHeader + 1, length - 1);  // after the reserved byte
    if (code == static_cast<std::uint8_t>(AhsType::kExtendedCdb)) {
      if (have_cdb) return ahs_error(RejectReason::kProtocolError, at, "second extended CDB");
      if (body.empty()) return ahs_error(RejectReason::kInvalidPduField, at, "empty extended CDB");
      have_cdb = true;
      out.extended_cdb.assign(body.begin(), body.end());
    } else if (code == static_cast<std::uint8_t>(AhsType::kBidiReadLength)) {
      if (out.bidi_read_length) {
        return ahs_error(RejectReason::kProtocolError, at, "second bidirectional read length");
      }
      if (length != 5) {
        return ahs_error(RejectReason::kInvalidPduField, at, "bidirectional AHSLength is not 5");
      }
      out.bidi_read_length = std::uint32_t{body[0]} << 24 | std::uint32_t{body[1]} << 16 |
                             std::uint32_t{body[2]} << 8 | body[3];
    } else if (code < kFirstExtensionCode) {
      return ahs_error(RejectReason::kProtocolError, at + 2, "reserved AHSType");
    }
    at += padded_length(kAhsHeader + length);
  }
  return out;
}

std::vector<std::uint8_t> encode_ahs(const ScsiCommandAhs& ahs) {
  std::vector<std::uint8_t> out;
  auto add = [&out](AhsType type, std::span<const std::uint8_t> body) {
    const std::size_t length = body.size() + 1;
    out.push_back(static_cast<std::uint8_t>(length >> 8));
    out.push_back(static_cast<std::uint8_t>(length));
    out.push_back(static_cast<std::uint8_t>(type));
    out.push_back(0);  // reserved
    out.insert(out.end(), body.begin(), body.end());
    out.resize(padded_length(out.size()), 0);
  };
  if (!ahs.extended_cdb.empty()) add(AhsType::kExtendedCdb, ahs.extended_cdb);
  if (ahs.bidi_read_length) {
    const std::uint32_t v = *ahs.bidi_read_length;
    const std::uint8_t bytes[] = {static_cast<std::uint8_t>(v >> 24),
                                  static_cast<std::uint8_t>(v >> 16),
                                  static_cast<std::uint8_t>(v >> 8), static_cast<std::uint8_t>(v)};
    add(AhsType::kBidiReadLength, bytes);
  }
  return out;
}

std::vector<std::uint8_t> full_cdb(const ScsiCommandPdu& cmd, const ScsiCommandAhs& ahs) {
  std::vector<std::uint8_t> cdb(cmd.cdb.begin(), cmd.cdb.end());
  cdb.insert(cdb.end(), ahs.extended_cdb.begin(), ahs.extended_cdb.end());
  return cdb;
}

}  // namespace memstore::iscsi
