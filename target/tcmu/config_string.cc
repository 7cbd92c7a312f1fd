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
#include "modepages/vpd_pages.h"
#include "target/lunspec/lun_device.h"

namespace memstore::tcmu {

const char* const kConfigHelp =
    "MEMStore (a MEMS storage device model) config string:\n"
    "  <backing image>[;key=value]...\n"
    "The image is an absolute path (created sparse when absent; its directory must exist)\n"
    "or 'memory' (volatile). The backstore's size must equal the device's capacity\n"
    "(G2: size=3456000000; atlas10k: size=9199079936). Keys:\n"
    "  device=g1|g2|g3|uysal03|asplos99-g1|asplos99-g2|asplos99-g3  a MEMStore (default g2)\n"
    "  device=atlas10k|disk20k|cheetah4lp|superdisk  a zoned rotating disk\n"
    "  config=/abs/params.toml         device parameter overrides (memstored's device_config)\n"
    "  timing=realtime|scaled|off      when completions are delivered (default realtime)\n"
    "  scale=K                         with timing=scaled: wall delay = K x modeled delay\n"
    "  scheduler=fcfs|clook|sstf|sptf|asptf|sdf|zsptf   (default fcfs)\n"
    "  durability=write-back|write-through|volatile     (default write-back)\n"
    "  cache_mb=N                      volatile: the device's write cache (default per device)\n"
    "  cache_writeback_ms=T            volatile: idle time before it writes back (default 0)\n"
    "  write_log=/abs/path             record every write and flush (dm-log-writes' format)\n"
    "  rotation_rate=N                 VPD B1h MEDIUM ROTATION RATE (default 0)\n"
    "  control=deny|allow              may initiators change mode pages 22h, 1Ah (default deny)\n"
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

Status set_config(std::string_view v, lunspec::LunSpec& spec) {
  if (v.empty() || v.front() != '/')
    return Error("'" + std::string(v) + "' is not an absolute path");
  spec.device_config = std::string(v);
  return {};
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
                 "'; use fcfs, clook, sstf, sptf, asptf, sdf or zsptf");
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
  if (v.empty() || v.front() != '/')
    return Error("'" + std::string(v) + "' is not an absolute path");
  spec.write_log = std::string(v);
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

// tcmu-runner strips its own key before the handler's open() sees the string,
// but check_config gets it whole.
Status ignore(std::string_view, lunspec::LunSpec&) {
  return {};
}

constexpr Option kOptions[] = {
    {"device", set_device},       {"config", set_config},
    {"timing", set_timing},       {"scale", set_scale},
    {"scheduler", set_scheduler}, {"durability", set_durability},
    {"cache_mb", set_cache_mb},   {"cache_writeback_ms", set_cache_writeback_ms},
    {"write_log", set_write_log}, {"rotation_rate", set_rotation_rate},
    {"control", set_control},     {"tcmur_cmd_time_out", ignore},
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

Status resolve_params(lunspec::LunSpec& spec) {
  if (const auto e = lunspec::resolve_device(spec, {}); !e.ok()) {
    static constexpr const char* kKeys[] = {"device", "set", "config", "rotation_rate"};
    return Error(std::string(kKeys[static_cast<int>(e.error().field)]) + ": " + e.error().message);
  }
  if (spec.config.disk) return {};
  if (!spec.device_config.empty()) {
    // A regular file of bounded size: check_config runs inside tcmu-runner,
    // and a FIFO or /dev/zero must not hang it.
    std::error_code ec;
    if (!std::filesystem::is_regular_file(spec.device_config, ec))
      return Error("config: '" + spec.device_config + "' is not a readable regular file");
    if (std::filesystem::file_size(spec.device_config, ec) > kMaxConfigFileBytes || ec)
      return Error("config: '" + spec.device_config + "' is larger than 1 MiB");
    std::ifstream in(spec.device_config);
    if (!in) return Error("config: cannot read '" + spec.device_config + "'");
    std::ostringstream text;
    text << in.rdbuf();
    const model::ParamsResult r =
        model::params_from_toml(text.str(), spec.config.device, spec.device_config);
    if (!r.params) return Error("config: " + r.errors.front().message);
    spec.config.device = *r.params;
  }
  for (const model::ParamError& e : model::validate(spec.config.device)) {
    return Error((spec.device_config.empty() ? "device: " : "config: ") + e.key + ": " + e.message);
  }
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
  }
  if (seen.count("scale") != 0 && spec.config.timing.mode != scsi::TimingMode::kScaled) {
    return Error("scale: only meaningful with timing=scaled");
  }
  if (const Status e = resolve_params(spec); !e.ok()) return e.error();
  return spec;
}

}  // namespace memstore::tcmu
