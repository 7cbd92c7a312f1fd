// SPDX-License-Identifier: Apache-2.0
#include "target/iscsi/keys.h"

#include <algorithm>
#include <array>
#include <charconv>

namespace memstore::iscsi {

KeyList to_keys(const std::vector<TextPair>& pairs) {
  KeyList out;
  for (const TextPair& p : pairs) out.emplace_back(p.key, p.value);
  return out;
}

std::vector<std::uint8_t> to_text(const KeyList& keys) {
  std::vector<TextPair> pairs;
  for (const auto& [k, v] : keys) pairs.push_back({k, v});
  return serialize_text(pairs);
}

namespace {

constexpr std::uint64_t kMax24 = (1U << 24) - 1;  // 2^24 - 1, §13.12-13.14

using enum KeyType;
using enum Scope;

// clang-format off
// name, phases, scope, type, LO, I sends, T offers, irrelevant in discovery, min, max, default, values
constexpr std::array kKeys{
  // §12.1 security keys, connection scope.
  KeyDef{"AuthMethod", kInSecurity, kConnection, kList, false, true, true, false, 0, 0, "None",
         "KRB5,SRP,SPKM1,SPKM2,CHAP,None"},
  KeyDef{"CHAP_A", kInSecurity, kConnection, kChap, false, true, true, false, 0, 0, "", ""},
  KeyDef{"CHAP_I", kInSecurity, kConnection, kChap, false, true, true, false, 0, 0, "", ""},
  KeyDef{"CHAP_C", kInSecurity, kConnection, kChap, false, true, true, false, 0, 0, "", ""},
  KeyDef{"CHAP_N", kInSecurity, kConnection, kChap, false, true, true, false, 0, 0, "", ""},
  KeyDef{"CHAP_R", kInSecurity, kConnection, kChap, false, true, true, false, 0, 0, "", ""},
  // §13.1 digests: list, "IO" (login only), connection scope.
  KeyDef{"HeaderDigest", kInOperational, kConnection, kList, false, true, true, false, 0, 0,
         "None", "CRC32C,None"},
  KeyDef{"DataDigest", kInOperational, kConnection, kList, false, true, true, false, 0, 0,
         "None", "CRC32C,None"},
  KeyDef{"MaxConnections", kInOperational, kSession, kNumMin, true, true, true, true, 1, 65535,
         "1", ""},                                                                   // §13.2
  KeyDef{"SendTargets", kInFullFeature, kSession, kSendTargets, false, true, false, false, 0, 0,
         "", ""},                                                                    // §13.3
  KeyDef{"TargetName", kInLogin, kSession, kDeclarative, false, true, false, false, 0, 0, "",
         "", true},                                                                        // §13.4
  KeyDef{"InitiatorName", kInLogin, kSession, kDeclarative, false, true, false, false, 0, 0, "",
         "", true},                                                                        // §13.5
  KeyDef{"TargetAlias", kInLogin | kInFullFeature, kSession, kDeclarative, false, false, true,
         false, 0, 0, "", ""},                                                       // §13.6
  KeyDef{"InitiatorAlias", kInLogin | kInFullFeature, kSession, kDeclarative, false, true, false,
         false, 0, 0, "", ""},                                                       // §13.7
  KeyDef{"TargetAddress", kInLogin | kInFullFeature, kSession, kDeclarative, false, false, true,
         false, 0, 0, "", ""},                                                       // §13.8
  KeyDef{"TargetPortalGroupTag", kInLogin, kSession, kDeclarative, false, false, true, false, 0,
         65535, "", ""},                                                             // §13.9
  KeyDef{"InitialR2T", kInOperational, kSession, kBoolOr, true, true, true, true, 0, 0, "Yes",
         ""},                                                                        // §13.10
  KeyDef{"ImmediateData", kInOperational, kSession, kBoolAnd, true, true, true, true, 0, 0, "Yes",
         ""},                                                                        // §13.11
  // §13.12: declarative per direction; each side states what it can receive.
  KeyDef{"MaxRecvDataSegmentLength", kInOperational | kInFullFeature, kConnection, kDeclarative,
         false, true, true, false, 512, kMax24, "8192", ""},
  KeyDef{"MaxBurstLength", kInOperational, kSession, kNumMin, true, true, true, true, 512, kMax24,
         "262144", ""},                                                              // §13.13
  KeyDef{"FirstBurstLength", kInOperational, kSession, kNumMin, true, true, true, true, 512,
         kMax24, "65536", ""},                                                       // §13.14
  KeyDef{"DefaultTime2Wait", kInOperational, kSession, kNumMax, true, true, true, false, 0, 3600,
         "2", ""},                                                                   // §13.15
  KeyDef{"DefaultTime2Retain", kInOperational, kSession, kNumMin, true, true, true, false, 0,
         3600, "20", ""},                                                            // §13.16
  KeyDef{"MaxOutstandingR2T", kInOperational, kSession, kNumMin, true, true, true, true, 1, 65535,
         "1", ""},                                                                   // §13.17
  KeyDef{"DataPDUInOrder", kInOperational, kSession, kBoolOr, true, true, true, true, 0, 0, "Yes",
         ""},                                                                        // §13.18
  KeyDef{"DataSequenceInOrder", kInOperational, kSession, kBoolOr, true, true, true, true, 0, 0,
         "Yes", ""},                                                                 // §13.19
  KeyDef{"ErrorRecoveryLevel", kInOperational, kSession, kNumMin, true, true, true, false, 0, 2,
         "0", ""},                                                                   // §13.20
  // §13.21 says LO, but initiators declare it on every connection: accepted on all.
  KeyDef{"SessionType", kInLogin, kSession, kDeclarative, false, true, false, false, 0, 0,
         "Normal", "Discovery,Normal", true},
  KeyDef{"TaskReporting", kInOperational, kSession, kList, true, true, true, true, 0, 0,
         "RFC3720", "RFC3720,ResponseFence,FastAbort"},                              // §13.23
  KeyDef{"iSCSIProtocolLevel", kInOperational, kSession, kNumMin, false, true, true, false, 0, 31,
         "0", ""},                                                                   // RFC 7144 §2.1
  // §13.25: obsolete marker keys; RFC 7143 implementations answer "Reject".
  KeyDef{"OFMarker", kInOperational, kConnection, kObsolete, false, true, false, false, 0, 0, "",
         ""},
  KeyDef{"IFMarker", kInOperational, kConnection, kObsolete, false, true, false, false, 0, 0, "",
         ""},
  KeyDef{"OFMarkInt", kInOperational, kConnection, kObsolete, false, true, false, false, 0, 0, "",
         ""},
  KeyDef{"IFMarkInt", kInOperational, kConnection, kObsolete, false, true, false, false, 0, 0, "",
         ""},
};
// clang-format on

bool contains(std::string_view list, std::string_view v) {
  const auto items = split_list(list);
  return std::find(items.begin(), items.end(), v) != items.end();
}

}  // namespace

std::span<const KeyDef> key_table() {
  return kKeys;
}

const KeyDef* find_key(std::string_view name) {
  for (const KeyDef& k : kKeys) {
    if (k.name == name) return &k;  // key names are case sensitive (§6.1)
  }
  return nullptr;
}

std::size_t key_index(const KeyDef& def) {
  return static_cast<std::size_t>(&def - kKeys.data());
}

bool valid_key_name(std::string_view name) {
  if (name.empty() || name.size() > 63) return false;
  return std::all_of(name.begin(), name.end(), [](char c) {
    return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9') || c == '.' ||
           c == '-' || c == '+' || c == '@' || c == '_' || c == '#';
  });
}

std::optional<std::uint64_t> parse_number(std::string_view v) {
  int base = 10;
  if (v.size() > 2 && v[0] == '0' && (v[1] == 'x' || v[1] == 'X')) {
    v.remove_prefix(2);
    base = 16;
  }
  if (v.empty() || v.front() == '+' || v.front() == '-') return std::nullopt;
  std::uint64_t n = 0;
  const auto [end, ec] = std::from_chars(v.data(), v.data() + v.size(), n, base);
  if (ec != std::errc{} || end != v.data() + v.size()) return std::nullopt;
  return n;
}

std::optional<bool> parse_bool(std::string_view v) {
  if (v == "Yes") return true;
  if (v == "No") return false;
  return std::nullopt;
}

std::vector<std::string_view> split_list(std::string_view v) {
  std::vector<std::string_view> out;
  for (;;) {
    const std::size_t comma = v.find(',');
    out.push_back(v.substr(0, comma));
    if (comma == std::string_view::npos) return out;
    v.remove_prefix(comma + 1);
  }
}

bool value_in_range(const KeyDef& def, std::string_view value) {
  switch (def.type) {
    case kBoolAnd:
    case kBoolOr:
      return parse_bool(value).has_value();
    case kNumMin:
    case kNumMax: {
      const auto n = parse_number(value);
      return n && *n >= def.min && *n <= def.max;
    }
    case kList:
      for (std::string_view item : split_list(value)) {
        if (contains(def.values, item)) return true;
      }
      return false;
    case kDeclarative:
      if (def.max != 0) {
        const auto n = parse_number(value);
        return n && *n >= def.min && *n <= def.max;
      }
      return def.values.empty() ? !value.empty() : contains(def.values, value);
    case kChap:
    case kSendTargets:
    case kObsolete:
      return true;
  }
  return false;
}

std::string negotiate_value(const KeyDef& def, std::string_view offer, std::string_view ours) {
  if (!value_in_range(def, offer)) return "Reject";
  switch (def.type) {
    case kBoolAnd:
      return std::string(yes_no(*parse_bool(offer) && parse_bool(ours).value_or(false)));
    case kBoolOr:
      return std::string(yes_no(*parse_bool(offer) || parse_bool(ours).value_or(false)));
    case kNumMin:
    case kNumMax: {
      const std::uint64_t a = *parse_number(offer);
      const std::uint64_t b = parse_number(ours).value_or(a);
      return std::to_string(def.type == kNumMin ? std::min(a, b) : std::max(a, b));
    }
    case kList:
      // §6.2.1: the first value in the originator's order that we accept.
      for (std::string_view item : split_list(offer)) {
        if (!item.empty() && contains(ours, item)) return std::string(item);
      }
      return "Reject";
    default:
      return "Reject";
  }
}

}  // namespace memstore::iscsi
