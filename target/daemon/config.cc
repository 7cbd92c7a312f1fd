// SPDX-License-Identifier: Apache-2.0
#include "target/daemon/config.h"

#include <toml++/toml.h>

#include <algorithm>
#include <cerrno>
#include <charconv>
#include <cstring>
#include <fstream>
#include <limits>
#include <set>
#include <sstream>

#include "model/params_toml.h"
#include "model/scheduler.h"
#include "model/toml_where.h"
#include "modepages/vpd_pages.h"
#include "target/daemon/config_lun.h"
#include "target/daemon/config_names.h"
#include "target/iscsi/chap.h"
#include "target/lunspec/fault_toml.h"
#include "target/lunspec/lun_device.h"
#include "target/scsi/fault_set.h"
#include "target/scsi/log_sink.h"

namespace memstore::daemon {
namespace {

// Errors carry "file:line: key: problem; fix".
struct Ctx {
  const std::string& source;
  std::string error;
  bool fail(const toml::node* at, const std::string& key, const std::string& what) {
    if (error.empty()) {
      error = (at != nullptr ? model::toml_where(at->source(), source) : source) + ": " + key +
              ": " + what;
    }
    return false;
  }
};

bool only_keys(Ctx& ctx, const toml::table& t, const std::string& where,
               const std::vector<const char*>& allowed) {
  for (const auto& [k, v] : t) {
    const std::string key(k.str());
    if (std::find_if(allowed.begin(), allowed.end(), [&](const char* a) { return key == a; }) ==
        allowed.end()) {
      std::string list;
      for (const char* a : allowed) list += (list.empty() ? "" : ", ") + std::string(a);
      return ctx.fail(&v, where + key, "unknown key; known keys here are " + list);
    }
  }
  return true;
}

bool get_string(Ctx& ctx, const toml::table& t, const std::string& where, const char* key,
                std::string& out) {
  const toml::node* n = t.get(key);
  if (n == nullptr) return true;
  const auto v = n->value_exact<std::string>();
  if (!v) return ctx.fail(n, where + key, "must be a string");
  out = *v;
  return true;
}

bool get_strings(Ctx& ctx, const toml::table& t, const std::string& where, const char* key,
                 std::vector<std::string>& out) {
  const toml::node* n = t.get(key);
  if (n == nullptr) return true;
  const toml::array* a = n->as_array();
  if (a == nullptr) return ctx.fail(n, where + key, "must be an array of strings");
  out.clear();
  for (const toml::node& e : *a) {
    const auto v = e.value_exact<std::string>();
    if (!v) return ctx.fail(&e, where + key, "must be an array of strings");
    out.push_back(*v);
  }
  return true;
}

template <class T>
bool get_int(Ctx& ctx, const toml::table& t, const std::string& where, const char* key, T& out,
             std::int64_t lo, std::int64_t hi, const char* unit = nullptr) {
  const toml::node* n = t.get(key);
  if (n == nullptr) return true;
  const auto v = n->value_exact<std::int64_t>();
  if (!v || *v < lo || *v > hi) {
    std::string what =
        "must be an integer from " + std::to_string(lo) + " to " + std::to_string(hi);
    if (unit != nullptr) what += std::string(" (") + unit + ")";
    if (v) what += "; it is " + std::to_string(*v);
    return ctx.fail(n, where + key, what);
  }
  out = static_cast<T>(*v);
  return true;
}

bool get_names(Ctx& ctx, const toml::table& t, const std::string& where, const char* key,
               std::vector<std::string>& out) {
  if (!get_strings(ctx, t, where, key, out)) return false;
  for (const std::string& name : out) {
    if (const Status e = check_iscsi_name(name); !e.ok()) {
      return ctx.fail(t.get(key), where + key, e.error().message);
    }
  }
  return true;
}

// One CHAP field's length bounds (RFC 7143 §9.2.1: secrets of at least 96
// bits; §6.1: a name travels as a text value of at most 255 bytes).
struct ChapField {
  const char* key;
  std::string Chap::*field;
  std::size_t min, max;
  const char* fix;
};
constexpr ChapField kChapFields[] = {
    {"user", &Chap::user, 1, iscsi::kMaxChapNameBytes, "the name the initiator presents"},
    {"secret", &Chap::secret, iscsi::kMinChapSecretBytes, iscsi::kMaxChapSecretBytes,
     "RFC 7143 §9.2.1 asks for at least 96 bits; use a random one, e.g. "
     "`openssl rand -base64 18`"},
    {"mutual_user", &Chap::mutual_user, 1, iscsi::kMaxChapNameBytes,
     "the name the target presents"},
    {"mutual_secret", &Chap::mutual_secret, iscsi::kMinChapSecretBytes, iscsi::kMaxChapSecretBytes,
     "RFC 7143 §9.2.1 asks for at least 96 bits; use a random one, e.g. "
     "`openssl rand -base64 18`"},
};

bool check_chap(Ctx& ctx, const toml::node* at, const std::string& where, const Chap& chap) {
  const bool mutual = !chap.mutual_user.empty() || !chap.mutual_secret.empty();
  for (const ChapField& f : kChapFields) {
    const std::string& v = chap.*f.field;
    const bool mutual_field = f.field == &Chap::mutual_user || f.field == &Chap::mutual_secret;
    if (mutual_field && !mutual) continue;
    if (v.size() < f.min || v.size() > f.max) {
      std::string what =
          v.empty() ? std::string("is missing") : "is " + std::to_string(v.size()) + " bytes";
      if (mutual_field && v.empty())
        what += " (mutual CHAP needs both mutual_user and mutual_secret)";
      return ctx.fail(at, where + f.key,
                      what + "; it must be " + std::to_string(f.min) + " to " +
                          std::to_string(f.max) + " bytes (" + f.fix + ")");
    }
  }
  if (mutual && chap.mutual_secret == chap.secret) {
    return ctx.fail(at, where + "mutual_secret",
                    "must differ from secret (RFC 7143 §9.2.1: one secret never proves both "
                    "directions)");
  }
  return true;
}

// A `chap` table ([[target]] chap, [discovery] chap): absent leaves `out`
// empty; present, every field is checked (check_chap).
bool parse_chap(Ctx& ctx, const toml::node* c, const std::string& where, std::optional<Chap>& out) {
  if (c == nullptr) return true;
  const toml::table* ct = c->as_table();
  if (ct == nullptr) return ctx.fail(c, where, "must be a table");
  Chap chap;
  const std::string cw = where + ".";
  if (!only_keys(ctx, *ct, cw, {"user", "secret", "mutual_user", "mutual_secret"}) ||
      !get_string(ctx, *ct, cw, "user", chap.user) ||
      !get_string(ctx, *ct, cw, "secret", chap.secret) ||
      !get_string(ctx, *ct, cw, "mutual_user", chap.mutual_user) ||
      !get_string(ctx, *ct, cw, "mutual_secret", chap.mutual_secret) ||
      !check_chap(ctx, c, cw, chap)) {
    return false;
  }
  out = chap;
  return true;
}

bool resolve_device(Ctx& ctx, const toml::table& t, const std::string& where, LunSpec& lun) {
  if (const auto s = lunspec::resolve_device(lun, lun.set); !s.ok()) {
    static constexpr const char* kKeys[] = {"device", "set", "device_config", "rotation_rate"};
    const char* key = kKeys[static_cast<int>(s.error().field)];
    return ctx.fail(t.contains(key) ? t.get(key) : t.get("device"), where + key, s.error().message);
  }
  if (lun.config.disk) return true;  // a disk's `set` is applied
  auto apply = [&](std::string_view text, const std::string& src) {
    const model::ParamsResult r = model::params_from_toml(text, lun.config.device, src);
    if (!r.params) return ctx.fail(t.get("device"), where + "device", r.errors.front().message);
    lun.config.device = *r.params;
    return true;
  };
  if (!lun.device_config.empty()) {
    errno = 0;
    std::ifstream in(lun.device_config);
    if (!in)
      return ctx.fail(t.get("device"), where + "device_config",
                      "cannot read '" + lun.device_config + "': " + std::strerror(errno));
    std::ostringstream text;
    text << in.rdbuf();
    if (!apply(text.str(), lun.device_config)) return false;
  }
  for (const std::string& kv : lun.set) {
    if (kv.find('=') == std::string::npos)
      return ctx.fail(t.get("device"), where + "set", "expected key=value, got '" + kv + "'");
    if (!apply(kv, where + "set")) return false;
  }
  return true;
}

// [[target.lun.fault]] tables (docs/faults.md), checked against the LUN's
// resolved geometry.
bool parse_faults(Ctx& ctx, const toml::table& t, const std::string& where, LunSpec& lun) {
  const toml::node* n = t.get("fault");
  if (n == nullptr) return true;
  const toml::array* rules = n->as_array();
  if (rules == nullptr) return ctx.fail(n, where + "fault", "must be [[target.lun.fault]] tables");
  const model::Geometry g(lun.config.device);
  const lunspec::FaultScope scope{static_cast<std::int64_t>(lunspec::device_blocks(lun)),
                                  lun.config.disk ? nullptr : &g};
  auto parsed =
      lunspec::parse_fault_list(*rules, scope, lun.config.timing.mode == scsi::TimingMode::kOff);
  if (!parsed.ok()) {
    const lunspec::FaultListError& e = parsed.error();
    if (!e.rule) return ctx.fail(n, where + "fault", e.error.message);
    const std::string fw = where + "fault[" + std::to_string(*e.rule) + "].";
    return ctx.fail(e.error.at, fw + e.error.key, e.error.message);
  }
  lun.config.faults = std::move(parsed).value();
  return true;
}

// cache_mb and cache_writeback_ms: the volatile write cache's, so only with
// durability = "volatile" (docs/crash-consistency.md).
bool parse_volatile_cache(Ctx& ctx, const toml::table& t, const std::string& where, LunSpec& lun) {
  for (const char* key : {"cache_mb", "cache_writeback_ms"}) {
    if (t.get(key) && lun.durability != Durability::kVolatile) {
      return ctx.fail(t.get(key), where + key,
                      "applies only to a volatile write cache; add durability = \"volatile\" "
                      "or remove it");
    }
  }
  std::int64_t mb = -1;
  if (!get_int(ctx, t, where, "cache_mb", mb, 1, 65536, "MiB") ||
      !get_int(ctx, t, where, "cache_writeback_ms", lun.cache_writeback_ms, 0, 3600000, "ms")) {
    return false;
  }
  if (mb > 0) lun.cache_mb = static_cast<std::uint32_t>(mb);
  return true;
}

bool parse_lun(Ctx& ctx, const toml::table& t, const std::string& where,
               const std::string& state_dir, const std::string& target_name, LunSpec& lun) {
  if (!only_keys(ctx, t, where,
                 {"id", "device", "device_config", "set", "backing", "durability", "timing",
                  "scale", "scheduler", "rotation_rate", "fault", "fault_seed", "cache_mb",
                  "cache_writeback_ms", "write_log", "trace", "trace_format"})) {
    return false;
  }
  std::string durability = "write-back", timing = "realtime", trace_format = "disksim";
  if (!get_int(ctx, t, where, "id", lun.id, 0, 16383) ||
      !get_string(ctx, t, where, "device", lun.device) ||
      !get_string(ctx, t, where, "device_config", lun.device_config) ||
      !get_strings(ctx, t, where, "set", lun.set) ||
      !get_string(ctx, t, where, "backing", lun.backing) ||
      !get_string(ctx, t, where, "durability", durability) ||
      !get_string(ctx, t, where, "write_log", lun.write_log) ||
      !get_string(ctx, t, where, "trace", lun.trace) ||
      !get_string(ctx, t, where, "trace_format", trace_format) ||
      !get_string(ctx, t, where, "timing", timing) ||
      !get_string(ctx, t, where, "scheduler", lun.config.scheduler) ||
      !get_int(ctx, t, where, "rotation_rate", lun.config.rotation_rate, 0, 65534) ||
      !get_int(ctx, t, where, "fault_seed", lun.config.fault_seed, 0,
               std::numeric_limits<std::int64_t>::max())) {
    return false;
  }
  if (!modepages::valid_rotation_rate(lun.config.rotation_rate)) {  // SBC-3 VPD B1h
    return ctx.fail(t.get("rotation_rate"), where + "rotation_rate",
                    "must be 0 (not reported), 1 (non-rotating) or 1025 to 65534 rpm; " +
                        std::to_string(lun.config.rotation_rate) +
                        " is reserved (SBC-3, VPD page B1h)");
  }
  const auto named = lunspec::durability_named(durability);
  if (!named) {
    return ctx.fail(t.get("durability"), where + "durability",
                    std::string("must be ") + lunspec::kDurabilityChoices);
  }
  lun.durability = *named;
  if (!parse_volatile_cache(ctx, t, where, lun)) return false;
  const auto format = model::parse_trace_format(trace_format);
  if (!format) {
    return ctx.fail(t.get("trace_format"), where + "trace_format",
                    "must be \"disksim\" or \"spc\"");
  }
  if (t.get("trace_format") && lun.trace.empty()) {
    return ctx.fail(t.get("trace_format"), where + "trace_format",
                    "applies only to a capture; add trace = \"PATH\" or remove it");
  }
  lun.trace_format = *format;
  const auto mode = scsi::parse_timing_mode(timing);
  if (!mode)
    return ctx.fail(t.get("timing"), where + "timing",
                    "must be \"realtime\", \"scaled\" or \"off\"");
  lun.config.timing.mode = *mode;
  if (const toml::node* s = t.get("scale")) {
    // Finite and within what page 22h can hold (mode_vendor.h, kMaxScaleMilli).
    const auto v = s->value<double>();
    if (!v || !scsi::scale_in_range(*v)) {
      std::string what =
          "must be a number from 0.001 to 1000 (1.0 = real time, 2.0 = twice as slow)";
      if (v) {
        std::ostringstream shown;  // 1e+300, inf, nan: short, unlike std::to_string
        shown << *v;
        what += "; it is " + shown.str();
      }
      return ctx.fail(s, where + "scale", what);
    }
    lun.config.timing.scale = *v;
  }
  if (!model::make_scheduler(lun.config.scheduler)) {
    return ctx.fail(t.get("scheduler"), where + "scheduler",
                    "unknown scheduler '" + lun.config.scheduler +
                        "'; use fcfs, clook, sstf, sptf, asptf, sdf, zsptf, zfcfs or ztsptf");
  }
  if (lun.backing.empty()) {
    // Default image: one per target and LUN under the state directory.
    std::string safe = target_name;
    for (char& ch : safe) {
      if (ch == ':' || ch == '/') ch = '_';
    }
    lun.backing = state_dir + "/" + safe + "-lun" + std::to_string(lun.id) + ".img";
  }
  return resolve_device(ctx, t, where, lun) && parse_faults(ctx, t, where, lun);
}

bool parse_target(Ctx& ctx, const toml::table& t, const std::string& where,
                  const std::string& state_dir, TargetSpec& target) {
  if (!only_keys(ctx, t, where, {"name", "alias", "portals", "acl", "chap", "lun"})) return false;
  std::vector<std::string> portals = {kDefaultPortal};
  if (!get_string(ctx, t, where, "name", target.name) ||
      !get_string(ctx, t, where, "alias", target.alias) ||
      !get_strings(ctx, t, where, "portals", portals) ||
      !get_names(ctx, t, where, "acl", target.acl)) {
    return false;
  }
  if (const Status e = check_iscsi_name(target.name); !e.ok()) {
    return ctx.fail(t.get("name"), where + "name", e.error().message);
  }
  for (const std::string& p : portals) {
    const auto portal = parse_portal(p);
    if (!portal)
      return ctx.fail(t.get("portals"), where + "portals", "'" + p + "' is not ADDR:PORT");
    target.portals.push_back(*portal);
  }
  if (!parse_chap(ctx, t.get("chap"), where + "chap", target.chap)) return false;
  const toml::node* luns = t.get("lun");
  const toml::array* arr = luns != nullptr ? luns->as_array() : nullptr;
  if (arr == nullptr || arr->empty()) {
    return ctx.fail(luns, where + "lun", "each target needs at least one [[target.lun]]");
  }
  std::set<std::uint16_t> ids;
  for (std::size_t i = 0; i < arr->size(); ++i) {
    const toml::table* lt = (*arr)[i].as_table();
    const std::string lw = where + "lun[" + std::to_string(i) + "].";
    if (lt == nullptr) return ctx.fail(&(*arr)[i], lw, "must be a table");
    LunSpec lun;
    lun.id = static_cast<std::uint16_t>(i);
    if (!parse_lun(ctx, *lt, lw, state_dir, target.name, lun)) return false;
    if (!ids.insert(lun.id).second)
      return ctx.fail(lt->get("id"), lw + "id", "duplicate LUN id " + std::to_string(lun.id));
    target.luns.push_back(std::move(lun));
  }
  return true;
}

}  // namespace

Expected<Config> parse_config(std::string_view text, const std::string& source) {
  Config config;
  Ctx ctx{source, {}};
  auto parsed = model::parse_toml(text, source);
  if (!parsed.ok()) return parsed.error();
  toml::table& root = *parsed;
  if (!only_keys(ctx, root, "", {"daemon", "discovery", "target", "limits"}))
    return Error(ctx.error);
  if (const toml::node* d = root.get("daemon")) {
    const toml::table* dt = d->as_table();
    if (dt == nullptr) return Error((ctx.fail(d, "daemon", "must be a table"), ctx.error));
    std::vector<const char*> keys = {"log_level", "state_dir", "control_initiators",
                                     "control_socket", "metrics"};
    for (const DaemonNumber& n : kDaemonNumbers) keys.push_back(n.key);
    if (!only_keys(ctx, *dt, "daemon.", keys) ||
        !get_string(ctx, *dt, "daemon.", "log_level", config.log_level) ||
        !get_string(ctx, *dt, "daemon.", "state_dir", config.state_dir) ||
        !get_string(ctx, *dt, "daemon.", "control_socket", config.control_socket) ||
        !get_string(ctx, *dt, "daemon.", "metrics", config.metrics) ||
        !get_names(ctx, *dt, "daemon.", "control_initiators", config.control_initiators)) {
      return Error(ctx.error);
    }
    if (const Status e = check_log_level(config.log_level); !e.ok()) {
      return Error(
          (ctx.fail(dt->get("log_level"), "daemon.log_level", e.error().message), ctx.error));
    }
    if (!config.metrics.empty() && !parse_portal(config.metrics)) {
      return Error((ctx.fail(dt->get("metrics"), "daemon.metrics",
                             "must be ADDR:PORT, e.g. \"127.0.0.1:9464\""),
                    ctx.error));
    }
    for (const DaemonNumber& n : kDaemonNumbers) {
      if (!get_int(ctx, *dt, "daemon.", n.key, config.*n.field, n.min, n.max, n.unit)) {
        return Error(ctx.error);
      }
    }
  }
  if (const toml::node* l = root.get("limits")) {
    const toml::table* lt = l->as_table();
    if (lt == nullptr) return Error((ctx.fail(l, "limits", "must be a table"), ctx.error));
    std::vector<const char*> keys;
    for (const LimitNumber& n : kLimitNumbers) keys.push_back(n.key);
    if (!only_keys(ctx, *lt, "limits.", keys)) return Error(ctx.error);
    for (const LimitNumber& n : kLimitNumbers) {
      if (!get_int(ctx, *lt, "limits.", n.key, config.limits.*n.field, n.min, n.max, n.unit)) {
        return Error(ctx.error);
      }
    }
  }
  if (const toml::node* d = root.get("discovery")) {
    const toml::table* dt = d->as_table();
    if (dt == nullptr) return Error((ctx.fail(d, "discovery", "must be a table"), ctx.error));
    if (!only_keys(ctx, *dt, "discovery.", {"chap"}) ||
        !parse_chap(ctx, dt->get("chap"), "discovery.chap", config.discovery_chap)) {
      return Error(ctx.error);
    }
  }
  const toml::node* targets = root.get("target");
  const toml::array* arr = targets != nullptr ? targets->as_array() : nullptr;
  if (arr == nullptr || arr->empty()) {
    ctx.fail(targets, "target", "the configuration needs at least one [[target]]");
    return Error(ctx.error);
  }
  std::set<std::string> names;
  for (std::size_t i = 0; i < arr->size(); ++i) {
    const toml::table* tt = (*arr)[i].as_table();
    const std::string tw = "target[" + std::to_string(i) + "].";
    if (tt == nullptr) return Error((ctx.fail(&(*arr)[i], tw, "must be a table"), ctx.error));
    TargetSpec target;
    if (!parse_target(ctx, *tt, tw, config.state_dir, target)) return Error(ctx.error);
    if (!names.insert(target.name).second)
      return Error((ctx.fail(tt->get("name"), tw + "name", "duplicate target name"), ctx.error));
    config.targets.push_back(std::move(target));
  }
  return finish_config(std::move(config), source);
}

Expected<Config> load_config(const std::string& path) {
  errno = 0;
  std::ifstream in(path);
  if (!in) return Error("--config: cannot read '" + path + "': " + std::strerror(errno));
  std::ostringstream text;
  text << in.rdbuf();
  return parse_config(text.str(), path);
}

Expected<Config> finish_config(Config config, const std::string& source) {
  if (const Status e = check_log_level(config.log_level); !e.ok()) {
    return Error(source + ": log_level: " + e.error().message);
  }
  for (const DaemonNumber& n : kDaemonNumbers) {
    const std::uint32_t v = config.*n.field;
    if (v < n.min || v > n.max) {
      return Error(source + ": " + n.key + ": must be from " + std::to_string(n.min) + " to " +
                   std::to_string(n.max) + " (" + n.unit + "); it is " + std::to_string(v));
    }
  }
  for (const std::string& name : config.control_initiators) {
    if (const Status e = check_iscsi_name(name); !e.ok()) {
      return Error(source + ": control_initiators: " + e.error().message);
    }
  }
  for (TargetSpec& t : config.targets) {
    for (LunSpec& lun : t.luns) lun.config.control_access.initiators = config.control_initiators;
  }
  return config;
}

Expected<LunSpec> parse_lun_table(const toml::table& t, const std::string& where,
                                  const std::string& state_dir, const std::string& target_name,
                                  const std::vector<std::string>& control_initiators) {
  // No file and no lines: the error is the key and the fix alone.
  const std::string source = "lun-add";
  Ctx ctx{source, {}};
  if (!t.contains("id"))
    return Error(where + "id: is missing; give the new LUN's number (0 to 16383)");
  LunSpec lun;
  if (!parse_lun(ctx, t, where, state_dir, target_name, lun)) {
    return Error(ctx.error.substr(ctx.error.find(": ") + 2));  // after "lun-add:LINE"
  }
  lun.config.control_access.initiators = control_initiators;  // as finish() gives every LUN
  return lun;
}

Expected<TargetSpec> parse_target_table(const toml::table& t, const std::string& where,
                                        const std::string& state_dir,
                                        const std::vector<std::string>& control_initiators) {
  const std::string source = "target-add";
  Ctx ctx{source, {}};
  if (!t.contains("name")) {
    return Error(where +
                 "name: is missing; give the new target's iSCSI name (an iqn. or eui. name)");
  }
  TargetSpec target;
  if (!parse_target(ctx, t, where, state_dir, target)) {
    return Error(ctx.error.substr(ctx.error.find(": ") + 2));  // after "target-add:LINE"
  }
  for (LunSpec& lun : target.luns) lun.config.control_access.initiators = control_initiators;
  return target;
}

Expected<Chap> parse_chap_table(const toml::table& t, const std::string& where) {
  const std::string source = "chap-set";
  Ctx ctx{source, {}};
  std::optional<Chap> chap;
  if (!parse_chap(ctx, &t, where, chap)) {
    return Error(ctx.error.substr(ctx.error.find(": ") + 2));  // after "chap-set:LINE"
  }
  return *chap;
}

}  // namespace memstore::daemon
