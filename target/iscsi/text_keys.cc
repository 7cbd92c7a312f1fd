// SPDX-License-Identifier: Apache-2.0
#include "target/iscsi/text_keys.h"

#include <algorithm>
#include <set>

namespace memstore::iscsi {

namespace {

using Kind = TextError::Kind;

TextError text_error(Kind kind, std::size_t offset, std::string_view key, std::string what) {
  return TextError{kind, offset, std::string(key), std::move(what)};
}

// §6.1 key-name characters; '#' for "X#" IANA-registered extension keys (§13.5).
bool is_key_char(char c) {
  return (c >= 'A' && c <= 'Z') || (c >= 'a' && c <= 'z') || (c >= '0' && c <= '9') || c == '.' ||
         c == '-' || c == '+' || c == '@' || c == '_' || c == '#';
}

// Well-formed UTF-8 (RFC 3629): no overlong forms, surrogates or code points
// above U+10FFFF.
bool is_utf8(std::string_view s) {
  std::size_t i = 0;
  while (i < s.size()) {
    const auto c = static_cast<unsigned char>(s[i]);
    std::size_t n = 0;
    std::uint32_t cp = 0;
    if (c < 0x80) {
      ++i;
      continue;
    } else if (c >= 0xC2 && c <= 0xDF) {
      n = 1;
      cp = c & 0x1Fu;
    } else if (c >= 0xE0 && c <= 0xEF) {
      n = 2;
      cp = c & 0x0Fu;
    } else if (c >= 0xF0 && c <= 0xF4) {
      n = 3;
      cp = c & 0x07u;
    } else {
      return false;
    }
    if (s.size() - i <= n) return false;
    for (std::size_t k = 1; k <= n; ++k) {
      const auto cc = static_cast<unsigned char>(s[i + k]);
      if ((cc & 0xC0) != 0x80) return false;
      cp = cp << 6 | (cc & 0x3Fu);
    }
    if ((n == 2 && cp < 0x800) || (n == 3 && (cp < 0x10000 || cp > 0x10FFFF)) ||
        (cp >= 0xD800 && cp <= 0xDFFF)) {
      return false;
    }
    i += n + 1;
  }
  return true;
}

int hex_digit(char c) {
  if (c >= '0' && c <= '9') return c - '0';
  if (c >= 'a' && c <= 'f') return c - 'a' + 10;
  if (c >= 'A' && c <= 'F') return c - 'A' + 10;
  return -1;
}

int base64_digit(char c) {
  if (c >= 'A' && c <= 'Z') return c - 'A';
  if (c >= 'a' && c <= 'z') return c - 'a' + 26;
  if (c >= '0' && c <= '9') return c - '0' + 52;
  if (c == '+') return 62;
  if (c == '/') return 63;
  return -1;
}

bool has_prefix(std::string_view v, char lower) {
  return v.size() >= 2 && v[0] == '0' && (v[1] == lower || v[1] == lower - 'a' + 'A');
}

std::optional<std::vector<std::uint8_t>> decode_hex(std::string_view digits) {
  if (digits.empty()) return std::nullopt;
  std::vector<std::uint8_t> out;
  std::size_t i = 0;
  if (digits.size() % 2 == 1) {  // an odd count has an implied leading zero
    const int d = hex_digit(digits[0]);
    if (d < 0) return std::nullopt;
    out.push_back(static_cast<std::uint8_t>(d));
    i = 1;
  }
  for (; i < digits.size(); i += 2) {
    const int hi = hex_digit(digits[i]);
    const int lo = hex_digit(digits[i + 1]);
    if (hi < 0 || lo < 0) return std::nullopt;
    out.push_back(static_cast<std::uint8_t>(hi << 4 | lo));
  }
  return out;
}

// RFC 4648 §4 with padding.
std::optional<std::vector<std::uint8_t>> decode_base64(std::string_view s) {
  if (s.empty() || s.size() % 4 != 0) return std::nullopt;
  const std::size_t pad = s.ends_with("==") ? 2 : s.ends_with('=') ? 1 : 0;
  std::vector<std::uint8_t> out;
  for (std::size_t i = 0; i < s.size(); i += 4) {
    std::uint32_t group = 0;
    const bool last = i + 4 == s.size();
    for (std::size_t k = 0; k < 4; ++k) {
      const bool padding = last && k >= 4 - pad;
      const int d = padding ? 0 : base64_digit(s[i + k]);
      if (d < 0) return std::nullopt;
      group = group << 6 | static_cast<std::uint32_t>(d);
    }
    const std::size_t bytes = last ? 3 - pad : 3;
    for (std::size_t k = 0; k < bytes; ++k) {
      out.push_back(static_cast<std::uint8_t>(group >> (16 - 8 * k)));
    }
  }
  return out;
}

}  // namespace

Expected<std::vector<TextPair>, TextError> parse_text(std::span<const std::uint8_t> segment,
                                                      const TextLimits& limits) {
  if (segment.size() > limits.max_segment_bytes) {
    return text_error(Kind::kSegmentTooLong, 0, {}, "text segment longer than the limit");
  }
  const std::string_view text(reinterpret_cast<const char*>(segment.data()), segment.size());
  std::vector<TextPair> pairs;
  std::set<std::string_view> seen;
  std::size_t pos = 0;
  while (pos < text.size()) {
    const std::size_t nul = text.find('\0', pos);
    if (nul == std::string_view::npos) {
      return text_error(Kind::kMissingTerminator, pos, {}, "last key=value has no NUL");
    }
    const std::string_view entry = text.substr(pos, nul - pos);
    const std::size_t at = pos;
    pos = nul + 1;
    if (entry.empty()) continue;
    const std::size_t eq = entry.find('=');
    if (eq == std::string_view::npos) {
      return text_error(Kind::kMissingEquals, at, {}, "key without '='");
    }
    const std::string_view key = entry.substr(0, eq);
    const std::string_view value = entry.substr(eq + 1);
    const std::string_view shown = key.substr(0, limits.max_key_bytes);
    if (key.size() > limits.max_key_bytes) {
      return text_error(Kind::kKeyTooLong, at, shown, "key name too long");
    }
    if (key.empty() || !std::all_of(key.begin(), key.end(), is_key_char)) {
      return text_error(Kind::kInvalidKey, at, shown, "invalid key name");
    }
    if (!is_utf8(value)) return text_error(Kind::kInvalidValue, at, key, "value is not UTF-8");
    const bool long_ok = std::find(limits.long_value_keys.begin(), limits.long_value_keys.end(),
                                   key) != limits.long_value_keys.end();
    if (!long_ok && value.size() > limits.max_value_bytes) {
      return text_error(Kind::kValueTooLong, at, key, "value too long");
    }
    if (!seen.insert(key).second) {
      return text_error(Kind::kDuplicateKey, at, key, "key sent twice");
    }
    pairs.push_back({std::string(key), std::string(value)});
  }
  return pairs;
}

std::vector<std::uint8_t> serialize_text(std::span<const TextPair> pairs) {
  std::vector<std::uint8_t> out;
  for (const TextPair& p : pairs) {
    out.insert(out.end(), p.key.begin(), p.key.end());
    out.push_back('=');
    out.insert(out.end(), p.value.begin(), p.value.end());
    out.push_back(0);
  }
  return out;
}

SpecialValue special_value_of(std::string_view value) {
  if (value == kRejectValue) return SpecialValue::kReject;
  if (value == kIrrelevantValue) return SpecialValue::kIrrelevant;
  if (value == kNotUnderstoodValue) return SpecialValue::kNotUnderstood;
  return SpecialValue::kNone;
}

std::optional<std::uint64_t> parse_numerical(std::string_view v) {
  std::uint64_t n = 0;
  if (has_prefix(v, 'x')) {
    const std::string_view digits = v.substr(2);
    if (digits.empty()) return std::nullopt;
    for (const char c : digits) {
      const int d = hex_digit(c);
      if (d < 0 || n >> 60 != 0) return std::nullopt;
      n = n << 4 | static_cast<std::uint64_t>(d);
    }
    return n;
  }
  if (v.empty() || (v.size() > 1 && v[0] == '0')) return std::nullopt;
  for (const char c : v) {
    if (c < '0' || c > '9') return std::nullopt;
    const auto d = static_cast<std::uint64_t>(c - '0');
    if (n > (UINT64_MAX - d) / 10) return std::nullopt;
    n = n * 10 + d;
  }
  return n;
}

std::optional<std::vector<std::uint8_t>> parse_large_numerical(std::string_view v) {
  if (has_prefix(v, 'x')) return decode_hex(v.substr(2));
  if (has_prefix(v, 'b')) return decode_base64(v.substr(2));
  return std::nullopt;
}

std::string format_hex(std::span<const std::uint8_t> bytes) {
  static constexpr char kDigits[] = "0123456789abcdef";
  std::string out = "0x";
  for (const std::uint8_t b : bytes) {
    out.push_back(kDigits[b >> 4]);
    out.push_back(kDigits[b & 0xF]);
  }
  return out;
}

std::optional<bool> parse_boolean(std::string_view value) {
  if (value == "Yes") return true;
  if (value == "No") return false;
  return std::nullopt;
}

std::vector<std::string_view> split_value_list(std::string_view value) {
  std::vector<std::string_view> items;
  if (value.empty()) return items;
  std::size_t pos = 0;
  while (true) {
    const std::size_t comma = value.find(',', pos);
    items.push_back(value.substr(pos, comma - pos));
    if (comma == std::string_view::npos) return items;
    pos = comma + 1;
  }
}

std::string join_value_list(std::span<const std::string_view> items) {
  std::string out;
  for (std::size_t i = 0; i < items.size(); ++i) {
    if (i != 0) out.push_back(',');
    out.append(items[i]);
  }
  return out;
}

}  // namespace memstore::iscsi
