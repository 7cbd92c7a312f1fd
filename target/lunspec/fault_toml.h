// SPDX-License-Identifier: Apache-2.0
// A fault rule from its TOML table (docs/faults.md): memstored's
// [[target.lun.fault]] tables, and the rules the control socket adds at run
// time (sent as the same keys). Every key is checked against the LUN's
// geometry; an error names the key and says what it takes.
#pragma once

#include <toml++/toml.h>

#include <optional>
#include <string>
#include <variant>
#include <vector>

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

// A LUN's whole list of rules: memstored's [[target.lun.fault]] array and
// the TCMU handler's faults= file ([[fault]] tables) both go through it, so
// the two transports accept the same rules with the same messages. Besides
// each rule's own checks (parse_fault): at most LunSpec::kMaxFaults rules,
// each a table, and at most modepages::kMaxFailedTips failed tips in all
// (page 20h lists them).
struct FaultListError {
  std::optional<std::size_t> rule;  // the rule at fault; none: the list itself
  FaultError error;                 // its key relative to the rule ("" for the rule itself)
};
Expected<std::vector<scsi::FaultRule>, FaultListError> parse_fault_list(const toml::array& rules,
                                                                        const FaultScope& lun,
                                                                        bool timing_off);

// The rule as its [[target.lun.fault]] table: parse_fault() of it gives the
// rule back. Match keys at their defaults are left out; a standing action
// (slow-seek) has none. What a saved configuration and the control socket's
// `faults` list write.
toml::table fault_to_toml(const scsi::FaultRule& rule);

}  // namespace memstore::lunspec
