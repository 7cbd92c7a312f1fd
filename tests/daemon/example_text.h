// SPDX-License-Identifier: Apache-2.0
// examples/memstored.toml, the every-key reference, as the tests read it.
#pragma once

#include <fstream>
#include <regex>
#include <sstream>
#include <string>

namespace memstore::daemon {

inline std::string example_file(const std::string& name) {
  std::ifstream in(std::string(MEMSTORE_SOURCE_DIR) + "/examples/" + name);
  std::ostringstream s;
  s << in.rdbuf();
  return s.str();
}

// The example as memstored reads it, or (`switched_on`) with the keys it
// shows switched off (`#key = value`, no space after the #: CHAP, the ACL,
// the fault rules) turned on.
inline std::string example_text(bool switched_on = true) {
  // The example names the installed paths; the device_config file it names
  // is examples/g2-variant.toml in the source tree (cmake/install.cmake).
  std::string text = example_file("memstored.toml");
  if (switched_on) text = std::regex_replace(text, std::regex("(^|\n)#([^ #\n])"), "$1$2");
  const std::string installed = "/usr/share/doc/memstore/examples/";
  const std::string source = std::string(MEMSTORE_SOURCE_DIR) + "/examples/";
  for (auto at = text.find(installed); at != std::string::npos;
       at = text.find(installed, at + source.size())) {
    text.replace(at, installed.size(), source);
  }
  return text;
}

}  // namespace memstore::daemon
