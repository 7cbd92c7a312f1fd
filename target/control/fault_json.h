// SPDX-License-Identifier: Apache-2.0
// Fault rules as JSON, in the keys of [[target.lun.fault]] (docs/faults.md),
// so that what `faults` lists can be given back to `fault-add`.
#pragma once

#include <toml++/toml.h>

#include <nlohmann/json.hpp>
#include <string>

#include "base/expected.h"
#include "target/scsi/fault_rule.h"

namespace memstore::control {

// The rule's [[target.lun.fault]] table (lunspec::fault_to_toml) as JSON.
nlohmann::json fault_to_json(const scsi::FaultRule& rule);
// A TOML table as a JSON object, the other way from json_to_toml.
nlohmann::json toml_to_json(const toml::table& table);
// A JSON object as a TOML table (objects as sub-tables, arrays of objects
// as arrays of tables), for lunspec::parse_fault and the configuration's
// table parsers. Fails for anything but an object, naming the key at fault.
Expected<toml::table> json_to_toml(const nlohmann::json& object);

}  // namespace memstore::control
