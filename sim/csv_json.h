// SPDX-License-Identifier: Apache-2.0
// --json for memsim's commands that print CSV (docs/memsim.md, "Output"):
// the same rows as a JSON array of objects, keyed by the CSV's header,
// numbers as numbers. One converter, so the two forms cannot drift apart.
#pragma once

#include <functional>
#include <nlohmann/json.hpp>
#include <string_view>

namespace memstore::sim {

// A header line, then one line per row; fields without quotes or commas
// (what memsim writes). A field that reads whole as a number is a number.
nlohmann::ordered_json csv_to_json(std::string_view csv);

// Runs `command`; with `json`, what it writes to std::cout is taken as CSV
// and printed as csv_to_json() of it instead (as written when the command
// fails). Returns the command's status.
int with_json_output(bool json, const std::function<int()>& command);

}  // namespace memstore::sim
