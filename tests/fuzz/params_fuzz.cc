// SPDX-License-Identifier: Apache-2.0
// libFuzzer target for the device-parameter parser: any text must either
// yield parameters that validate() accepts, that build a working device and
// that params_to_toml writes back to the same set, or errors that each name a
// key or a line — never a crash or a hang.
#include <cstddef>
#include <cstdint>
#include <cstdlib>
#include <string>
#include <string_view>

#include "model/geometry.h"
#include "model/params_toml.h"

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  const std::string_view text(reinterpret_cast<const char*>(data), size);
  const auto base = memstore::model::preset("g2");
  const memstore::model::ParamsResult r = memstore::model::params_from_toml(text, *base, "fuzz");
  if (r.params) {
    if (!r.errors.empty() || !memstore::model::validate(*r.params).empty()) std::abort();
    // Accepted parameters must describe a device whose mapping works.
    const memstore::model::Geometry g(*r.params);
    if (g.blocks() <= 0) std::abort();
    const memstore::model::Lbn last = g.blocks() - 1;
    if (g.to_lbn(g.to_physical(last)) != last) std::abort();
    // The written set reads back to itself, whatever the base.
    const std::string written = memstore::model::params_to_toml(*r.params);
    const auto back = memstore::model::params_from_toml(written, *memstore::model::preset("g1"));
    if (!back.params || memstore::model::params_to_toml(*back.params) != written) std::abort();
  } else if (r.errors.empty()) {
    std::abort();
  } else {
    for (const auto& e : r.errors) {
      if (e.message.empty()) std::abort();
    }
  }
  return 0;
}
