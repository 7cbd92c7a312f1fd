// SPDX-License-Identifier: Apache-2.0
#include "host/memsctl_args.h"

#include <cstdio>
#include <iostream>
#include <limits>

namespace memstore::memsctl {

std::optional<std::uint64_t> parse_u64(std::string_view text) {
  if (text.empty() || text.size() > 20) return {};
  std::uint64_t v = 0;
  for (const char ch : text) {
    if (ch < '0' || ch > '9') return {};
    const auto digit = static_cast<std::uint64_t>(ch - '0');
    if (v > (std::numeric_limits<std::uint64_t>::max() - digit) / 10) return {};
    v = v * 10 + digit;
  }
  return v;
}

Expected<ExtentSpec> parse_extent(std::string_view option, std::string_view text,
                                  bool file_required) {
  const std::string prefix = std::string(option) + " " + std::string(text) + ": ";
  const std::string syntax = file_required ? "LBN:COUNT@FILE" : "LBN:COUNT or LBN:COUNT@FILE";
  ExtentSpec spec;
  std::string_view range = text;
  if (const auto at = text.find('@'); at != std::string_view::npos) {
    spec.file = std::string(text.substr(at + 1));
    range = text.substr(0, at);
    if (spec.file.empty()) return Error(prefix + "the file name after '@' is empty");
  } else if (file_required) {
    return Error(prefix + "expected " + syntax + " (the data to write comes from FILE)");
  }
  const auto colon = range.find(':');
  if (colon == std::string_view::npos) return Error(prefix + "expected " + syntax);
  const std::string_view lbn = range.substr(0, colon);
  const std::string_view count = range.substr(colon + 1);
  const auto l = parse_u64(lbn);
  if (!l) return Error(prefix + "LBN '" + std::string(lbn) + "' is not a number");
  const auto n = parse_u64(count);
  if (!n) return Error(prefix + "COUNT '" + std::string(count) + "' is not a number");
  if (*n == 0) return Error(prefix + "COUNT must be at least 1");
  if (*n > std::numeric_limits<std::uint32_t>::max()) {
    return Error(prefix + "COUNT must fit in 32 bits (at most 4294967295)");
  }
  spec.lbn = *l;
  spec.count = static_cast<std::uint32_t>(*n);
  return spec;
}

std::string scheduler_list() {
  std::string names;
  for (std::uint8_t i = 0; const auto n = modepages::scheduler_name(i); ++i) {
    names += (names.empty() ? "" : ", ") + *n;
  }
  return names;
}

Json sense_json(const host::SenseData& s) {
  char code[8];
  Json j;
  j["key"] = s.key;
  j["key_name"] = host::sense_key_name(s.key);
  std::snprintf(code, sizeof code, "%02Xh", s.asc);
  j["asc"] = code;
  std::snprintf(code, sizeof code, "%02Xh", s.ascq);
  j["ascq"] = code;
  j["asc_name"] = host::asc_name(s.asc, s.ascq);
  if (s.field) {
    j["field"] = {{"in", s.field->in_cdb ? "cdb" : "parameter list"}, {"byte", s.field->byte}};
    if (s.field->bit >= 0) j["field"]["bit"] = s.field->bit;
  }
  if (s.information) j["information"] = *s.information;
  j["description"] = host::describe(s);
  return j;
}

int report(const Common& c, const host::Error& e) {
  std::cerr << "memsctl: " << e.message << "\n";
  if (c.json) {
    Json j = {{"kind", host::code_name(e.code)}, {"message", e.message}};
    if (e.sense) j["sense"] = sense_json(*e.sense);
    std::cout << Json{{"error", j}}.dump(2) << "\n";
  }
  return e.code == host::Error::Code::kInvalidArgument ? kExitUsage : kExitFailure;
}

int usage_error(const Common& c, const std::string& message) {
  return report(c, host::invalid_argument(message));
}

std::unique_ptr<host::Device> open_device(const Common& c, int& status) {
  host::TransportOptions o;
  o.initiator_name = c.initiator;
  o.timeout_s = c.timeout_s;
  auto d = host::Device::open(c.target, o);
  if (!d.ok()) {
    status = report(c, d.error());
    return nullptr;
  }
  status = kExitOk;
  return std::move(d).value();
}

}  // namespace memstore::memsctl
