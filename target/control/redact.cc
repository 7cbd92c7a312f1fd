// SPDX-License-Identifier: Apache-2.0
#include "target/control/redact.h"

namespace memstore::control {

using nlohmann::ordered_json;

bool is_secret_key(std::string_view key) {
  return key.ends_with("secret");
}

ordered_json redact_secrets(ordered_json value) {
  if (value.is_object()) {
    for (auto it = value.begin(); it != value.end(); ++it) {
      if (it.key() == kSavedConfigKey && it.value().is_string()) {
        it.value() = std::to_string(it.value().get<std::string>().size()) +
                     " bytes of TOML, not shown: they may hold secrets";
        continue;
      }
      it.value() = is_secret_key(it.key()) ? ordered_json(kRedacted) : redact_secrets(it.value());
    }
  } else if (value.is_array()) {
    for (ordered_json& e : value) e = redact_secrets(std::move(e));
  }
  return value;
}

std::string redacted_line(std::string_view line, std::size_t max_bytes) {
  const ordered_json parsed = ordered_json::parse(line, nullptr, false);
  if (parsed.is_discarded()) return "(not JSON)";
  std::string shown =
      redact_secrets(parsed).dump(-1, ' ', false, ordered_json::error_handler_t::replace);
  if (shown.size() > max_bytes) shown.resize(max_bytes);
  return shown;
}

}  // namespace memstore::control
