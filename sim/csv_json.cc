// SPDX-License-Identifier: Apache-2.0
#include "sim/csv_json.h"

#include <charconv>
#include <iostream>
#include <sstream>
#include <string>
#include <vector>

namespace memstore::sim {
namespace {

std::vector<std::string_view> fields(std::string_view line) {
  std::vector<std::string_view> out;
  for (std::size_t at = 0;;) {
    const std::size_t comma = line.find(',', at);
    out.push_back(line.substr(at, comma == std::string_view::npos ? line.npos : comma - at));
    if (comma == std::string_view::npos) return out;
    at = comma + 1;
  }
}

nlohmann::ordered_json value(std::string_view field) {
  long long integer = 0;
  const char* end = field.data() + field.size();
  if (auto [p, ec] = std::from_chars(field.data(), end, integer); ec == std::errc() && p == end) {
    return integer;
  }
  double number = 0;
  if (auto [p, ec] = std::from_chars(field.data(), end, number); ec == std::errc() && p == end) {
    return number;
  }
  return std::string(field);
}

}  // namespace

nlohmann::ordered_json csv_to_json(std::string_view csv) {
  nlohmann::ordered_json rows = nlohmann::ordered_json::array();
  std::vector<std::string_view> header;
  for (std::size_t at = 0; at < csv.size();) {
    std::size_t nl = csv.find('\n', at);
    if (nl == std::string_view::npos) nl = csv.size();
    const std::string_view line = csv.substr(at, nl - at);
    at = nl + 1;
    if (line.empty()) continue;
    if (header.empty()) {
      header = fields(line);
      continue;
    }
    const std::vector<std::string_view> f = fields(line);
    nlohmann::ordered_json row = nlohmann::ordered_json::object();
    for (std::size_t i = 0; i < header.size() && i < f.size(); ++i) {
      row[std::string(header[i])] = value(f[i]);
    }
    rows.push_back(std::move(row));
  }
  return rows;
}

int with_json_output(bool json, const std::function<int()>& command) {
  if (!json) return command();
  std::ostringstream captured;
  std::streambuf* const out = std::cout.rdbuf(captured.rdbuf());
  const int status = command();
  std::cout.rdbuf(out);
  if (status != 0) {
    std::cout << captured.str();
    return status;
  }
  std::cout << csv_to_json(captured.str()).dump(2) << "\n";
  return status;
}

}  // namespace memstore::sim
