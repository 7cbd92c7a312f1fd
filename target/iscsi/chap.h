// SPDX-License-Identifier: Apache-2.0
// CHAP authentication of an iSCSI login, target side (RFC 7143 §12.1.3 on top
// of RFC 1994). One ChapAuthenticator per connection login:
//
//   I->T  CHAP_A=<A1,A2,...>
//   T->I  CHAP_A=5  CHAP_I=<id>  CHAP_C=<challenge>
//   I->T  CHAP_N=<name>  CHAP_R=<MD5(id || secret || challenge)>
//         [CHAP_I=<id2>  CHAP_C=<challenge2>]           (mutual CHAP)
//   T->I  [CHAP_N=<target name>  CHAP_R=<MD5(id2 || target secret || challenge2)>]
//
// Binary values are "0x" hex or "0b" base64 (RFC 7143 §6.1); we send hex.
// Only MD5 (CHAP_A=5) is supported.
#pragma once

#include <cstdint>
#include <functional>
#include <optional>
#include <span>
#include <string>
#include <string_view>
#include <vector>

#include "base/expected.h"
#include "target/iscsi/keys.h"

namespace memstore::iscsi {

struct ChapConfig {
  std::string user;    // the CHAP_N the initiator must present
  std::string secret;  // the initiator's secret
  // Mutual CHAP: the CHAP_N we present and the secret we prove. Without them,
  // an initiator asking for mutual authentication is refused.
  std::optional<std::string> mutual_user;
  std::optional<std::string> mutual_secret;
  // RFC 7143 §9.2.1 asks for secrets of at least 96 bits; shorter ones are
  // refused by validate_chap_config() unless this is set (test rigs only).
  bool allow_short_secrets = false;
};

inline constexpr std::size_t kMinChapSecretBytes = 12;
// At most as long as a text value (RFC 7143 §6.1); beyond 128 bits of
// entropy a longer secret adds no strength to an MD5 response anyway.
inline constexpr std::size_t kMaxChapSecretBytes = 255;
// CHAP_N carries a name as a text value: at most 255 bytes (§6.1).
inline constexpr std::size_t kMaxChapNameBytes = 255;
inline constexpr std::size_t kChapChallengeBytes = 16;
inline constexpr std::size_t kMaxChapBinaryBytes = 1024;

// An error sentence, or std::nullopt when the configuration is usable: user
// and secret set; secrets >= 12 bytes unless allowed, and at most 255;
// names at most 255 bytes; mutual user and secret both or neither; the
// mutual secret differs from the initiator's (RFC 7143 §9.2.1: one secret
// must never authenticate both directions).
Status validate_chap_config(const ChapConfig& config);

// Fills the span with unpredictable bytes. The default reads getrandom(2).
using RandomSource = std::function<void(std::span<std::uint8_t>)>;
void system_random(std::span<std::uint8_t> out);

// Binary value codecs (RFC 7143 §6.1): "0x"/"0X" hex (an odd digit count
// means an implied leading zero) or "0b"/"0B" base64 with padding.
std::optional<std::vector<std::uint8_t>> decode_binary(std::string_view value);
std::string encode_hex(std::span<const std::uint8_t> bytes);  // "0x" + lowercase hex

// RFC 1994 §4.1: MD5(identifier || secret || challenge).
std::vector<std::uint8_t> chap_md5_response(std::uint8_t id, std::string_view secret,
                                            std::span<const std::uint8_t> challenge);

enum class ChapStatus : std::uint8_t { kContinue, kSuccess, kFailure };

struct ChapStep {
  KeyList keys;  // keys to send in the Login Response
  ChapStatus status = ChapStatus::kContinue;
  std::string reason;  // why, on kFailure (for the log; never sent)
};

class ChapAuthenticator {
 public:
  // REQUIRES: validate_chap_config(config).ok().
  explicit ChapAuthenticator(ChapConfig config, RandomSource random = system_random);

  // Feeds the CHAP_* keys of one Login Request, in order. Non-CHAP keys must
  // not be passed. After kSuccess or kFailure every further step fails.
  ChapStep step(const KeyList& keys);

  // The challenge we sent (empty before it is sent): for tests and logs.
  std::span<const std::uint8_t> challenge() const { return challenge_; }

 private:
  enum class State : std::uint8_t { kWaitAlgorithm, kWaitResponse, kDone };
  ChapStep choose_algorithm(const KeyList& keys);
  ChapStep verify_response(const KeyList& keys);

  ChapConfig config_;
  RandomSource random_;
  State state_ = State::kWaitAlgorithm;
  std::uint8_t id_ = 0;
  std::vector<std::uint8_t> challenge_;
};

}  // namespace memstore::iscsi
