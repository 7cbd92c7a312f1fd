// SPDX-License-Identifier: Apache-2.0
// The command line into a configuration (resolve, config.h): the flags of
// the single-LUN case written as the TOML a file would hold and parsed by
// the file's parser, or --config's file; then the flags that apply to both.
#include <algorithm>
#include <regex>
#include <sstream>

#include "target/daemon/config.h"
#include "target/daemon/config_names.h"

namespace memstore::daemon {

namespace {

// A TOML basic string holding `s`.
std::string quoted(const std::string& s) {
  std::string out = "\"";
  for (char ch : s) {
    if (ch == '"' || ch == '\\') out += '\\';
    out += ch;
  }
  return out + "\"";
}

// An error in a flag's value, found by the file's parser in the TOML the
// flags were written into ("command line:4: target[0].lun[0].timing: ..."),
// named by the flag instead ("--timing: ...").
std::string flag_error(const std::string& error) {
  static const std::regex kKey(R"(^command line:\d+: target\[0\]\.(?:lun\[0\]\.)?(\w+): )");
  std::smatch m;
  if (!std::regex_search(error, m, kKey)) return error;
  const std::string key = m[1].str();
  return (key == "name" ? std::string("--target-name") : "--" + key) + ": " +
         error.substr(static_cast<std::size_t>(m.length(0)));
}

}  // namespace

Expected<Config> resolve(const CommandLine& cli) {
  Config config;
  if (!cli.config_file.empty()) {
    if (!cli.backing.empty() || !cli.device.empty() || !cli.timing.empty() ||
        !cli.scheduler.empty() || !cli.target_name.empty()) {
      return Error(
          std::string("--config: --backing, --device, --timing, --scheduler and --target-name "
                      "describe the single-LUN case; put them in the config file instead"));
    }
    auto loaded = load_config(cli.config_file);
    if (!loaded.ok()) return loaded.error();
    config = *loaded;
  } else {
    // The default: one G2 LUN, overridden by the flags, as a config file would say it.
    std::ostringstream toml;
    toml << "[[target]]\nname = "
         << quoted(cli.target_name.empty() ? kDefaultTargetName : cli.target_name)
         << "\n[[target.lun]]\n";
    if (!cli.device.empty()) toml << "device = " << quoted(cli.device) << "\n";
    if (!cli.backing.empty()) toml << "backing = " << quoted(cli.backing) << "\n";
    if (!cli.timing.empty()) toml << "timing = " << quoted(cli.timing) << "\n";
    if (!cli.scheduler.empty()) toml << "scheduler = " << quoted(cli.scheduler) << "\n";
    auto parsed = parse_config(toml.str(), "command line");
    if (!parsed.ok()) return Error(flag_error(parsed.error().message));
    config = *parsed;
  }
  if (!cli.listen.empty()) {
    const auto portal = parse_portal(cli.listen);
    if (!portal)
      return Error("--listen: '" + cli.listen + "' is not ADDR:PORT (e.g. 127.0.0.1:3260)");
    config.targets.front().portals = {*portal};
  }
  if (!cli.control_socket.empty()) config.control_socket = cli.control_socket;
  if (!cli.metrics.empty()) {
    if (!parse_portal(cli.metrics)) {
      return Error("--metrics: '" + cli.metrics + "' is not ADDR:PORT (e.g. 127.0.0.1:9464)");
    }
    config.metrics = cli.metrics;
  }
  if (!cli.log_level.empty()) {
    if (const Status e = check_log_level(cli.log_level); !e.ok())
      return Error("--log-level: " + e.error().message);
    config.log_level = cli.log_level;
  }
  const std::pair<const std::optional<std::uint32_t>&, std::uint32_t Config::*> numbers[] = {
      {cli.nop_in_interval, &Config::nop_in_interval},
      {cli.nop_in_timeout, &Config::nop_in_timeout},
      {cli.spin_us, &Config::spin_us},
      {cli.rt_priority, &Config::rt_priority},
      {cli.transport_compensation_us, &Config::transport_compensation_us},
      {cli.threads, &Config::threads},
      {cli.awake_cpus, &Config::awake_cpus},
      {cli.security_log_rate, &Config::security_log_rate},
  };
  for (const auto& [value, field] : numbers) {
    if (!value) continue;
    for (const DaemonNumber& n : kDaemonNumbers) {
      if (n.field != field || (*value >= n.min && *value <= n.max)) continue;
      std::string flag = std::string("--") + n.key;
      std::replace(flag.begin(), flag.end(), '_', '-');
      return Error(flag + ": must be from " + std::to_string(n.min) + " to " +
                   std::to_string(n.max) + " (" + n.unit + "); it is " + std::to_string(*value));
    }
    config.*field = *value;
  }
  for (const std::string& name : cli.control_initiators) {
    if (const Status e = check_iscsi_name(name); !e.ok())
      return Error("--control-initiator: " + e.error().message);
  }
  config.control_initiators.insert(config.control_initiators.end(), cli.control_initiators.begin(),
                                   cli.control_initiators.end());
  return finish_config(std::move(config), "command line");
}

}  // namespace memstore::daemon
