// SPDX-License-Identifier: Apache-2.0
// Login and text negotiation, target side (RFC 7143 §6, §11.12-11.13, §13).
// A Negotiation lives for one connection's login (and its later Text
// exchanges): it answers each key list, keeps what has been agreed, and
// reports failures as the Login Response status class/detail (§11.13.5).
//
// Answers: every negotiated key the initiator offers is answered exactly once,
// in offer order; declarative keys (§6.2) are not answered unless refused
// ("Reject") or irrelevant; unknown keys get "NotUnderstood". The target's own
// declarations and offers follow the answers.
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

#include "target/iscsi/chap.h"
#include "target/iscsi/keys.h"

namespace memstore::iscsi {

// Login Response status (RFC 7143 §11.13.5): class in the high byte.
struct LoginStatus {
  std::uint8_t status_class = 0;
  std::uint8_t detail = 0;
  constexpr bool ok() const { return status_class == 0; }
  constexpr std::uint16_t code() const {
    return static_cast<std::uint16_t>(status_class << 8 | detail);
  }
  friend constexpr bool operator==(LoginStatus, LoginStatus) = default;
};
inline constexpr LoginStatus kLoginSuccess{0x00, 0x00};
inline constexpr LoginStatus kInitiatorError{0x02, 0x00};
inline constexpr LoginStatus kAuthenticationFailure{0x02, 0x01};
inline constexpr LoginStatus kAuthorizationFailure{0x02, 0x02};
inline constexpr LoginStatus kTargetNotFound{0x02, 0x03};
inline constexpr LoginStatus kMissingParameter{0x02, 0x07};
inline constexpr LoginStatus kSessionTypeNotSupported{0x02, 0x09};
inline constexpr LoginStatus kTargetError{0x03, 0x00};

// What this target supports and prefers; each value is the target's side of
// the key's result function (table in keys.cc).
struct TargetLimits {
  std::string target_name;  // the TargetName a normal session must ask for
  std::optional<std::string> target_alias;
  std::uint16_t target_portal_group_tag = 1;
  std::uint32_t max_recv_data_segment_length = 262144;  // what we can receive
  std::uint32_t max_burst_length = (1U << 24) - 1;
  // Unsolicited data per command: as much as one PDU carries, so that a
  // write of up to 256 KiB goes out with its command and needs no R2T
  // round trip (RFC 7143 §13.14; a session's commands hold at most
  // max_tasks of these, as they could hold solicited data).
  std::uint32_t first_burst_length = 262144;
  std::uint32_t max_connections = 1;
  std::uint32_t max_outstanding_r2t = 1;
  std::uint8_t error_recovery_level = 0;
  std::uint16_t default_time2wait = 2;
  std::uint16_t default_time2retain = 20;
  bool header_digest_crc32c = true;  // offer CRC32C besides None
  bool data_digest_crc32c = true;
  bool require_initial_r2t = false;  // InitialR2T: OR with this
  bool allow_immediate_data = true;  // ImmediateData: AND with this
  bool require_in_order = true;      // DataPDUInOrder / DataSequenceInOrder: OR with this
  std::uint8_t protocol_level = 1;   // RFC 7144 §2.1: RFC 7143 = 1
  bool allow_discovery = true;
};

struct SecurityConfig {
  std::optional<ChapConfig> chap;            // CHAP required for normal sessions
  std::optional<ChapConfig> discovery_chap;  // CHAP required for discovery sessions
  std::vector<std::string> acl;              // initiator names; empty = everyone
};

// One answer to SendTargets (RFC 7143 Appendix C): a target name and its
// addresses ("host:port,tpgt", §13.8), and who may see it: a discovery
// session lists a target only to an initiator its ACL lets in, and a target
// that requires CHAP only when discovery itself either authenticated with
// CHAP or requires no authentication (Negotiation::listable).
struct DiscoveryEntry {
  std::string target_name;
  std::vector<std::string> addresses;
  std::vector<std::string> acl;  // the target's ACL; empty = everyone
  bool requires_chap = false;    // the target's own logins require CHAP

