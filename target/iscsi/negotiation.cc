// SPDX-License-Identifier: Apache-2.0
#include "target/iscsi/negotiation.h"

#include <algorithm>

namespace memstore::iscsi {
namespace {

using enum KeyType;

std::string num(std::uint64_t n) {
  return std::to_string(n);
}

std::string digest_values(bool crc32c) {
  return crc32c ? "CRC32C,None" : "None";
}

std::string_view find(const KeyList& keys, std::string_view name) {
  for (const auto& [k, v] : keys) {
    if (k == name) return v;
  }
  return {};
}

bool has(const KeyList& keys, std::string_view name) {
  return std::any_of(keys.begin(), keys.end(),
                     [&](const KeyValue& kv) { return kv.first == name; });
}

Negotiation::Result failure(LoginStatus status, std::string reason) {
  return {{}, status, std::move(reason)};
}

std::uint32_t as_u32(const std::string& v, std::uint32_t fallback) {
  const auto n = parse_number(v);
  return n && *n <= UINT32_MAX ? static_cast<std::uint32_t>(*n) : fallback;
}

}  // namespace

bool initiator_allowed(const std::vector<std::string>& acl, std::string_view initiator_name) {
  if (acl.empty()) return true;
  const auto lower = [](char c) { return c >= 'A' && c <= 'Z' ? static_cast<char>(c + 32) : c; };
  return std::any_of(acl.begin(), acl.end(), [&](const std::string& entry) {
    return std::equal(entry.begin(), entry.end(), initiator_name.begin(), initiator_name.end(),
                      [&](char a, char b) { return lower(a) == lower(b); });
  });
}

Negotiation::Negotiation(LoginConfig config, bool leading, RandomSource random)
    : config_(std::move(config)), leading_(leading), random_(std::move(random)) {
  TargetLimits& l = config_.limits;
  l.max_burst_length = std::clamp<std::uint32_t>(l.max_burst_length, 512, (1U << 24) - 1);
  l.first_burst_length = std::clamp<std::uint32_t>(l.first_burst_length, 512, l.max_burst_length);
  const auto table = key_table();
  keys_.resize(table.size());
  ours_.resize(table.size());
  for (const KeyDef& def : table) keys_[key_index(def)].value = std::string(def.default_value);
  // The target's side of each result function (§13); AuthMethod is decided
  // per session type in target_side().
  const std::pair<std::string_view, std::string> ours[] = {
      {"HeaderDigest", digest_values(l.header_digest_crc32c)},
      {"DataDigest", digest_values(l.data_digest_crc32c)},
      {"MaxConnections", num(l.max_connections)},
      {"InitialR2T", std::string(yes_no(l.require_initial_r2t))},
      {"ImmediateData", std::string(yes_no(l.allow_immediate_data))},
      {"MaxRecvDataSegmentLength", num(l.max_recv_data_segment_length)},
      {"MaxBurstLength", num(l.max_burst_length)},
      {"FirstBurstLength", num(l.first_burst_length)},
      {"DefaultTime2Wait", num(l.default_time2wait)},
      {"DefaultTime2Retain", num(l.default_time2retain)},
      {"MaxOutstandingR2T", num(l.max_outstanding_r2t)},
      {"DataPDUInOrder", std::string(yes_no(l.require_in_order))},
      {"DataSequenceInOrder", std::string(yes_no(l.require_in_order))},
      {"ErrorRecoveryLevel", num(l.error_recovery_level)},
      {"TaskReporting", "RFC3720"},
      {"iSCSIProtocolLevel", num(l.protocol_level)},
  };
  for (const auto& [name, v] : ours) ours_[key_index(*find_key(name))] = v;
}

const std::string& Negotiation::value(std::string_view key) const {
  return keys_[key_index(*find_key(key))].value;
}

bool Negotiation::discovery() const {
  return value("SessionType") == "Discovery";
}

bool Negotiation::auth_required() const {
  return discovery() ? config_.security.discovery_chap.has_value()
                     : config_.security.chap.has_value();
}

std::string Negotiation::target_side(const KeyDef& def) const {
  if (def.name == "AuthMethod") return auth_required() ? "CHAP" : "None";
  return ours_[key_index(def)];
}

bool Negotiation::awaiting_answers() const {
  return std::any_of(keys_.begin(), keys_.end(), [](const KeyState& s) { return s.offered; });
}

// RFC 7143 §13.4, §13.5, §13.21: identity comes in the first Login Request;
// §11.13.5 gives the status for each way it can be wrong.
Negotiation::Result Negotiation::check_first_request(const KeyList& offered) {
  if (!has(offered, "InitiatorName")) return failure(kMissingParameter, "no InitiatorName");
  const std::string_view type =
      has(offered, "SessionType") ? find(offered, "SessionType") : "Normal";
  if (type != "Normal" && (type != "Discovery" || !config_.limits.allow_discovery)) {
    return failure(kSessionTypeNotSupported, "session type not supported");
  }
  keys_[key_index(*find_key("SessionType"))].value = std::string(type);
  if (discovery()) return {};
  if (!has(offered, "TargetName")) return failure(kMissingParameter, "no TargetName");
  if (find(offered, "TargetName") != config_.limits.target_name) {
    return failure(kTargetNotFound, "unknown TargetName");
  }
  if (!initiator_allowed(config_.security.acl, find(offered, "InitiatorName"))) {
    return failure(kAuthorizationFailure, "initiator not in the ACL");
  }
  return {};
}

Negotiation::Result Negotiation::respond(const KeyList& offered, Phase phase) {
  if (phase == Phase::kFullFeature) {
    if (first_request_) return failure(kInitiatorError, "text negotiation before login");
    for (KeyState& s : keys_) s.received = false;  // each Text exchange stands alone
  } else if (first_request_) {
    Result r = check_first_request(offered);
    if (!r.ok()) return r;
    first_request_ = false;
  } else {
    for (const KeyDef& def : key_table()) {
      if (def.first_request_only && has(offered, def.name)) {
        return failure(kInitiatorError, std::string(def.name) + " after the first Login Request");
      }
    }
  }
  // §6.3: leaving the security stage requires the chosen authentication.
  if (phase != Phase::kSecurity && auth_required() && !authenticated_) {
    return failure(kAuthenticationFailure, "authentication required but not completed");
  }
  Result r;
  KeyList chap_keys;
  for (const auto& [k, v] : offered) {
    if (!valid_key_name(k)) return failure(kInitiatorError, "malformed key name");
    const KeyDef* def = find_key(k);
    if (def == nullptr) {  // includes X- and X# extension keys (§13.22)
      r.keys.emplace_back(k, "NotUnderstood");
      continue;
    }
    KeyState& st = keys_[key_index(*def)];
    if (st.offered) {
      answer_target_offer(*def, v, r);
    } else if (st.received) {
      return failure(kInitiatorError, k + " sent twice");  // §6.2: no renegotiation
    } else if ((def->phases & phase_bit(phase)) == 0) {
      return failure(kInitiatorError, k + " not allowed in this stage");
    } else if (!def->initiator_sends) {
      return failure(kInitiatorError, k + " is sent by targets only");
    } else if (def->leading_only && !leading_) {
      return failure(kInitiatorError, k + " only on the leading connection");
    } else if (def->type == kChap) {
      chap_keys.emplace_back(k, v);
    } else if (v.size() > kMaxValueBytes) {
      return failure(kInitiatorError, k + " value longer than 255 bytes");
    } else {
      answer(*def, v, r);
    }
    st.received = true;
    if (!r.ok()) return r;
  }
  if (!chap_keys.empty()) run_chap(chap_keys, r);
  if (r.ok()) check_burst_lengths(r);
  if (r.ok()) add_target_keys(phase, r);
  return r;
}

void Negotiation::answer(const KeyDef& def, std::string_view v, Result& r) {
  const std::string name(def.name);
  KeyState& st = keys_[key_index(def)];
  if (def.type == kObsolete) {  // §13.25
    r.keys.emplace_back(name, "Reject");
  } else if (def.type == kSendTargets) {
    answer_send_targets(v, r);
  } else if (discovery() && def.discovery_irrelevant) {
    r.keys.emplace_back(name, "Irrelevant");
  } else if (def.type == kDeclarative) {
    if (value_in_range(def, v)) {
      st.value = std::string(v);
    } else {
      r.keys.emplace_back(name, "Reject");
    }
  } else {
    std::string result = negotiate_value(def, v, target_side(def));
    if (result != "Reject") st.value = result;
    if (def.name == "AuthMethod") {
      if (result == "Reject") {
        r.status = kAuthenticationFailure;
        r.reason = "no acceptable AuthMethod";
      } else if (result == "CHAP") {
        chap_.emplace(discovery() ? *config_.security.discovery_chap : *config_.security.chap,
                      random_);
      } else {
        authenticated_ = true;  // "None" is only chosen when no CHAP is configured
      }
    }
    r.keys.emplace_back(name, std::move(result));
  }
}

// The initiator answers a key we offered: the answer must be one our offer
// allows (§6.2); a Reject leaves a default we cannot work with.
void Negotiation::answer_target_offer(const KeyDef& def, std::string_view v, Result& r) {
  KeyState& st = keys_[key_index(def)];
  st.offered = false;
  if (!value_in_range(def, v) || negotiate_value(def, v, target_side(def)) != v) {
    r.status = kInitiatorError;
    r.reason = std::string(def.name) + "=" + std::string(v) + " does not answer our offer";
    return;
  }
  st.value = std::string(v);
}

void Negotiation::run_chap(const KeyList& chap_keys, Result& r) {
  if (!chap_ || authenticated_) {
    r.status = kInitiatorError;
    r.reason = "CHAP keys without AuthMethod=CHAP";
    return;
  }
  ChapStep step = chap_->step(chap_keys);
  r.keys.insert(r.keys.end(), step.keys.begin(), step.keys.end());
  if (step.status == ChapStatus::kFailure) {
    r.status = kAuthenticationFailure;
    r.reason = std::move(step.reason);
  }
  authenticated_ = step.status == ChapStatus::kSuccess;
}

// §13.14: FirstBurstLength MUST NOT exceed MaxBurstLength. Clamp our answer
// when FirstBurstLength came in this request; offer it ourselves when it was
// never negotiated; fail when it was agreed earlier.
void Negotiation::check_burst_lengths(Result& r) {
  const std::string& max_burst = value("MaxBurstLength");
  KeyState& first = keys_[key_index(*find_key("FirstBurstLength"))];
  if (discovery() || as_u32(first.value, 0) <= as_u32(max_burst, 0)) return;
  const auto answered = std::find_if(r.keys.begin(), r.keys.end(), [](const KeyValue& kv) {
    return kv.first == "FirstBurstLength";
  });
  if (answered != r.keys.end()) {
    first.value = answered->second = max_burst;
  } else if (!first.received && !first.offered) {
    first.value = max_burst;
    first.offered = true;
    r.keys.emplace_back("FirstBurstLength", max_burst);
  } else {
    r.status = kInitiatorError;
    r.reason = "MaxBurstLength below the agreed FirstBurstLength";
  }
}

void Negotiation::add_target_keys(Phase phase, Result& r) {
  const TargetLimits& l = config_.limits;
  if (phase != Phase::kFullFeature && !declared_tpgt_ && !discovery()) {
    declared_tpgt_ = true;  // §13.9: in the first Login Response of a normal session
    r.keys.emplace_back("TargetPortalGroupTag", num(l.target_portal_group_tag));
    if (l.target_alias) r.keys.emplace_back("TargetAlias", *l.target_alias);
  }
  if (phase != Phase::kOperational || declared_operational_) return;
  declared_operational_ = true;
  r.keys.emplace_back("MaxRecvDataSegmentLength", num(l.max_recv_data_segment_length));
  // Offer our value wherever the RFC default is something we cannot accept.
  for (const KeyDef& def : key_table()) {
    KeyState& st = keys_[key_index(def)];
    const bool negotiated = def.type == kBoolAnd || def.type == kBoolOr || def.type == kNumMin ||
                            def.type == kNumMax || def.type == kList;
    if (!negotiated || !def.target_offers || !(def.phases & kInOperational) || st.received ||
        st.offered || (discovery() && def.discovery_irrelevant) ||
        (def.leading_only && !leading_)) {
      continue;
    }
    const std::string ours = target_side(def);
    if (negotiate_value(def, def.default_value, ours) == def.default_value) continue;
    st.offered = true;
    r.keys.emplace_back(std::string(def.name), ours);
  }
}

// Whether this session may learn that a target exists. RFC 7143 §12 leaves
// it to the target; memstored does what tgt's ACLs and LIO without demo-mode
// discovery do: a target is listed only to initiators its ACL lets in. A
// target that requires CHAP is listed when discovery itself authenticated
// with CHAP, or when discovery requires no authentication at all: open-iscsi
// users discover first and then put the target's CHAP secret in the node
// record, as with tgt and LIO, and the target's own login still demands it.
bool Negotiation::listable(const DiscoveryEntry& e) const {
  if (!initiator_allowed(e.acl, value("InitiatorName"))) return false;
  if (e.requires_chap && discovery() && auth_required() && !authenticated_) return false;
  return true;
}

// RFC 7143 Appendix C: "All" lists every target (discovery sessions only), a
// name lists that target, an empty value lists the session's own target.
// Only targets this initiator may see are listed (listable).
void Negotiation::answer_send_targets(std::string_view v, Result& r) const {
  const bool all = v == "All";
  std::string_view wanted = v;
  if (v.empty() && !discovery()) wanted = config_.limits.target_name;
  if ((all && !discovery()) || wanted.empty()) {
    r.keys.emplace_back("SendTargets", "Reject");
    return;
  }
  for (const DiscoveryEntry& e : config_.send_targets) {
    if (!all && e.target_name != wanted) continue;
    if (!listable(e)) continue;
    r.keys.emplace_back("TargetName", e.target_name);
    for (const std::string& a : e.addresses) r.keys.emplace_back("TargetAddress", reachable(a));
  }
}

// "0.0.0.0:3260,1" or "[::]:3260,1" with the connection's own address in
// place of the wildcard (LoginConfig::local_host); any other as it is.
std::string Negotiation::reachable(const std::string& address) const {
  if (config_.local_host.empty()) return address;
  for (const std::string_view wildcard : {"0.0.0.0:", "[::]:"}) {
    if (address.starts_with(wildcard)) {
      const std::string host = config_.local_host.find(':') != std::string::npos
                                   ? "[" + config_.local_host + "]"
                                   : config_.local_host;
      return host + address.substr(wildcard.size() - 1);
    }
  }
  return address;
}

Negotiation::Result Negotiation::ready_for_full_feature() const {
  if (first_request_) return failure(kMissingParameter, "no Login Request seen");
  if (auth_required() && !authenticated_) {
    return failure(kAuthenticationFailure, "authentication not completed");
  }
  if (awaiting_answers()) return failure(kInitiatorError, "target offers left unanswered");
  return {};
}

SessionParams Negotiation::params() const {
  SessionParams p;
  p.session_type = discovery() ? SessionType::kDiscovery : SessionType::kNormal;
  p.initiator_name = value("InitiatorName");
  p.initiator_alias = value("InitiatorAlias");
  p.target_name = value("TargetName");
  p.header_digest = value("HeaderDigest") == "CRC32C";
  p.data_digest = value("DataDigest") == "CRC32C";
  if (declared_operational_) {
    p.target_max_recv_data_segment_length = config_.limits.max_recv_data_segment_length;
  }
  p.initiator_max_recv_data_segment_length = as_u32(value("MaxRecvDataSegmentLength"), 8192);
  p.max_burst_length = as_u32(value("MaxBurstLength"), p.max_burst_length);
  p.first_burst_length = as_u32(value("FirstBurstLength"), p.first_burst_length);
  p.initial_r2t = value("InitialR2T") == "Yes";
  p.immediate_data = value("ImmediateData") == "Yes";
  p.max_outstanding_r2t = as_u32(value("MaxOutstandingR2T"), 1);
  p.data_pdu_in_order = value("DataPDUInOrder") == "Yes";
  p.data_sequence_in_order = value("DataSequenceInOrder") == "Yes";
  p.default_time2wait = as_u32(value("DefaultTime2Wait"), 2);
  p.default_time2retain = as_u32(value("DefaultTime2Retain"), 20);
  p.error_recovery_level = as_u32(value("ErrorRecoveryLevel"), 0);
  p.max_connections = as_u32(value("MaxConnections"), 1);
  p.protocol_level = as_u32(value("iSCSIProtocolLevel"), 0);
  return p;
}

std::vector<std::pair<std::string, std::string>> params_keys(const SessionParams& p) {
  const auto yes_no = [](bool b) { return std::string(b ? "Yes" : "No"); };
  const auto digest = [](bool b) { return std::string(b ? "CRC32C" : "None"); };
  const auto n = [](std::uint32_t v) { return std::to_string(v); };
  return {{"SessionType", p.session_type == SessionType::kDiscovery ? "Discovery" : "Normal"},
          {"HeaderDigest", digest(p.header_digest)},
          {"DataDigest", digest(p.data_digest)},
          {"MaxRecvDataSegmentLength", n(p.target_max_recv_data_segment_length)},
          {"MaxXmitDataSegmentLength", n(p.initiator_max_recv_data_segment_length)},
          {"MaxBurstLength", n(p.max_burst_length)},
          {"FirstBurstLength", n(p.first_burst_length)},
          {"InitialR2T", yes_no(p.initial_r2t)},
          {"ImmediateData", yes_no(p.immediate_data)},
          {"MaxOutstandingR2T", n(p.max_outstanding_r2t)},
          {"DataPDUInOrder", yes_no(p.data_pdu_in_order)},
          {"DataSequenceInOrder", yes_no(p.data_sequence_in_order)},
          {"DefaultTime2Wait", n(p.default_time2wait)},
          {"DefaultTime2Retain", n(p.default_time2retain)},
          {"ErrorRecoveryLevel", n(p.error_recovery_level)},
          {"MaxConnections", n(p.max_connections)}};
}

std::string params_text(const SessionParams& p) {
  std::string text;
  for (const auto& [key, value] : params_keys(p)) {
    text += (text.empty() ? "" : ", ") + key + "=" + value;
  }
  return text;
}

}  // namespace memstore::iscsi
