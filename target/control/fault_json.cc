// SPDX-License-Identifier: Apache-2.0
#include "target/control/fault_json.h"

namespace memstore::control {
namespace {

using nlohmann::json;
using scsi::FaultAction;

Expected<toml::array> to_array(const json& a);
Expected<toml::table> to_table(const json& object);

// One JSON scalar or array into `out` under `key`.
Status insert(toml::table& out, const std::string& key, const json& v) {
  if (v.is_string()) {
    out.insert(key, v.get<std::string>());
  } else if (v.is_boolean()) {
    out.insert(key, v.get<bool>());
  } else if (v.is_number_integer()) {
    out.insert(key, v.get<std::int64_t>());
  } else if (v.is_number_float()) {
    out.insert(key, v.get<double>());
  } else if (v.is_array()) {
    auto a = to_array(v);
    if (!a.ok()) return a.error();
    out.insert(key, std::move(*a));
  } else if (v.is_object()) {  // a sub-table: a target's chap
    auto t = to_table(v);
    if (!t.ok()) return Error(key + "." + t.error().message);
    out.insert(key, std::move(*t));
  } else {
    return Error(key + ": must be a string, number, boolean, array or object");
  }
  return {};
}

Expected<toml::array> to_array(const json& a) {
  toml::array out;
  for (const json& e : a) {
    if (e.is_number_integer()) {
      out.push_back(e.get<std::int64_t>());
    } else if (e.is_number_float()) {
      out.push_back(e.get<double>());
    } else if (e.is_string()) {
      out.push_back(e.get<std::string>());
    } else if (e.is_object()) {  // an array of tables: a target's [[target.lun]]
      auto t = to_table(e);
      if (!t.ok()) return t.error();
      out.push_back(std::move(*t));
    } else {
      return Error("arrays hold numbers, strings or objects");
    }
  }
  return out;
}

Expected<toml::table> to_table(const json& object) {
  toml::table t;
  for (const auto& [key, value] : object.items()) {
    if (const Status s = insert(t, key, value); !s.ok()) return s.error();
  }
  return t;
}

}  // namespace

json fault_to_json(const scsi::FaultRule& r) {
  json j;
  if (scsi::is_standing(r.action)) {
    // No match keys: the rule's own keys only, so the listing adds back as it is.
    j["action"] = std::string(scsi::fault_action_name(r.action));
    j["x"] = {r.x.first, r.x.second};
    j["y"] = {r.y.first, r.y.second};
    j["factor"] = r.factor;
    j["sled"] = r.sled;
    return j;
  }
  switch (r.op) {
    case scsi::FaultOp::kAny:
      j["op"] = "any";
      break;
    case scsi::FaultOp::kRead:
      j["op"] = "read";
      break;
    case scsi::FaultOp::kWrite:
      j["op"] = "write";
      break;
    case scsi::FaultOp::kOpcode:
      j["op"] = r.opcode;
      break;
  }
  if (r.lba) j["lba"] = {r.lba->first, r.lba->second};
  if (!r.initiator.empty()) j["initiator"] = r.initiator;
  if (r.every != 1) j["every"] = r.every;
  if (r.probability < 1.0) j["probability"] = r.probability;
  if (r.once) j["once"] = true;
  if (r.after_ns > 0) j["after_ms"] = static_cast<double>(r.after_ns) / 1e6;
  j["action"] = std::string(scsi::fault_action_name(r.action));
  switch (r.action) {
    case FaultAction::kSense:
      j["sense"] = {static_cast<int>(r.sense.key), r.sense.asc, r.sense.ascq};
      break;
    case FaultAction::kDelay:
      j["delay_ms"] = static_cast<double>(r.delay_ns) / 1e6;
      break;
    case FaultAction::kUnitAttention:
      j["ua"] = std::string(scsi::fault_attention_name(r.attention));
      break;
    case FaultAction::kTimeout:
      if (r.reject_abort) j["abort"] = "reject";
      break;
    case FaultAction::kFailedTip:
      j["tip"] = r.tip;
      j["sled"] = r.sled;
      if (r.spare) j["spare"] = true;
      break;
    case FaultAction::kMediaRegion:
      j["x"] = {r.x.first, r.x.second};
      j["y"] = {r.y.first, r.y.second};
      j["sled"] = r.sled;
      break;
    case FaultAction::kPowerCut:
      j["policy"] = std::string(scsi::cut_policy_name(r.cut_policy));
      j["seed"] = r.cut_seed;
      if (r.off_ns > 0) j["off_ms"] = static_cast<double>(r.off_ns) / 1e6;
      break;
    default:
      break;
  }
  return j;
}

Expected<toml::table> json_to_toml(const json& object) {
  if (!object.is_object()) {
    return Error("must be an object of the keys of [[target.lun.fault]] (docs/faults.md)");
  }
  return to_table(object);
}

}  // namespace memstore::control
