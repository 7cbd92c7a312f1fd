// SPDX-License-Identifier: Apache-2.0
// The text data segment of Login and Text PDUs (RFC 7143 §6.1): key=value
// pairs, each followed by one NUL byte, kept in the order received; and the
// value encodings of RFC 7143 §5.1 and §6.1. Which keys exist and how they
// negotiate is the negotiation table's business, not this file's.
#pragma once

#include <cstddef>
#include <cstdint>
#include <optional>
#include <span>
#include <string>
#include <string_view>
#include <variant>
#include <vector>

#include "base/expected.h"

namespace memstore::iscsi {

struct TextPair {
  std::string key;
  std::string value;
  bool operator==(const TextPair&) const = default;
};

struct TextLimits {
  std::size_t max_key_bytes = 63;     // §6.1: key names are at most 63 bytes
  std::size_t max_value_bytes = 255;  // §6.1: "unless specified otherwise"
  // Keys whose values may be longer (binary challenges and responses), up
  // to the whole segment.
  std::vector<std::string_view> long_value_keys = {"CHAP_C", "CHAP_R", "SRP_A", "SRP_B",
                                                   "SRP_M",  "SRP_HM", "SRP_s"};
  std::size_t max_segment_bytes = 8192;  // §6.1: at least 8192 bytes must be accepted
};

struct TextError {
  enum class Kind : std::uint8_t {
    kSegmentTooLong,
    kMissingTerminator,  // the last pair has no NUL (or the segment was cut mid-pair)
    kMissingEquals,
    kInvalidKey,  // empty, or a byte outside letters, digits and . - + @ _ #
    kKeyTooLong,
    kInvalidValue,  // not UTF-8
    kValueTooLong,
    kDuplicateKey,
  };
  Kind kind = Kind::kMissingEquals;
  std::size_t offset = 0;  // of the offending pair in the segment
  std::string key;         // when known
  std::string what;
};

// Parses a complete text segment (for C = 1 sequences, the concatenation of
// all parts). Empty entries (two NULs in a row) are skipped.
Expected<std::vector<TextPair>, TextError> parse_text(std::span<const std::uint8_t> segment,
                                                      const TextLimits& limits = {});

// key=value NUL for each pair, in order. REQUIRES: keys and values as
// parse_text accepts them.
std::vector<std::uint8_t> serialize_text(std::span<const TextPair> pairs);

// ---- Values (RFC 7143 §6.1, §5.1) ----

// Values that answer a key instead of negotiating it (§6.2, §6.2.1).
enum class SpecialValue : std::uint8_t { kNone, kReject, kIrrelevant, kNotUnderstood };
inline constexpr std::string_view kRejectValue = "Reject";
inline constexpr std::string_view kIrrelevantValue = "Irrelevant";
inline constexpr std::string_view kNotUnderstoodValue = "NotUnderstood";
SpecialValue special_value_of(std::string_view value);

// numerical-value: decimal-constant (no leading zeros) or hex-constant
// (0x/0X, any number of hex digits) below 2^64; nullopt otherwise.
std::optional<std::uint64_t> parse_numerical(std::string_view value);
// large-numerical-value / binary-value: hex-constant (0x) or base64-constant
// (0b, RFC 4648 alphabet with padding) as bytes; nullopt when malformed.
std::optional<std::vector<std::uint8_t>> parse_large_numerical(std::string_view value);
// Hex-constant form ("0x" + two lowercase digits per byte).
std::string format_hex(std::span<const std::uint8_t> bytes);

// boolean-value: "Yes" or "No", case-sensitive.
std::optional<bool> parse_boolean(std::string_view value);
constexpr std::string_view format_boolean(bool b) {
  return b ? "Yes" : "No";
}

// list-of-values: comma-separated, order kept, empty items kept ("a,,b" has
// three); an empty value is an empty list.
std::vector<std::string_view> split_value_list(std::string_view value);
std::string join_value_list(std::span<const std::string_view> items);

}  // namespace memstore::iscsi
