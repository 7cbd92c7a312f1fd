// SPDX-License-Identifier: Apache-2.0
// Secrets kept out of logs: a control request, as the daemon's log shows
// it, has every secret's value replaced by "***" (docs/memstored.md,
// "Limits and security"). A secret is the value of any
// key whose name ends in "secret" (a target's or discovery's chap.secret
// and chap.mutual_secret), at any depth. The request itself is applied
// unchanged; only what is written down is redacted.
#pragma once

#include <nlohmann/json.hpp>
#include <string>
#include <string_view>

namespace memstore::control {

inline constexpr std::string_view kRedacted = "***";
// The reply of `save` without a file carries the configuration's TOML text
// under this key, secrets as given: its text is never shown, only its size.
inline constexpr std::string_view kSavedConfigKey = "toml";

// Whether a key's value is a secret.
bool is_secret_key(std::string_view key);

// `value` with every secret replaced by kRedacted, objects inside arrays
// included. Key order is kept, so a logged request reads as it was sent.
nlohmann::ordered_json redact_secrets(nlohmann::ordered_json value);

// One request line as the log shows it: parsed, redacted, written back on
// one line and cut to `max_bytes`. A line that is not JSON is not shown at
// all ("(not JSON)"): its text could hold a secret no key names.
std::string redacted_line(std::string_view line, std::size_t max_bytes);

}  // namespace memstore::control
