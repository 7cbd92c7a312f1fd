// SPDX-License-Identifier: Apache-2.0
// A fault rule from its TOML table (docs/faults.md): memstored's
// [[target.lun.fault]] tables, and the rules the control socket adds at run
// time (sent as the same keys). Every key is checked against the LUN's
// geometry; an error names the key and says what it takes.
#pragma once

#include <toml++/toml.h>

#include <string>
#include <variant>

#include "base/expected.h"
#include "model/geometry.h"
#include "target/scsi/fault_rule.h"

namespace memstore::lunspec {

struct FaultError {
  std::string key;                 // the key at fault, e.g. "lba"
  const toml::node* at = nullptr;  // where in the source, when known
  std::string message;             // what is wrong and what it takes
};

// What a rule is checked against: the LUN's capacity, and a MEMStore's
// geometry. A disk LUN has none (nullptr): the failed-tip and media-region
// actions, which name probe tips and media rectangles, are refused there.
struct FaultScope {
  std::int64_t blocks = 0;
  const model::Geometry* mems = nullptr;
};

// `timing_off`: the LUN runs with timing off, where a delay has no due time
// to be added to (refused, with the fix).
Expected<scsi::FaultRule, FaultError> parse_fault(const toml::table& t, const FaultScope& lun,
                                                  bool timing_off);

// The rule as its [[target.lun.fault]] table: parse_fault() of it gives the
// rule back. Match keys at their defaults are left out; a standing action
// (slow-seek) has none. What a saved configuration and the control socket's
// `faults` list write.
toml::table fault_to_toml(const scsi::FaultRule& rule);

}  // namespace memstore::lunspec
