// SPDX-License-Identifier: Apache-2.0
// Device parameters from TOML text (toml++). Parsing only: the caller reads
// the file, so the model stays free of I/O.
//
// Keys are the DeviceParams field names, flat at the top level, plus a
// [power] table; `preset = "g1" | "g2" | "g3" | "uysal03" | "tos05"` picks the starting point
// (default: the `base` argument). Example:
//
//   preset = "g2"
//   active_tips = 1280        # DiskSim 4.0's G2 variant: p = 20
//   cylinder_switch = "min_turnaround"
//   [power]
//   idle_timeout_ns = 0       # aggressive spin-down
#pragma once

#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "model/params.h"

namespace memstore::model {

struct ParamsResult {
  std::optional<DeviceParams> params;  // set when there are no errors
  std::vector<ParamError> errors;
};

// `source` names the text in messages (a file name). Unknown keys, wrong
// types and impossible values are errors naming the key.
ParamsResult params_from_toml(std::string_view text, const DeviceParams& base,
                              const std::string& source = "config");

// Every accepted key, dotted ("power.idle_timeout_ns"), for help texts.
std::vector<std::string> param_keys();

// The whole parameter set, every key of the table above (the power keys in a
// [power] table), as TOML that params_from_toml reads back to the same values
// whatever its base, or as one JSON object of the same shape.
std::string params_to_toml(const DeviceParams& p);
std::string params_to_json(const DeviceParams& p);

}  // namespace memstore::model
