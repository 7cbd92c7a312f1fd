// SPDX-License-Identifier: Apache-2.0
#include "target/tcmu/config_string.h"

#include <charconv>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <optional>
#include <set>
#include <sstream>
#include <vector>

#include "model/params_toml.h"
#include "model/scheduler.h"
#include "model/toml_where.h"
#include "modepages/vpd_pages.h"
#include "target/lunspec/fault_toml.h"
#include "target/lunspec/lun_device.h"

namespace memstore::tcmu {

const char* const kConfigHelp =
    "MEMStore (a MEMS storage device model) config string:\n"
    "  <backing image>[;key=value]...\n"
    "The image is an absolute path (created sparse when absent; its directory must exist)\n"
    "or 'memory' (volatile). The backstore's size must equal the device's capacity\n"
    "(G2: size=3456000000; atlas10k: size=9199079936). Keys:\n"
    "  device=g1|g2|g3|uysal03|tos05|asplos99-g1|asplos99-g2|asplos99-g3  a MEMStore (default g2)\n"
    "  device=atlas10k|disk20k|cheetah4lp|superdisk  a zoned rotating disk\n"
    "  config=/abs/params.toml         device parameter overrides (memstored's device_config)\n"
    "  timing=realtime|scaled|off      when completions are delivered (default realtime)\n"
    "  scale=K                         with timing=scaled: wall delay = K x modeled delay\n"
    "  scheduler=fcfs|clook|sstf|sptf|asptf|sdf|zsptf|zfcfs|ztsptf   (default fcfs)\n"
    "  durability=write-back|write-through|volatile     (default write-back)\n"
    "  cache_mb=N                      volatile: the device's write cache (default per device)\n"
    "  cache_writeback_ms=T            volatile: idle time before it writes back (default 0)\n"
    "  write_log=/abs/path             record every write and flush (dm-log-writes' format)\n"
    "  rotation_rate=N                 VPD B1h MEDIUM ROTATION RATE (default 0)\n"
    "  control=deny|allow              may initiators change mode pages 22h, 1Ah (default deny)\n"
    "  faults=/abs/faults.toml         fault rules, power-cut included ([[fault]] tables)\n"
    "  trace=/abs/path                 capture every model request, for memsim replay\n"
    "  trace_format=disksim|spc        the capture's lines (default disksim)\n"
    "Example: /var/lib/memstore/g2.img;device=g2;timing=realtime";

namespace {

struct Option {
  const char* key;
  // Applies the value, or says what is wrong with it (without the key).
  Status (*apply)(std::string_view value, lunspec::LunSpec& spec);
};

Status set_device(std::string_view v, lunspec::LunSpec& spec) {
  if (!lunspec::known_device(v)) {
    return Error("unknown preset '" + std::string(v) + "'; use " + lunspec::device_choices());
  }
  spec.device = std::string(v);
  return {};
}

// A file the handler opens: tcmu-runner's working directory is not the
// user's, so only an absolute path names the file they meant.
Status absolute_path(std::string_view v) {
  if (v.empty() || v.front() != '/')
    return Error("'" + std::string(v) + "' is not an absolute path");
  return {};
}

// A key whose value is such a path, stored in `field`.
Status set_path(std::string_view v, std::string& field) {
  if (Status e = absolute_path(v); !e.ok()) return e;
  field = std::string(v);
  return {};
}

Status set_config(std::string_view v, lunspec::LunSpec& spec) {
  return set_path(v, spec.device_config);
}

Status set_timing(std::string_view v, lunspec::LunSpec& spec) {
  const auto mode = scsi::parse_timing_mode(v);
  if (!mode) return Error("'" + std::string(v) + "' is not realtime, scaled or off");
  spec.config.timing.mode = *mode;
  return {};
}

Status set_scale(std::string_view v, lunspec::LunSpec& spec) {
  const std::string text(v);
  char* end = nullptr;
  const double k = std::strtod(text.c_str(), &end);
  if (text.empty() || end != text.c_str() + text.size() || !scsi::scale_in_range(k)) {
    return Error("'" + text + "' is not a number from 0.001 to 1000 (1.0 = real time)");
  }
  spec.config.timing.scale = k;
  return {};
}

Status set_scheduler(std::string_view v, lunspec::LunSpec& spec) {
  if (!model::make_scheduler(std::string(v))) {
    return Error("unknown scheduler '" + std::string(v) +
                 "'; use fcfs, clook, sstf, sptf, asptf, sdf, zsptf, zfcfs or ztsptf");
  }
  spec.config.scheduler = std::string(v);
  return {};
}

Status set_durability(std::string_view v, lunspec::LunSpec& spec) {
  const auto named = lunspec::durability_named(v);
  if (!named) return Error("'" + std::string(v) + "' is not write-back, write-through or volatile");
  spec.durability = *named;
  return {};
}

// A decimal from 0 to `hi`, whole.
std::optional<std::uint32_t> whole(std::string_view v, std::uint32_t hi) {
  std::uint32_t n = 0;
  const auto [end, ec] = std::from_chars(v.data(), v.data() + v.size(), n);
  if (v.empty() || ec != std::errc{} || end != v.data() + v.size() || n > hi) return {};
  return n;
}

Status set_write_log(std::string_view v, lunspec::LunSpec& spec) {
  return set_path(v, spec.write_log);
}

// The LUN's requests captured from the open on (scsi::RequestTrace).
Status set_trace(std::string_view v, lunspec::LunSpec& spec) {
  return set_path(v, spec.trace);
}

Status set_trace_format(std::string_view v, lunspec::LunSpec& spec) {
  const auto f = model::parse_trace_format(v);
  if (!f) return Error("'" + std::string(v) + "' is not disksim or spc");
  spec.trace_format = *f;
  return {};
}

Status set_cache_mb(std::string_view v, lunspec::LunSpec& spec) {
  const auto n = whole(v, 65536);
  if (!n || *n == 0) return Error("'" + std::string(v) + "' is not a size from 1 to 65536 MiB");
  spec.cache_mb = *n;
  return {};
}

Status set_cache_writeback_ms(std::string_view v, lunspec::LunSpec& spec) {
  const auto n = whole(v, 3600000);
  if (!n) return Error("'" + std::string(v) + "' is not a time from 0 to 3600000 ms");
  spec.cache_writeback_ms = *n;
  return {};
}

Status set_rotation_rate(std::string_view v, lunspec::LunSpec& spec) {
  unsigned n = 0;
  const auto [end, ec] = std::from_chars(v.data(), v.data() + v.size(), n);
  if (v.empty() || ec != std::errc{} || end != v.data() + v.size() || n > 0xFFFF ||
      !modepages::valid_rotation_rate(static_cast<std::uint16_t>(n))) {
    return Error(
        "'" + std::string(v) +
        "' is not 0 (not reported), 1 (non-rotating) or 1025 to 65534 rpm (SBC-3 VPD B1h)");
  }
  spec.config.rotation_rate = static_cast<std::uint16_t>(n);
  return {};
}

// TCMU does not tell userspace which initiator sent a command, so the
// handler cannot tell a control initiator (control_access.h) from another:
// either every initiator LIO lets in may change pages 22h and 1Ah, or none may.
Status set_control(std::string_view v, lunspec::LunSpec& spec) {
  if (v != "allow" && v != "deny") return Error("'" + std::string(v) + "' is not allow or deny");
  spec.config.control_access.unnamed = v == "allow";
  return {};
}

Status set_faults(std::string_view v, lunspec::LunSpec&) {
  // Read once the device is resolved (read_faults): a rule is checked
  // against the LUN's capacity and geometry.
  return absolute_path(v);
}

// tcmu-runner strips its own key before the handler's open() sees the string,
// but check_config gets it whole.
Status ignore(std::string_view, lunspec::LunSpec&) {
  return {};
}

constexpr Option kOptions[] = {
    {"device", set_device},         {"config", set_config},
    {"timing", set_timing},         {"scale", set_scale},
    {"scheduler", set_scheduler},   {"durability", set_durability},
    {"cache_mb", set_cache_mb},     {"cache_writeback_ms", set_cache_writeback_ms},
    {"write_log", set_write_log},   {"rotation_rate", set_rotation_rate},
    {"control", set_control},       {"faults", set_faults},
    {"trace", set_trace},           {"trace_format", set_trace_format},
    {"tcmur_cmd_time_out", ignore},
};

std::vector<std::string_view> split(std::string_view s, char sep) {
  std::vector<std::string_view> out;
  if (s.empty()) return out;
  for (std::size_t at = 0;;) {
    const std::size_t next = s.find(sep, at);
    out.push_back(s.substr(at, next - at));
    if (next == std::string_view::npos) return out;
    at = next + 1;
  }
}

std::string known_keys() {
  std::string s;
  for (const Option& o : kOptions) s += (s.empty() ? "" : ", ") + std::string(o.key);
  return s;
}

// The preset, then the config file's overrides, then validation.
constexpr std::uintmax_t kMaxConfigFileBytes = 1 << 20;

// A file named by a key, read whole. A regular file of bounded size:
// check_config runs inside tcmu-runner, and a FIFO or /dev/zero must not
// hang it.
Expected<std::string> read_small_file(std::string_view key, const std::string& path) {
  std::error_code ec;
  if (!std::filesystem::is_regular_file(path, ec))
    return Error(std::string(key) + ": '" + path + "' is not a readable regular file");
  if (std::filesystem::file_size(path, ec) > kMaxConfigFileBytes || ec)
    return Error(std::string(key) + ": '" + path + "' is larger than 1 MiB");
  std::ifstream in(path);
  if (!in) return Error(std::string(key) + ": cannot read '" + path + "'");
  std::ostringstream text;
  text << in.rdbuf();
  return text.str();
}

Status resolve_params(lunspec::LunSpec& spec) {
  if (const auto e = lunspec::resolve_device(spec, {}); !e.ok()) {
    static constexpr const char* kKeys[] = {"device", "set", "config", "rotation_rate"};
    return Error(std::string(kKeys[static_cast<int>(e.error().field)]) + ": " + e.error().message);
  }
  if (spec.config.disk) return {};
  if (!spec.device_config.empty()) {
    const auto text = read_small_file("config", spec.device_config);
    if (!text.ok()) return text.error();
    const model::ParamsResult r =
        model::params_from_toml(*text, spec.config.device, spec.device_config);
    if (!r.params) return Error("config: " + r.errors.front().message);
    spec.config.device = *r.params;
  }
  for (const model::ParamError& e : model::validate(spec.config.device)) {
    return Error((spec.device_config.empty() ? "device: " : "config: ") + e.key + ": " + e.message);
  }
  return {};
}

// The faults= file: memstored's fault rules (docs/faults.md) as [[fault]]
// tables, and their seed as fault_seed, the keys a [[target.lun]] table
// gives them; the rules go through the same lunspec code as memstored's.
// Messages: "faults: <file>:<line>: fault[<i>].<key>: <what is wrong>".
Status read_faults(const std::string& path, lunspec::LunSpec& spec) {
  const auto text = read_small_file("faults", path);
  if (!text.ok()) return text.error();
  auto parsed = model::parse_toml(*text, path);
  if (!parsed.ok()) return Error("faults: " + parsed.error().message);
  const toml::table& file = *parsed;
  auto fail = [&](const toml::node* at, const std::string& key, const std::string& what) {
    return Error("faults: " + (at != nullptr ? model::toml_where(at->source(), path) : path) +
                 ": " + key + ": " + what);
  };
  for (const auto& [k, v] : file) {
    if (k != "fault" && k != "fault_seed") {
      return fail(&v, std::string(k.str()),
                  "unknown key; a faults file has [[fault]] tables and fault_seed");
    }
  }
  if (const toml::node* seed = file.get("fault_seed")) {
    const auto n = seed->value<std::int64_t>();
    if (!seed->is_integer() || !n || *n < 0)
      return fail(seed, "fault_seed", "must be a whole number, 0 or more");
    spec.config.fault_seed = static_cast<std::uint64_t>(*n);
  }
  const toml::node* list = file.get("fault");
  if (list == nullptr) return {};
  const toml::array* rules = list->as_array();
  if (rules == nullptr) return fail(list, "fault", "must be [[fault]] tables");
  const model::Geometry g(spec.config.device);
  const lunspec::FaultScope scope{static_cast<std::int64_t>(lunspec::device_blocks(spec)),
                                  spec.config.disk ? nullptr : &g};
  auto parsed_rules =
      lunspec::parse_fault_list(*rules, scope, spec.config.timing.mode == scsi::TimingMode::kOff);
  if (!parsed_rules.ok()) {
    const lunspec::FaultListError& e = parsed_rules.error();
    if (!e.rule) return fail(list, "fault", e.error.message);
    std::string key = "fault[" + std::to_string(*e.rule) + "]";
    if (!e.error.key.empty()) key += "." + e.error.key;
    return fail(e.error.at, key, e.error.message);
  }
  // What the handler cannot carry out: TCMU answers every command through
  // tcmu-runner, which owns no connection (drop-connection, corrupt-digest,
  // withhold-r2t are iSCSI's), completes a command only by answering it (a
  // timeout would hold a worker until tcmu-runner's own cmd_time_out, and
  // then for ever), and does not say which initiator sent a command.
  for (std::size_t i = 0; i < parsed_rules->size(); ++i) {
    const scsi::FaultRule& rule = (*parsed_rules)[i];
    const toml::node* at = (*rules)[i].as_table();
    const std::string key = "fault[" + std::to_string(i) + "]";
    switch (rule.action) {
      case scsi::FaultAction::kTimeout:
      case scsi::FaultAction::kDropConnection:
      case scsi::FaultAction::kCorruptDigest:
      case scsi::FaultAction::kWithholdR2t:
        return fail(at, key + ".action",
                    "'" + std::string(scsi::fault_action_name(rule.action)) +
                        "' is an iSCSI transport fault, which the TCMU handler cannot carry "
                        "out (LIO owns the connection); use memstored for it, or delay, busy, "
                        "sense or power-cut here");
      default:
        break;
    }
    if (!rule.initiator.empty()) {
      return fail(at->as_table()->get("initiator"), key + ".initiator",
                  "TCMU does not say which initiator sent a command; leave the key out");
    }
  }
  spec.config.faults = std::move(parsed_rules).value();
  return {};
}

}  // namespace

Expected<lunspec::LunSpec> parse_config_string(std::string_view cfg) {
  const std::string prefix = std::string(kSubtype) + "/";
  if (cfg.substr(0, prefix.size()) == prefix) cfg.remove_prefix(prefix.size());

  lunspec::LunSpec spec;
  const std::size_t semi = cfg.find(';');
  spec.backing = std::string(cfg.substr(0, semi));
  if (spec.backing.empty()) {
    return Error(
        "backing image: missing; the string starts with an absolute image path or 'memory'");
  }
  if (spec.backing != "memory") {
    if (spec.backing.front() != '/') {
      return Error("backing image: '" + spec.backing + "' is not an absolute path (or 'memory')");
    }
    const std::filesystem::path dir = std::filesystem::path(spec.backing).parent_path();
    std::error_code ec;
    if (!std::filesystem::is_directory(dir, ec)) {
      return Error("backing image: directory '" + dir.string() + "' does not exist");
    }
    if (std::filesystem::exists(spec.backing, ec) &&
        !std::filesystem::is_regular_file(spec.backing, ec)) {
      return Error("backing image: '" + spec.backing + "' is not a regular file");
    }
  }

  std::set<std::string, std::less<>> seen;
  std::string faults;  // the faults= file, read once the device is known
  const std::string_view options =
      semi == std::string_view::npos ? std::string_view{} : cfg.substr(semi + 1);
  for (const std::string_view item : split(options, ';')) {
    if (item.empty()) continue;  // a trailing or doubled ';'
    const std::size_t eq = item.find('=');
    if (eq == std::string_view::npos || eq == 0) {
      return Error("'" + std::string(item) + "': expected key=value; known keys are " +
                   known_keys());
    }
    const std::string_view key = item.substr(0, eq);
    const Option* option = nullptr;
    for (const Option& o : kOptions) {
      if (key == o.key) option = &o;
    }
    if (option == nullptr) {
      return Error(std::string(key) + ": unknown key; known keys are " + known_keys());
    }
    if (!seen.emplace(key).second) return Error(std::string(key) + ": given twice");
    if (const Status e = option->apply(item.substr(eq + 1), spec); !e.ok()) {
      return Error(std::string(key) + ": " + e.error().message);
    }
    if (key == "faults") faults = std::string(item.substr(eq + 1));
  }
  if (seen.count("scale") != 0 && spec.config.timing.mode != scsi::TimingMode::kScaled) {
    return Error("scale: only meaningful with timing=scaled");
  }
  if (const Status e = resolve_params(spec); !e.ok()) return e.error();
  if (!faults.empty()) {
    if (const Status e = read_faults(faults, spec); !e.ok()) return e.error();
  }
  return spec;
}

}  // namespace memstore::tcmu
