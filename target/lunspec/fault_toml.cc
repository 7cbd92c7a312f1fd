// SPDX-License-Identifier: Apache-2.0
#include "target/lunspec/fault_toml.h"

#include <algorithm>
#include <cmath>
#include <cstdint>
#include <string_view>
#include <vector>

#include "modepages/mode_vendor.h"
#include "target/lunspec/lun_spec.h"
#include "target/scsi/fault_set.h"

namespace memstore::lunspec {
namespace {

using scsi::FaultAction;
using scsi::FaultRule;

// The keys every rule may have (what it matches and how often it fires).
constexpr std::string_view kMatchKeys[] = {"op",          "lba",  "initiator", "every",
                                           "probability", "once", "after_ms",  "action"};

// The keys each action takes besides those; the first `required` are required.
struct ActionKeys {
  FaultAction action;
  std::vector<std::string_view> keys;
  std::size_t required;
  // A standing condition of the device (scsi::is_standing): no match keys.
  bool standing = false;
};
const std::vector<ActionKeys>& action_keys() {
  static const std::vector<ActionKeys> table = {
      {FaultAction::kMediumError, {}, 0},
      {FaultAction::kSense, {"sense"}, 1},
      {FaultAction::kDelay, {"delay_ms"}, 1},
      {FaultAction::kTimeout, {"abort"}, 0},
      {FaultAction::kBusy, {}, 0},
      {FaultAction::kTaskSetFull, {}, 0},
      {FaultAction::kReservationConflict, {}, 0},
      {FaultAction::kUnitAttention, {"ua"}, 0},
      {FaultAction::kSpaceExhausted, {}, 0},
      {FaultAction::kFailedTip, {"tip", "sled", "spare"}, 1},
      {FaultAction::kMediaRegion, {"x", "y", "sled"}, 2},
      {FaultAction::kDropConnection, {}, 0},
      {FaultAction::kCorruptDigest, {}, 0},
      {FaultAction::kSlowSeek, {"x", "y", "factor", "sled"}, 3, true},
      {FaultAction::kWithholdR2t, {}, 0},
      {FaultAction::kPowerCut, {"policy", "seed", "off_ms"}, 0},
  };
  return table;
}

struct Reader {
  const toml::table& t;
  std::optional<FaultError> error;

  bool fail(std::string_view key, std::string message) {
    if (!error) error = FaultError{std::string(key), t.get(key), std::move(message)};
    return false;
  }

  // true or false, if the key is present.
  bool boolean(std::string_view key, bool& out) {
    const toml::node* n = t.get(key);
    if (n == nullptr) return true;
    const auto b = n->value_exact<bool>();
    if (!b) return fail(key, "must be true or false");
    out = *b;
    return true;
  }

  // An integer in [lo, hi], if the key is present.
  template <class T>
  bool integer(std::string_view key, T& out, std::int64_t lo, std::int64_t hi) {
    const toml::node* n = t.get(key);
    if (n == nullptr) return true;
    const auto v = n->value_exact<std::int64_t>();
    if (!v || *v < lo || *v > hi) {
      return fail(key, "must be an integer from " + std::to_string(lo) + " to " +
                           std::to_string(hi) + (v ? "; it is " + std::to_string(*v) : ""));
    }
    out = static_cast<T>(*v);
    return true;
  }

  // A number (integer or float) in [lo, hi].
  bool number(std::string_view key, std::optional<double>& out, double lo, double hi) {
    const toml::node* n = t.get(key);
    if (n == nullptr) return true;
    const std::optional<double> v = n->value<double>();
    if (!v || !std::isfinite(*v) || *v < lo || *v > hi) {
      return fail(key, "must be a number from " + trim(lo) + " to " + trim(hi));
    }
    out = *v;
    return true;
  }

