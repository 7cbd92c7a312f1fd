// SPDX-License-Identifier: Apache-2.0
#include "target/iscsi/chap.h"

#include <openssl/crypto.h>
#include <openssl/evp.h>
#include <sys/random.h>

#include <cerrno>
#include <cstdlib>
#include <map>

#include "target/iscsi/text_keys.h"

namespace memstore::iscsi {
namespace {

constexpr std::uint64_t kChapMd5 = 5;  // RFC 1994 §2 / IANA PPP CHAP algorithm 5

ChapStep fail(std::string reason) {
  return {{}, ChapStatus::kFailure, std::move(reason)};
}

}  // namespace

Status validate_chap_config(const ChapConfig& c) {
  if (c.user.empty() || c.secret.empty()) return Error("CHAP needs a user name and a secret");
  if (c.mutual_user.has_value() != c.mutual_secret.has_value()) {
    return Error("mutual CHAP needs both a target user name and a target secret");
  }
  const bool short_secret = c.secret.size() < kMinChapSecretBytes ||
                            (c.mutual_secret && c.mutual_secret->size() < kMinChapSecretBytes);
  if (short_secret && !c.allow_short_secrets) {
    return Error("CHAP secrets must be at least 12 bytes (RFC 7143 section 9.2.1)");
  }
  if (c.mutual_secret && (c.mutual_secret->empty() || c.mutual_user->empty())) {
    return Error("mutual CHAP user name and secret must not be empty");
  }
  if (c.secret.size() > kMaxChapSecretBytes ||
      (c.mutual_secret && c.mutual_secret->size() > kMaxChapSecretBytes)) {
    return Error("CHAP secrets must be at most 255 bytes");
  }
  if (c.user.size() > kMaxChapNameBytes ||
      (c.mutual_user && c.mutual_user->size() > kMaxChapNameBytes)) {
    return Error("CHAP user names must be at most 255 bytes (RFC 7143 section 6.1)");
  }
  if (c.mutual_secret && *c.mutual_secret == c.secret) {
    return Error("the mutual CHAP secret must differ from the initiator secret (RFC 7143 9.2.1)");
  }
  return {};
}

void system_random(std::span<std::uint8_t> out) {
  std::size_t done = 0;
  while (done < out.size()) {
    const ssize_t n = getrandom(out.data() + done, out.size() - done, 0);
    if (n < 0 && errno == EINTR) continue;
    if (n <= 0) std::abort();  // no kernel entropy source: never send a guessable challenge
    done += static_cast<std::size_t>(n);
  }
}

// CHAP values are iSCSI large-numericals: 0x hex or 0b base64 (RFC 7143 §6.1),
// decoded and formatted by the text codec.
std::optional<std::vector<std::uint8_t>> decode_binary(std::string_view value) {
  return parse_large_numerical(value);
}

std::string encode_hex(std::span<const std::uint8_t> bytes) {
  return format_hex(bytes);
}

std::vector<std::uint8_t> chap_md5_response(std::uint8_t id, std::string_view secret,
                                            std::span<const std::uint8_t> challenge) {
  std::vector<std::uint8_t> out(EVP_MAX_MD_SIZE);
  unsigned int len = 0;
  EVP_MD_CTX* ctx = EVP_MD_CTX_new();
  const bool ok = ctx != nullptr && EVP_DigestInit_ex(ctx, EVP_md5(), nullptr) == 1 &&
                  EVP_DigestUpdate(ctx, &id, 1) == 1 &&
                  EVP_DigestUpdate(ctx, secret.data(), secret.size()) == 1 &&
                  EVP_DigestUpdate(ctx, challenge.data(), challenge.size()) == 1 &&
                  EVP_DigestFinal_ex(ctx, out.data(), &len) == 1;
  EVP_MD_CTX_free(ctx);
  if (!ok) std::abort();  // MD5 unavailable (e.g. a FIPS-only provider): CHAP cannot work
  out.resize(len);
  return out;
}

ChapAuthenticator::ChapAuthenticator(ChapConfig config, RandomSource random)
    : config_(std::move(config)), random_(std::move(random)) {}

ChapStep ChapAuthenticator::step(const KeyList& keys) {
  switch (state_) {
    case State::kWaitAlgorithm:
      return choose_algorithm(keys);
    case State::kWaitResponse:
      return verify_response(keys);
    case State::kDone:
      break;
  }
  return fail("CHAP keys after the CHAP exchange ended");
}

ChapStep ChapAuthenticator::choose_algorithm(const KeyList& keys) {
  state_ = State::kDone;  // until proven otherwise
  if (keys.size() != 1 || keys[0].first != "CHAP_A") return fail("expected CHAP_A alone");
  for (std::string_view a : split_list(keys[0].second)) {
    if (parse_number(a) != kChapMd5) continue;
    std::uint8_t id = 0;
    random_(std::span(&id, 1));
    challenge_.assign(kChapChallengeBytes, 0);
    random_(challenge_);
    id_ = id;
    state_ = State::kWaitResponse;
    return {{{"CHAP_A", "5"}, {"CHAP_I", std::to_string(id_)}, {"CHAP_C", encode_hex(challenge_)}},
            ChapStatus::kContinue,
            {}};
  }
  ChapStep s = fail("no supported CHAP algorithm offered (only MD5, 5)");
  s.keys = {{"CHAP_A", "Reject"}};
  return s;
}

ChapStep ChapAuthenticator::verify_response(const KeyList& keys) {
  state_ = State::kDone;
  std::map<std::string_view, std::string_view> got;
  for (const auto& [k, v] : keys) {
    if (k != "CHAP_N" && k != "CHAP_R" && k != "CHAP_I" && k != "CHAP_C") {
      return fail("unexpected " + k + " in the CHAP response");
    }
    if (!got.emplace(k, v).second) return fail(k + " sent twice");
  }
  if (!got.contains("CHAP_N") || !got.contains("CHAP_R")) return fail("CHAP_N or CHAP_R missing");
  if (got["CHAP_N"] != config_.user) return fail("unknown CHAP name");
  const auto response = decode_binary(got["CHAP_R"]);
  const auto expected = chap_md5_response(id_, config_.secret, challenge_);
  if (!response || response->size() != expected.size() ||
      CRYPTO_memcmp(response->data(), expected.data(), expected.size()) != 0) {
    return fail("wrong CHAP response");
  }
  const bool has_i = got.contains("CHAP_I");
  if (has_i != got.contains("CHAP_C")) return fail("mutual CHAP needs both CHAP_I and CHAP_C");
  if (!has_i) return {{}, ChapStatus::kSuccess, {}};

  // Mutual CHAP: prove the target's identity.
  if (!config_.mutual_secret) return fail("initiator asks for mutual CHAP, none configured");
  const auto peer_id = parse_number(got["CHAP_I"]);
  if (!peer_id || *peer_id > 255) return fail("malformed CHAP_I");
  const auto peer_challenge = decode_binary(got["CHAP_C"]);
  if (!peer_challenge || peer_challenge->empty() || peer_challenge->size() > kMaxChapBinaryBytes) {
    return fail("malformed CHAP_C");
  }
  if (*peer_challenge == challenge_) return fail("reflected CHAP challenge");  // §12.1.3
  const auto proof = chap_md5_response(static_cast<std::uint8_t>(*peer_id), *config_.mutual_secret,
                                       *peer_challenge);
  return {
      {{"CHAP_N", *config_.mutual_user}, {"CHAP_R", encode_hex(proof)}}, ChapStatus::kSuccess, {}};
}

}  // namespace memstore::iscsi