  // Discovery lists a target only to whom may log in to it: the entry takes
  // the target's access rules whenever they are set or changed.
  void follow(const SecurityConfig& target_security) {
    acl = target_security.acl;
    requires_chap = target_security.chap.has_value();
  }
};

struct LoginConfig {
  TargetLimits limits;
  SecurityConfig security;
  std::vector<DiscoveryEntry> send_targets;
  // The address this connection came to. SendTargets names it in place of a
  // wildcard portal's (0.0.0.0, ::), which no initiator can connect to: the
  // TargetAddress must be one the initiator reaches (RFC 7143 §13.8,
  // Appendix C). Empty: addresses as configured.
  std::string local_host;
};

enum class SessionType : std::uint8_t { kNormal, kDiscovery };

// The negotiated session and connection parameters; RFC defaults until
// negotiated.
struct SessionParams {
  SessionType session_type = SessionType::kNormal;
  std::string initiator_name, initiator_alias, target_name;
  bool header_digest = false;  // CRC32C
  bool data_digest = false;
  std::uint32_t target_max_recv_data_segment_length = 8192;     // initiator may send this much
  std::uint32_t initiator_max_recv_data_segment_length = 8192;  // we may send this much
  std::uint32_t max_burst_length = 262144;
  std::uint32_t first_burst_length = 65536;
  bool initial_r2t = true;
  bool immediate_data = true;
  std::uint32_t max_outstanding_r2t = 1;
  bool data_pdu_in_order = true;
  bool data_sequence_in_order = true;
  std::uint32_t default_time2wait = 2;
  std::uint32_t default_time2retain = 20;
  std::uint32_t error_recovery_level = 0;
  std::uint32_t max_connections = 1;
  std::uint32_t protocol_level = 0;
};

// The parameters by their RFC 7143 key names, in the order of §13, as
// `memsctl admin sessions` lists them; from the target's side:
// MaxRecvDataSegmentLength is what the target declared (the most the
// initiator may send in one PDU), MaxXmitDataSegmentLength what the
// initiator declared (the most the target sends), as open-iscsi names the
// pair from its side.
std::vector<std::pair<std::string, std::string>> params_keys(const SessionParams& p);
// The same as a log line shows them ("HeaderDigest=CRC32C, DataDigest=None, ...").
std::string params_text(const SessionParams& p);

// ACL check by initiator name; empty ACL = everyone. iSCSI names compare
// ASCII case-insensitively (they are case-folded by RFC 3722 stringprep).
bool initiator_allowed(const std::vector<std::string>& acl, std::string_view initiator_name);

class Negotiation {
 public:
  struct Result {
    KeyList keys;  // the response keys, in order
    LoginStatus status = kLoginSuccess;
    std::string reason;  // for the log, on failure
    bool ok() const { return status.ok(); }
  };

  // `leading`: the connection's login creates the session (TSIH 0); LO keys
  // are refused otherwise.
  explicit Negotiation(LoginConfig config, bool leading = true,
                       RandomSource random = system_random);

  // Answers the keys of one Login Request (phase = its CSG) or Text Request
  // (kFullFeature). On failure the login must end with `status`.
  Result respond(const KeyList& offered, Phase phase);

  // Whether the login may enter the full feature phase now: identity and
  // authentication complete and no target offer awaits its answer.
  Result ready_for_full_feature() const;

  bool authenticated() const { return authenticated_; }
  bool awaiting_answers() const;
  SessionParams params() const;

 private:
  struct KeyState {
    std::string value;      // current value (RFC default until agreed)
    bool received = false;  // the initiator sent it in this login
    bool offered = false;   // we offered it and await the answer
  };
  std::string target_side(const KeyDef& def) const;
  bool auth_required() const;
  Result check_first_request(const KeyList& offered);
  bool discovery() const;
  void answer(const KeyDef& def, std::string_view value, Result& r);
  void answer_target_offer(const KeyDef& def, std::string_view value, Result& r);
  void run_chap(const KeyList& chap_keys, Result& r);
  void check_burst_lengths(Result& r);
  void add_target_keys(Phase phase, Result& r);
  void answer_send_targets(std::string_view value, Result& r) const;
  std::string reachable(const std::string& address) const;
  bool listable(const DiscoveryEntry& e) const;
  const std::string& value(std::string_view key) const;

  LoginConfig config_;
  bool leading_;
  RandomSource random_;
  std::vector<KeyState> keys_;     // one per key_table() row
  std::vector<std::string> ours_;  // the target's side of each key, from config_.limits
  bool first_request_ = true;
  bool declared_tpgt_ = false;
  bool declared_operational_ = false;
  bool authenticated_ = false;
  std::optional<ChapAuthenticator> chap_;
};

}  // namespace memstore::iscsi
