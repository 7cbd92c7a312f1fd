// SPDX-License-Identifier: Apache-2.0
// A refused login, as the session reports it for the operator's log
// (docs/memstored.md, "Limits and security"): what kind of refusal, who
// asked (the InitiatorName it sent and its address), for which target, and
// why. The daemon writes these rate-limited (target/daemon/security_log.h);
// the session only reports them.
#pragma once

#include <cstdint>
#include <functional>
#include <string_view>

#include "target/iscsi/negotiation.h"

namespace memstore::iscsi {

enum class SecurityKind : std::uint8_t {
  kLogin,  // any other refused login: unknown target, malformed or missing keys
  kChap,   // authentication failed (02/01): a wrong or missing CHAP answer
  kAcl,    // authorization failed (02/02): the initiator is not in the target's ACL
};
inline constexpr std::size_t kSecurityKinds = 3;

// By the Login Response status class and detail (RFC 7143 §11.13.5).
constexpr SecurityKind security_kind(LoginStatus status) {
  if (status == kAuthenticationFailure) return SecurityKind::kChap;
  if (status == kAuthorizationFailure) return SecurityKind::kAcl;
  return SecurityKind::kLogin;
}

constexpr const char* security_kind_name(SecurityKind k) {
  switch (k) {
    case SecurityKind::kChap:
      return "CHAP";
    case SecurityKind::kAcl:
      return "ACL";
    case SecurityKind::kLogin:
      break;
  }
  return "login";
}

// The views live only for the call. `initiator` and `target` are what the
// initiator sent: untrusted text (scsi::loggable before printing).
struct SecurityEvent {
  SecurityKind kind = SecurityKind::kLogin;
  LoginStatus status;
  std::string_view initiator;  // InitiatorName; empty when none was sent
  std::string_view peer;       // "address:port" of the connection
  std::string_view target;     // TargetName asked for; empty for discovery
  std::string_view reason;     // why, in words
};

using SecurityLog = std::function<void(const SecurityEvent&)>;

}  // namespace memstore::iscsi