  // [first, last] integers with lo <= first <= last <= hi.
  template <class T>
  bool range(std::string_view key, std::optional<std::pair<T, T>>& out, std::int64_t lo,
             std::int64_t hi) {
    const toml::node* n = t.get(key);
    if (n == nullptr) return true;
    const toml::array* a = n->as_array();
    const std::string want = "must be [first, last], integers with " + std::to_string(lo) +
                             " <= first <= last <= " + std::to_string(hi) + " (inclusive)";
    if (a == nullptr || a->size() != 2) return fail(key, want);
    const auto first = (*a)[0].value_exact<std::int64_t>();
    const auto last = (*a)[1].value_exact<std::int64_t>();
    if (!first || !last || *first < lo || *first > *last || *last > hi) return fail(key, want);
    out = std::pair<T, T>{static_cast<T>(*first), static_cast<T>(*last)};
    return true;
  }

  static std::string trim(double v) {
    std::string s = std::to_string(v);
    s.erase(s.find_last_not_of('0') + 1);
    if (!s.empty() && s.back() == '.') s.pop_back();
    return s;
  }
};

std::string joined(std::span<const std::string_view> names) {
  std::string s;
  for (std::string_view n : names) s += (s.empty() ? "" : ", ") + std::string(n);
  return s;
}

bool parse_op(Reader& r, FaultRule& rule) {
  const toml::node* n = r.t.get("op");
  if (n == nullptr) return true;
  if (const auto code = n->value_exact<std::int64_t>()) {
    if (*code < 0 || *code > 0xFF) return r.fail("op", "an operation code is from 0 to 255");
    rule.op = scsi::FaultOp::kOpcode;
    rule.opcode = static_cast<std::uint8_t>(*code);
    return true;
  }
  const auto s = n->value_exact<std::string>();
  if (s && *s == "read")
    rule.op = scsi::FaultOp::kRead;
  else if (s && *s == "write")
    rule.op = scsi::FaultOp::kWrite;
  else if (s && *s == "any")
    rule.op = scsi::FaultOp::kAny;
  else
    return r.fail("op", "must be \"read\", \"write\", \"any\" or an operation code (0-255)");
  return true;
}

bool parse_action(Reader& r, FaultRule& rule, const ActionKeys*& keys) {
  const toml::node* n = r.t.get("action");
  const std::string names = joined(scsi::fault_action_names());
  if (n == nullptr) return r.fail("action", "is missing; use one of " + names);
  const auto s = n->value_exact<std::string>();
  const std::optional<FaultAction> a = s ? scsi::parse_fault_action(*s) : std::nullopt;
  if (!a) return r.fail("action", "must be one of " + names);
  rule.action = *a;
  for (const ActionKeys& k : action_keys()) {
    if (k.action == *a) keys = &k;
  }
  return true;
}

// Only the match keys and the action's own; the action's required ones present.
bool check_keys(Reader& r, const ActionKeys& keys) {
  const std::string_view action = scsi::fault_action_name(keys.action);
  for (const auto& [k, v] : r.t) {
    const std::string_view key = k.str();
    if (keys.standing && key != "action" &&
        std::find(keys.keys.begin(), keys.keys.end(), key) == keys.keys.end()) {
      return r.fail(key, "is not a key of action \"" + std::string(action) +
                             "\", a condition of the device rather than of commands; it takes "
                             "action, " +
                             joined(keys.keys));
    }
    const bool known =
        std::find(std::begin(kMatchKeys), std::end(kMatchKeys), key) != std::end(kMatchKeys) ||
        std::find(keys.keys.begin(), keys.keys.end(), key) != keys.keys.end();
    if (!known) {
      std::string mine = joined(keys.keys);
      return r.fail(key, "is not a key of action \"" + std::string(action) + "\"; it takes " +
                             joined(kMatchKeys) + (mine.empty() ? "" : ", " + mine));
    }
  }
  for (std::size_t i = 0; i < keys.required; ++i) {
    if (r.t.get(keys.keys[i]) == nullptr) {
      return r.fail(keys.keys[i], "is missing; action \"" + std::string(action) + "\" needs it");
    }
  }
  return true;
}

bool parse_action_keys(Reader& r, FaultRule& rule, const FaultScope& lun, bool timing_off) {
  if (scsi::needs_mems_geometry(rule.action) && lun.mems == nullptr) {
    const bool timing = rule.action == FaultAction::kSlowSeek;
    return r.fail("action", "\"" + std::string(scsi::fault_action_name(rule.action)) +
                                "\" needs a MEMStore's probe tips, media and sled; this LUN is "
                                "a disk (use " +
                                (timing ? "\"delay\"" : "\"medium-error\"") + " with lba instead)");
  }
  switch (rule.action) {
    case FaultAction::kSense: {
      const toml::array* a = r.t.get("sense") ? r.t.get("sense")->as_array() : nullptr;
      const char* want = "must be [key, asc, ascq]: a sense key 0-15, ASC and ASCQ 0-255";
      if (a == nullptr || a->size() != 3) return r.fail("sense", want);
      std::int64_t v[3];
      for (int i = 0; i < 3; ++i) {
        const auto e = (*a)[static_cast<std::size_t>(i)].value_exact<std::int64_t>();
        if (!e || *e < 0 || *e > (i == 0 ? 15 : 255)) return r.fail("sense", want);
        v[i] = *e;
      }
      rule.sense = {static_cast<scsi::SenseKey>(v[0]), static_cast<std::uint8_t>(v[1]),
                    static_cast<std::uint8_t>(v[2])};
      return true;
    }
    case FaultAction::kDelay: {
      if (timing_off) {
        return r.fail("action",
                      "\"delay\" adds to the model's due time, and this LUN runs with "
                      "timing = \"off\"; use timing = \"realtime\" or \"scaled\"");
      }
      std::optional<double> ms;
      if (!r.number("delay_ms", ms, 0.001, 3'600'000)) return false;
      rule.delay_ns = static_cast<std::uint64_t>(std::llround(*ms * 1e6));
      return true;
    }
    case FaultAction::kTimeout: {
      const toml::node* n = r.t.get("abort");
      if (n == nullptr) return true;
      const auto s = n->value_exact<std::string>();
      if (!s || (*s != "complete" && *s != "reject")) {
        return r.fail("abort",
                      "must be \"complete\" (ABORT TASK ends the command, the default) or "
                      "\"reject\" (it is refused, so the initiator escalates to a reset)");
      }
      rule.reject_abort = *s == "reject";
      return true;
    }
    case FaultAction::kUnitAttention: {
      const toml::node* n = r.t.get("ua");
      if (n == nullptr) return true;
      const auto s = n->value_exact<std::string>();
      const auto ua = s ? scsi::parse_fault_attention(*s) : std::nullopt;
      if (!ua)
        return r.fail("ua", "must be \"power-on\", \"capacity-changed\" or \"mode-changed\"");
      rule.attention = *ua;
      return true;
    }
    case FaultAction::kFailedTip: {
      const model::Geometry& g = *lun.mems;
      return r.integer("tip", rule.tip, 0, g.n() - 1) &&
             r.integer("sled", rule.sled, 0, g.sleds() - 1) && r.boolean("spare", rule.spare);
    }
    case FaultAction::kMediaRegion: {
      const model::Geometry& g = *lun.mems;
      std::optional<std::pair<std::int32_t, std::int32_t>> x, y;
      if (!r.range("x", x, 0, std::int64_t{g.p()} * g.sx() - 1) ||
          !r.range("y", y, 0, std::int64_t{g.ny()} * g.sy() - 1) ||
          !r.integer("sled", rule.sled, 0, g.sleds() - 1)) {
        return false;
      }
      rule.x = *x;
      rule.y = *y;
      return true;
    }
    case FaultAction::kSlowSeek: {
      // Sled coordinates: a cylinder of every square and a row of it.
      const model::Geometry& g = *lun.mems;
      std::optional<std::pair<std::int32_t, std::int32_t>> x, y;
      std::optional<double> factor;
      if (!r.range("x", x, 0, g.sx() - 1) || !r.range("y", y, 0, g.sy() - 1) ||
          !r.number("factor", factor, 1, 100) || !r.integer("sled", rule.sled, 0, g.sleds() - 1)) {
        return false;
      }
      rule.x = *x;
      rule.y = *y;
      rule.factor = *factor;
      return true;
    }
    case FaultAction::kPowerCut: {
      if (const toml::node* n = r.t.get("policy")) {
        const auto s = n->value_exact<std::string>();
        const auto policy = s ? scsi::cut_policy_named(*s) : std::nullopt;
        if (!policy) return r.fail("policy", "must be \"drop-all\", \"keep-random\" or \"torn\"");
        rule.cut_policy = *policy;
      }
      std::optional<double> off_ms;
      if (!r.integer("seed", rule.cut_seed, 0, INT64_MAX) ||
          !r.number("off_ms", off_ms, 0, scsi::kMaxOffMs)) {
        return false;
      }
      rule.off_ns = static_cast<std::uint64_t>(std::llround(off_ms.value_or(0) * 1e6));
      return true;
    }
    default:
      return true;
  }
}

}  // namespace

Expected<scsi::FaultRule, FaultError> parse_fault(const toml::table& t, const FaultScope& lun,
                                                  bool timing_off) {
  Reader r{t, std::nullopt};
  FaultRule rule;
  const ActionKeys* keys = nullptr;
  std::optional<std::pair<std::uint64_t, std::uint64_t>> lba;
  std::optional<double> probability, after_ms;
  const bool ok =
      parse_action(r, rule, keys) && check_keys(r, *keys) && parse_op(r, rule) &&
      r.range("lba", lba, 0, lun.blocks - 1) && r.integer("every", rule.every, 1, 1'000'000'000) &&
      r.number("probability", probability, 0, 1) && r.number("after_ms", after_ms, 0, 1e12) &&
      parse_action_keys(r, rule, lun, timing_off);
  if (ok) {
    if (const toml::node* n = t.get("initiator")) {
      const auto s = n->value_exact<std::string>();
      if (!s || s->empty())
        r.fail("initiator", "must be an iSCSI initiator name");
      else
        rule.initiator = *s;
    }
    r.boolean("once", rule.once);
  }
  if (r.error) return *r.error;
  rule.lba = lba;
  rule.probability = probability.value_or(1.0);
  rule.after_ns = static_cast<std::uint64_t>(std::llround(after_ms.value_or(0) * 1e6));
  return rule;
}

Expected<std::vector<FaultRule>, FaultListError> parse_fault_list(const toml::array& rules,
                                                                  const FaultScope& lun,
                                                                  bool timing_off) {
  if (rules.size() > LunSpec::kMaxFaults) {
    return FaultListError{
        std::nullopt,
        {"", &rules, "at most " + std::to_string(LunSpec::kMaxFaults) + " rules per LUN"}};
  }
  std::vector<FaultRule> out;
  std::vector<modepages::FailedTip> tips;
  for (std::size_t i = 0; i < rules.size(); ++i) {
    const toml::table* t = rules[i].as_table();
    if (t == nullptr) return FaultListError{i, {"", &rules[i], "must be a table"}};
    auto parsed = parse_fault(*t, lun, timing_off);
    if (!parsed.ok()) {
      FaultError e = parsed.error();
      if (e.at == nullptr) e.at = t;
      return FaultListError{i, std::move(e)};
    }
    out.push_back(*parsed);
    scsi::add_failed_tip(tips, out.back());
    if (tips.size() > modepages::kMaxFailedTips) {
      return FaultListError{i,
                            {"tip", t,
                             "at most " + std::to_string(modepages::kMaxFailedTips) +
                                 " failed tips per LUN (page 20h lists them); name fewer tips"}};
    }
  }
  return out;
}

}  // namespace memstore::lunspec
