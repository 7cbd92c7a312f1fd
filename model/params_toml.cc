// SPDX-License-Identifier: Apache-2.0
#include "model/params_toml.h"

#include <toml++/toml.h>

#include <charconv>
#include <cstdint>
#include <string_view>
#include <type_traits>
#include <utility>
#include <variant>

#include "base/expected.h"
#include "model/toml_where.h"

namespace memstore::model {
namespace {

using IntField = std::int32_t DeviceParams::*;
using LongField = std::int64_t DeviceParams::*;
using RealField = double DeviceParams::*;
using BoolField = bool DeviceParams::*;
using PIntField = std::int32_t PowerParams::*;
using PLongField = std::int64_t PowerParams::*;
using PRealField = double PowerParams::*;
using PBoolField = bool PowerParams::*;
struct CylinderSwitchField {};
using Field = std::variant<IntField, LongField, RealField, BoolField, PIntField, PLongField,
                           PRealField, PBoolField, CylinderSwitchField>;

struct Key {
  const char* name;  // dotted for the [power] table
  Field field;
};

// The one table of configurable parameters.
const Key kKeys[] = {
    {"bit_width_nm", &DeviceParams::bit_width_nm},
    {"region_bits_x", &DeviceParams::region_bits_x},
    {"region_bits_y", &DeviceParams::region_bits_y},
    {"tips", &DeviceParams::tips},
    {"active_tips", &DeviceParams::active_tips},
    {"tips_per_block", &DeviceParams::tips_per_block},
    {"servo_bits_per_sector", &DeviceParams::servo_bits_per_sector},
    {"data_bits_per_sector", &DeviceParams::data_bits_per_sector},
    {"block_bytes", &DeviceParams::block_bytes},
    {"sleds", &DeviceParams::sleds},
    {"sled_accel_m_s2", &DeviceParams::sled_accel_m_s2},
    {"per_tip_rate_bit_s", &DeviceParams::per_tip_rate_bit_s},
    {"spring_factor", &DeviceParams::spring_factor},
    {"resonant_frequency_hz", &DeviceParams::resonant_frequency_hz},
    {"settle_time_constants", &DeviceParams::settle_time_constants},
    {"bidirectional", &DeviceParams::bidirectional},
    {"cylinder_switch", CylinderSwitchField{}},
    {"micropositioning", &DeviceParams::micropositioning},
    {"conflict_group", &DeviceParams::conflict_group},
    {"max_batch_descriptors", &DeviceParams::max_batch_descriptors},
    {"max_batch_blocks", &DeviceParams::max_batch_blocks},
    {"power.tip_active_w", &PowerParams::tip_active_w},
    {"power.sled_motion_w", &PowerParams::sled_motion_w},
    {"power.inactive_w", &PowerParams::inactive_w},
    {"power.startup_ns", &PowerParams::startup_ns},
    {"power.startup_j", &PowerParams::startup_j},
    {"power.idle_timeout_ns", &PowerParams::idle_timeout_ns},
    {"power.idle_tips", &PowerParams::idle_tips},
    {"power.merge_requests", &PowerParams::merge_requests},
    {"power.subsector", &PowerParams::subsector},
    {"power.access_all_tips", &PowerParams::access_all_tips},
};

const Key* find_key(std::string_view name) {
  for (const Key& k : kKeys) {
    if (name == k.name) return &k;
  }
  return nullptr;
}

template <class T>
std::optional<T> as_integer(const toml::node& n) {
  const auto v = n.value_exact<std::int64_t>();
  if (!v || *v < std::numeric_limits<T>::min() || *v > std::numeric_limits<T>::max()) {
    return std::nullopt;
  }
  return static_cast<T>(*v);
}

// Stores one value, or says what is wrong with it.
Status assign(DeviceParams& p, const Key& key, const toml::node& n) {
  struct Visitor {
    DeviceParams& p;
    const toml::node& n;
    Status operator()(IntField f) const {
      auto v = as_integer<std::int32_t>(n);
      if (!v) return Error("must be an integer (32-bit)");
      p.*f = *v;
      return {};
    }
    Status operator()(LongField f) const {
      auto v = as_integer<std::int64_t>(n);
      if (!v) return Error("must be an integer");
      p.*f = *v;
      return {};
    }
    Status operator()(RealField f) const {
      auto v = n.value<double>();  // integers are accepted for reals
      if (!v) return Error("must be a number");
      p.*f = *v;
      return {};
    }
    Status operator()(BoolField f) const {
      auto v = n.value_exact<bool>();
      if (!v) return Error("must be true or false");
      p.*f = *v;
      return {};
    }
    Status operator()(PIntField f) const {
      auto v = as_integer<std::int32_t>(n);
      if (!v) return Error("must be an integer (32-bit)");
      p.power.*f = *v;
      return {};
    }
    Status operator()(PLongField f) const {
      auto v = as_integer<std::int64_t>(n);
      if (!v) return Error("must be an integer");
      p.power.*f = *v;
      return {};
    }
    Status operator()(PRealField f) const {
      auto v = n.value<double>();
      if (!v) return Error("must be a number");
      p.power.*f = *v;
      return {};
    }
    Status operator()(PBoolField f) const {
      auto v = n.value_exact<bool>();
      if (!v) return Error("must be true or false");
      p.power.*f = *v;
      return {};
    }
    Status operator()(CylinderSwitchField) const {
      auto v = n.value_exact<std::string>();
      if (v && *v == "seek") {
        p.cylinder_switch = CylinderSwitch::kSeek;
      } else if (v && *v == "min_turnaround") {
        p.cylinder_switch = CylinderSwitch::kMinTurnaround;
      } else {
        return Error(R"(must be "seek" or "min_turnaround")");
      }
      return {};
    }
  };
  return std::visit(Visitor{p, n}, key.field);
}

// A key's value as TOML and JSON write it (the same text for every type
// here). Doubles take the shortest digits that read back to the same value,
// with ".0" when they would otherwise read as an integer.
std::string value_text(const DeviceParams& p, const Field& field) {
  return std::visit(
      [&](auto f) -> std::string {
        using F = decltype(f);
        if constexpr (std::is_same_v<F, CylinderSwitchField>) {
          return p.cylinder_switch == CylinderSwitch::kSeek ? R"("seek")" : R"("min_turnaround")";
        } else {
          const auto v = [&] {
            if constexpr (std::is_same_v<F, PIntField> || std::is_same_v<F, PLongField> ||
                          std::is_same_v<F, PRealField> || std::is_same_v<F, PBoolField>) {
              return p.power.*f;
            } else {
              return p.*f;
            }
          }();
          using V = decltype(v);
          if constexpr (std::is_same_v<V, const bool>) {
            return v ? "true" : "false";
          } else {
            char buf[400];  // the longest fixed-notation double fits
            if constexpr (std::is_same_v<V, const double>) {
              // Plain decimals unless they get long (1e+300, 1e-30).
              auto end = std::to_chars(buf, buf + sizeof buf, v, std::chars_format::fixed).ptr;
              if (end - buf > 20) end = std::to_chars(buf, buf + sizeof buf, v).ptr;
              std::string text(buf, end);
              if (text.find_first_of(".e") == std::string::npos) text += ".0";
              return text;
            } else {
              return std::string(buf, std::to_chars(buf, buf + sizeof buf, v).ptr);
            }
          }
        }
      },
      field);
}

bool in_power_table(std::string_view name) {
  return name.starts_with("power.");
}

std::string_view leaf_name(std::string_view name) {
  return in_power_table(name) ? name.substr(std::string_view("power.").size()) : name;
}

std::string where(const toml::node& n, const std::string& source) {
  return toml_where(n.source(), source);
}

}  // namespace

std::vector<std::string> param_keys() {
  std::vector<std::string> keys{"preset"};
  for (const Key& k : kKeys) keys.emplace_back(k.name);
  return keys;
}

std::string params_to_toml(const DeviceParams& p) {
  std::string top;
  std::string power = "\n[power]\n";
  for (const Key& k : kKeys) {
    std::string& out = in_power_table(k.name) ? power : top;
    out.append(leaf_name(k.name)).append(" = ").append(value_text(p, k.field)).append("\n");
  }
  return top + power;
}

std::string params_to_json(const DeviceParams& p) {
  std::string top = "{\n";
  std::string power = "  \"power\": {\n";
  for (const Key& k : kKeys) {
    const bool in_power = in_power_table(k.name);
    std::string& out = in_power ? power : top;
    out.append(in_power ? "    \"" : "  \"").append(leaf_name(k.name)).append("\": ");
    out.append(value_text(p, k.field)).append(",\n");
  }
  power.erase(power.size() - 2);  // the last ",\n"
  return top + power + "\n  }\n}\n";
}

ParamsResult params_from_toml(std::string_view text, const DeviceParams& base,
                              const std::string& source) {
  ParamsResult out;
  auto parsed = parse_toml(text, source);
  if (!parsed.ok()) {
    out.errors.push_back({"", parsed.error().message});
    return out;
  }
  toml::table& root = *parsed;
  DeviceParams p = base;
  if (const toml::node* preset_node = root.get("preset")) {
    const auto name = preset_node->value_exact<std::string>();
    const auto found = name ? preset(*name) : std::nullopt;
    if (!found) {
      out.errors.push_back({"preset", where(*preset_node, source) +
                                          R"(: must be one of "g1", "g2", "g3", "uysal03")"});
      return out;
    }
    p = *found;
  }
  auto visit = [&](const toml::table& table, const std::string& prefix) {
    for (const auto& [k, node] : table) {
      const std::string name = prefix + std::string(k.str());
      if (name == "preset") continue;
      if (prefix.empty() && name == "power" && node.is_table()) continue;
      const Key* key = find_key(name);
      if (key == nullptr) {
        out.errors.push_back({name, where(node, source) + ": unknown key '" + name +
                                        "' (see docs/model.md for the accepted keys)"});
        continue;
      }
      if (const Status set = assign(p, *key, node); !set.ok()) {
        std::string message = where(node, source);
        message.append(": ").append(name).append(" ").append(set.error().message);
        out.errors.push_back({name, std::move(message)});
      }
    }
  };
  visit(root, "");
  if (const toml::table* power = root["power"].as_table()) visit(*power, "power.");
  if (!out.errors.empty()) return out;
  p.name = base.name;
  if (const auto n = root["preset"].value<std::string>()) p.name = *n;
  for (ParamError& e : validate(p)) {
    e.message = source + ": " + e.key + " " + e.message;
    out.errors.push_back(std::move(e));
  }
  if (out.errors.empty()) out.params = p;
  return out;
}

}  // namespace memstore::model
