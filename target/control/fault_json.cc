// SPDX-License-Identifier: Apache-2.0
#include "target/control/fault_json.h"

#include "target/lunspec/fault_toml.h"

namespace memstore::control {
namespace {

using nlohmann::json;

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

json node_to_json(const toml::node& n) {
  if (const toml::table* t = n.as_table()) return toml_to_json(*t);
  if (const toml::array* a = n.as_array()) {
    json out = json::array();
    for (const toml::node& e : *a) out.push_back(node_to_json(e));
    return out;
  }
  if (const auto v = n.value_exact<std::int64_t>()) return *v;
  if (const auto v = n.value_exact<double>()) return *v;
  if (const auto v = n.value_exact<bool>()) return *v;
  if (const auto v = n.value_exact<std::string>()) return *v;
  return nullptr;  // dates and times: no key of the configuration has one
}

}  // namespace

json toml_to_json(const toml::table& table) {
  json out = json::object();
  for (const auto& [key, value] : table) out[std::string(key.str())] = node_to_json(value);
  return out;
}

json fault_to_json(const scsi::FaultRule& r) {
  return toml_to_json(lunspec::fault_to_toml(r));
}

Expected<toml::table> json_to_toml(const json& object) {
  if (!object.is_object()) {
    return Error("must be an object of the keys of [[target.lun.fault]] (docs/faults.md)");
  }
  return to_table(object);
}

}  // namespace memstore::control
