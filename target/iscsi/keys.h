// SPDX-License-Identifier: Apache-2.0
// The iSCSI login/text keys as data (RFC 7143 §6, §12, §13; RFC 7144 §2).
// Each key is one KeyDef row: where it may appear, who may send it, how two
// values combine, its range and its RFC default. The negotiation engine
// (negotiation.h) walks this table; nothing else compares key names.
//
// Text format (RFC 7143 §6.1): key=value pairs; values are decimal or 0x hex
// numbers, "Yes"/"No", comma-separated lists, or the reserved constants
// "Reject", "Irrelevant", "NotUnderstood" and "None".
#pragma once

#include <cstdint>
#include <optional>
#include <span>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

#include "target/iscsi/text_keys.h"

namespace memstore::iscsi {

using KeyValue = std::pair<std::string, std::string>;
using KeyList = std::vector<KeyValue>;

// Between a data segment's parsed key=value pairs (text_keys.h) and the
// key lists negotiation works on, both ways.
KeyList to_keys(const std::vector<TextPair>& pairs);
std::vector<std::uint8_t> to_text(const KeyList& keys);

// The stage a key list arrives in: login CSG 0 and 1 (RFC 7143 §11.12.3) or a
// Text Request in the full feature phase.
enum class Phase : std::uint8_t { kSecurity = 1, kOperational = 2, kFullFeature = 4 };

enum class Scope : std::uint8_t { kSession, kConnection };

enum class KeyType : std::uint8_t {
  kBoolAnd,      // result = offer AND ours (§6.2.2)
  kBoolOr,       // result = offer OR ours
  kNumMin,       // result = min(offer, ours)
  kNumMax,       // result = max(offer, ours)
  kList,         // first value of the offer's list that we accept (§6.2.1)
  kDeclarative,  // the sender states its value, no answer (§6.2)
  kChap,         // CHAP exchange keys, handled by ChapAuthenticator (§12.1.3)
  kSendTargets,  // the discovery request (§13.3, Appendix C)
  kObsolete,     // markers, obsoleted by RFC 7143 §13.25: answered "Reject"
};

// Bits of KeyDef::phases.
inline constexpr std::uint8_t kInSecurity = 1;
inline constexpr std::uint8_t kInOperational = 2;
inline constexpr std::uint8_t kInFullFeature = 4;
inline constexpr std::uint8_t kInLogin = kInSecurity | kInOperational;
constexpr std::uint8_t phase_bit(Phase p) {
  return static_cast<std::uint8_t>(p);
}

struct KeyDef {
  std::string_view name;
  std::uint8_t phases;  // kIn* bits
  Scope scope;
  KeyType type;
  bool leading_only;          // "LO": only on the leading connection's login
  bool initiator_sends;       // the initiator may send it
  bool target_offers;         // the target may originate it (offer or declaration)
  bool discovery_irrelevant;  // answered "Irrelevant" in a discovery session
  std::uint64_t min = 0;      // numerical range (kNum*, numeric kDeclarative)
  std::uint64_t max = 0;      // 0 = not numerical
  std::string_view default_value;
  std::string_view values;          // kList / enumerated declarative: the legal values
  bool first_request_only = false;  // must come in the connection's first Login Request
};

// The whole table, in RFC section order.
std::span<const KeyDef> key_table();
// nullptr for keys not in the table (answered "NotUnderstood", §6.2).
const KeyDef* find_key(std::string_view name);
// Index of `def` in key_table().
std::size_t key_index(const KeyDef& def);

// RFC 7143 §6.1: 1..63 characters from [A-Za-z0-9.+@_-], plus '#' for the
// "X#" extension keys of §13.22.
bool valid_key_name(std::string_view name);

// numerical-value: decimal-constant or hex-constant ("0x"), < 2^64.
std::optional<std::uint64_t> parse_number(std::string_view v);
// "Yes" / "No".
std::optional<bool> parse_bool(std::string_view v);
inline std::string_view yes_no(bool b) {
  return b ? "Yes" : "No";
}
// §6.1: a value is at most 255 bytes (CHAP binary values excepted, §12.1.3).
inline constexpr std::size_t kMaxValueBytes = 255;
// Splits a comma-separated list; empty elements are kept (and never match).
std::vector<std::string_view> split_list(std::string_view v);

// Whether `value` is legal for `def` (type, range, enumerated values).
// For kList: at least one element is legal.
bool value_in_range(const KeyDef& def, std::string_view value);

// The acceptor's answer when the peer offers `offer` and our own value is
// `ours` (for kList: our acceptable values, comma-separated, any order).
// Returns "Reject" for an offer that is malformed, out of range or (kList)
// has nothing acceptable. REQUIRES: def.type is kBool*, kNum* or kList.
std::string negotiate_value(const KeyDef& def, std::string_view offer, std::string_view ours);

}  // namespace memstore::iscsi
