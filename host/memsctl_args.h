// SPDX-License-Identifier: Apache-2.0
// memsctl's shared pieces: argument syntax (LBN:COUNT[@FILE]), opening the
// device, and reporting errors the same way in every subcommand.
#pragma once

#include <cstdint>
#include <memory>
#include <nlohmann/json.hpp>
#include <optional>
#include <string>
#include <string_view>
#include <variant>

#include "base/expected.h"
#include "host/device.h"
#include "host/memsctl_commands.h"

namespace memstore::memsctl {

using Json = nlohmann::ordered_json;

struct ExtentSpec {
  std::uint64_t lbn = 0;
  std::uint32_t count = 0;
  std::string file;  // empty when not given
  friend bool operator==(const ExtentSpec&, const ExtentSpec&) = default;
};

// "LBN:COUNT" or "LBN:COUNT@FILE" (COUNT >= 1). The error names `option`
// and the text, e.g. "--read 12x:4: LBN '12x' is not a number".
Expected<ExtentSpec> parse_extent(std::string_view option, std::string_view text,
                                  bool file_required);

// A decimal unsigned number, nothing else around it.
std::optional<std::uint64_t> parse_u64(std::string_view text);

// Exit statuses.
inline constexpr int kExitOk = 0;
inline constexpr int kExitFailure = 1;
inline constexpr int kExitUsage = 2;

// Prints the error (stderr; with --json also {"error": ...} on stdout) and
// returns the exit status it deserves.
int report(const Common& c, const host::Error& e);
// A usage error found by memsctl itself.
int usage_error(const Common& c, const std::string& message);

// Opens c.target; on failure reports and returns nullptr with `status` set.
std::unique_ptr<host::Device> open_device(const Common& c, int& status);

// "fcfs, clook, ..." from modepages::scheduler_name, for messages and help.
std::string scheduler_list();

// Page 22h as {"scheduler", "timing", "scale"} (memsctl_info.cc).
Json control_json(const modepages::ControlPage& c);

// The sense data as JSON (key, asc, ascq, their names, field pointer, information).
Json sense_json(const host::SenseData& s);

}  // namespace memstore::memsctl
