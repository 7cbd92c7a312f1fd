// SPDX-License-Identifier: Apache-2.0
// libFuzzer target for the TCMU backstore's config string (target/tcmu/
// config_string.h), which tcmu-runner hands over from targetcli: any string
// must yield a LUN spec whose parameters validate, or one error message that
// starts with what it is about — never a crash or a hang. Paths in the input
// are only examined (stat, and reading a small regular file for config=).
#include <cstddef>
#include <cstdint>
#include <cstdlib>
#include <string>
#include <string_view>

#include "model/params.h"
#include "target/tcmu/config_string.h"

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  const std::string_view text(reinterpret_cast<const char*>(data), size);
  const auto r = memstore::tcmu::parse_config_string(text);
  if (r.ok()) {
    if (!memstore::model::validate(r->config.device).empty() || r->backing.empty()) std::abort();
  } else {
    const std::string& e = r.error().message;
    // "key: problem" or "'item': problem".
    if (e.empty() || e.find(": ") == std::string::npos) std::abort();
  }
  return 0;
}
