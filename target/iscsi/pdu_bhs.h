// SPDX-License-Identifier: Apache-2.0
// The iSCSI Basic Header Segment (RFC 7143 §11.2): the 48 bytes every PDU
// starts with, the fields common to all opcodes, the SAM LUN encoding and the
// error value that every decoder returns. No session state lives here.
#pragma once

#include <array>
#include <cstddef>
#include <cstdint>
#include <optional>
#include <string>

namespace memstore::iscsi {

inline constexpr std::size_t kBhsSize = 48;
using Bhs = std::array<std::uint8_t, kBhsSize>;
using LunBytes = std::array<std::uint8_t, 8>;
using Isid = std::array<std::uint8_t, 6>;

// The reserved tag value (RFC 7143 §11.2.1.8, §11.18.2): "no task".
inline constexpr std::uint32_t kReservedTag = 0xFFFFFFFF;

// RFC 7143 §11.2.1.2. Initiator opcodes 00h-1Fh, target opcodes 20h-3Fh.
enum class Opcode : std::uint8_t {
  kNopOut = 0x00,
  kScsiCommand = 0x01,
  kTaskMgmtRequest = 0x02,
  kLoginRequest = 0x03,
  kTextRequest = 0x04,
  kDataOut = 0x05,
  kLogoutRequest = 0x06,
  kSnackRequest = 0x10,
  kNopIn = 0x20,
  kScsiResponse = 0x21,
  kTaskMgmtResponse = 0x22,
  kLoginResponse = 0x23,
  kTextResponse = 0x24,
  kDataIn = 0x25,
  kLogoutResponse = 0x26,
  kR2t = 0x31,
  kAsyncMessage = 0x32,
  kReject = 0x3F,
};

constexpr bool is_initiator_opcode(Opcode op) {
  return static_cast<std::uint8_t>(op) < 0x20;
}

// Reject reason codes (RFC 7143 §11.17.1).
enum class RejectReason : std::uint8_t {
  kDataDigestError = 0x02,
  kSnackReject = 0x03,
  kProtocolError = 0x04,
  kCommandNotSupported = 0x05,
  kImmediateCommandReject = 0x06,
  kTaskInProgress = 0x07,
  kInvalidDataAck = 0x08,
  kInvalidPduField = 0x09,
  kLongOperationReject = 0x0A,
  kWaitingForLogout = 0x0C,
};

// What a decoder found wrong: the error of its Expected<T, PduError>
// (base/expected.h). The session answers with a Reject PDU carrying
// `reason` (or, during login, a Login Response with status 02h/00h
// "initiator error", RFC 7143 §11.13.5).
struct PduError {
  RejectReason reason = RejectReason::kProtocolError;
  std::uint16_t byte = 0;  // offset of the offending field in the BHS (or in the AHS)
  std::string what;        // for logs and test messages, never sent on the wire

  bool operator==(const PduError&) const = default;
};

// ---- Fields common to every opcode (RFC 7143 §11.2.1) ----

// Byte 0 bits 5-0; nullopt for a code that RFC 7143 does not define.
std::optional<Opcode> opcode_of(const Bhs& bhs);
// Byte 0 bit 6: immediate delivery (initiator PDUs only).
constexpr bool immediate_bit(const Bhs& bhs) {
  return (bhs[0] & 0x40) != 0;
}
// Byte 1 bit 7: final (F) bit.
constexpr bool final_bit(const Bhs& bhs) {
  return (bhs[1] & 0x80) != 0;
}
// Byte 4: length of the additional header segments in 4-byte words.
constexpr std::uint8_t total_ahs_length(const Bhs& bhs) {
  return bhs[4];
}
// Bytes 5-7: data segment length in bytes, excluding padding.
constexpr std::uint32_t data_segment_length(const Bhs& bhs) {
  return std::uint32_t{bhs[5]} << 16 | std::uint32_t{bhs[6]} << 8 | bhs[7];
}
// Bytes 16-19: Initiator Task Tag.
constexpr std::uint32_t initiator_task_tag(const Bhs& bhs) {
  return std::uint32_t{bhs[16]} << 24 | std::uint32_t{bhs[17]} << 16 | std::uint32_t{bhs[18]} << 8 |
         bhs[19];
}

// Data segments and AHS are padded to a multiple of 4 bytes (RFC 7143 §11.2.3).
constexpr std::size_t padded_length(std::size_t n) {
  return (n + 3) & ~std::size_t{3};
}

inline constexpr std::uint32_t kMaxDataSegmentLength = 0xFFFFFF;  // 24-bit field

// ---- LUN (RFC 7143 §11.2.1.3: SAM-5 §4.7 encoding) ----

// Largest LUN the two supported addressing methods can carry.
inline constexpr std::uint16_t kMaxLun = 16383;

// LUNs 0-255 use single-level peripheral device addressing (00b, bus 0);
// 256-16383 use flat space addressing (01b). REQUIRES: lun <= kMaxLun.
LunBytes encode_lun(std::uint16_t lun);
// Accepts single-level peripheral (bus 0) and flat space addressing with the
// second to fourth levels zero; nullopt for any other address (the session
// answers LOGICAL UNIT NOT SUPPORTED).
std::optional<std::uint16_t> decode_lun(const LunBytes& bytes);

}  // namespace memstore::iscsi
