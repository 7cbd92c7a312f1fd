// SPDX-License-Identifier: Apache-2.0
// Where TOML text went wrong, said the one way every configuration message
// says it: "file:line: problem". For the device parameters (params_toml.cc)
// and memstored's configuration (target/daemon/config.cc).
#pragma once

#include <toml++/toml.h>

#include <string>
#include <string_view>
#include <variant>

#include "base/expected.h"

namespace memstore::model {

// "source:line" of the node or error at `at`.
inline std::string toml_where(const toml::source_region& at, const std::string& source) {
  return source + ":" + std::to_string(at.begin.line);
}

// The text as a TOML table, or what makes it not TOML: "source:line: why".
inline Expected<toml::table> parse_toml(std::string_view text, const std::string& source) {
  try {
    return toml::parse(text, source);
  } catch (const toml::parse_error& e) {
    return Error(toml_where(e.source(), source) + ": " + std::string(e.description()));
  }
}

}  // namespace memstore::model
