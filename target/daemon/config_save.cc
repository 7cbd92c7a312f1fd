// SPDX-License-Identifier: Apache-2.0
#include "target/daemon/config_save.h"

#include <fcntl.h>
#include <sys/stat.h>
#include <toml++/toml.h>
#include <unistd.h>

#include <cerrno>
#include <cstring>
#include <sstream>

#include "target/iscsi/address_text.h"
#include "target/lunspec/fault_toml.h"

namespace memstore::daemon {
namespace {

toml::array strings(const std::vector<std::string>& list) {
  toml::array a;
  for (const std::string& s : list) a.push_back(s);
  return a;
}

toml::table chap_table(const Chap& chap) {
  toml::table t;
  t.insert("user", chap.user);
  t.insert("secret", chap.secret);
  if (!chap.mutual_user.empty()) {
    t.insert("mutual_user", chap.mutual_user);
    t.insert("mutual_secret", chap.mutual_secret);
  }
  return t;
}

const char* durability_name(Durability d) {
  switch (d) {
    case Durability::kWriteThrough:
      return "write-through";
    case Durability::kVolatile:
      return "volatile";
    case Durability::kWriteBack:
      break;
  }
  return "write-back";
}

toml::table lun_table(const LunSpec& lun) {
  static const LunSpec kDefault;
  const scsi::LunConfig& c = lun.config;
  toml::table t;
  t.insert("id", static_cast<std::int64_t>(lun.id));
  t.insert("device", lun.device);
  if (!lun.device_config.empty()) t.insert("device_config", lun.device_config);
  if (!lun.set.empty()) t.insert("set", strings(lun.set));
  t.insert("backing", lun.backing);
  if (lun.durability != kDefault.durability)
    t.insert("durability", durability_name(lun.durability));
  if (lun.cache_mb) t.insert("cache_mb", static_cast<std::int64_t>(*lun.cache_mb));
  if (lun.cache_writeback_ms != kDefault.cache_writeback_ms) {
    t.insert("cache_writeback_ms", static_cast<std::int64_t>(lun.cache_writeback_ms));
  }
  if (!lun.write_log.empty()) t.insert("write_log", lun.write_log);
  if (!lun.trace.empty()) {
    t.insert("trace", lun.trace);
    if (lun.trace_format != kDefault.trace_format) {
      t.insert("trace_format", std::string(model::trace_format_name(lun.trace_format)));
    }
  }
  if (c.timing.mode != kDefault.config.timing.mode) {
    t.insert("timing", scsi::timing_mode_name(c.timing.mode));
  }
  if (c.timing.scale != kDefault.config.timing.scale) t.insert("scale", c.timing.scale);
  if (c.scheduler != kDefault.config.scheduler) t.insert("scheduler", c.scheduler);
  if (c.rotation_rate != kDefault.config.rotation_rate) {
    t.insert("rotation_rate", static_cast<std::int64_t>(c.rotation_rate));
  }
  if (c.fault_seed != kDefault.config.fault_seed) {
    t.insert("fault_seed", static_cast<std::int64_t>(c.fault_seed));
  }
  if (!c.faults.empty()) {
    toml::array rules;
    for (const scsi::FaultRule& r : c.faults) rules.push_back(lunspec::fault_to_toml(r));
    t.insert("fault", std::move(rules));
  }
  return t;
}

toml::table target_table(const TargetSpec& target) {
  toml::table t;
  t.insert("name", target.name);
  if (!target.alias.empty()) t.insert("alias", target.alias);
  toml::array portals;
  for (const Portal& p : target.portals) portals.push_back(iscsi::address_text(p.host, p.port));
  t.insert("portals", std::move(portals));
  if (!target.acl.empty()) t.insert("acl", strings(target.acl));
  if (target.chap) t.insert("chap", chap_table(*target.chap));
  toml::array luns;
  for (const LunSpec& l : target.luns) luns.push_back(lun_table(l));
  t.insert("lun", std::move(luns));
  return t;
}

toml::table daemon_table(const Config& config) {
  static const Config kDefault;
  toml::table t;
  if (config.log_level != kDefault.log_level) t.insert("log_level", config.log_level);
  t.insert("state_dir", config.state_dir);
  if (!config.control_socket.empty()) t.insert("control_socket", config.control_socket);
  if (!config.metrics.empty()) t.insert("metrics", config.metrics);
  for (const DaemonNumber& n : kDaemonNumbers) {
    if (config.*n.field != kDefault.*n.field) {
      t.insert(n.key, static_cast<std::int64_t>(config.*n.field));
    }
  }
  if (!config.control_initiators.empty()) {
    t.insert("control_initiators", strings(config.control_initiators));
  }
  return t;
}

}  // namespace

std::string config_to_toml(const Config& config) {
  toml::table root;
  root.insert("daemon", daemon_table(config));
  toml::table limits;
  static const Limits kDefaultLimits;
  for (const LimitNumber& n : kLimitNumbers) {
    if (config.limits.*n.field != kDefaultLimits.*n.field) {
      limits.insert(n.key, static_cast<std::int64_t>(config.limits.*n.field));
    }
  }
  if (!limits.empty()) root.insert("limits", std::move(limits));
  if (config.discovery_chap) {
    root.insert("discovery", toml::table{{"chap", chap_table(*config.discovery_chap)}});
  }
  toml::array targets;
  for (const TargetSpec& t : config.targets) targets.push_back(target_table(t));
  root.insert("target", std::move(targets));
  std::ostringstream out;
  out << "# memstored's running configuration, written by `memsctl admin save`\n"
         "# (docs/memstored.md, \"Saving the running configuration\").\n\n"
      << toml::toml_formatter(root) << "\n";
  return out.str();
}

Status write_config_file(const std::string& path, const std::string& text) {
  const std::string temporary = path + ".tmp";
  const int fd = ::open(temporary.c_str(), O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0600);
  if (fd < 0) return Error("file: cannot write '" + temporary + "': " + std::strerror(errno));
  ::fchmod(fd, 0600);  // an older file of that name may have had another mode
  std::size_t done = 0;
  while (done < text.size()) {
    const ssize_t n = ::write(fd, text.data() + done, text.size() - done);
    if (n < 0) {
      if (errno == EINTR) continue;
      const std::string why = std::strerror(errno);
      ::close(fd);
      ::unlink(temporary.c_str());
      return Error("file: cannot write '" + temporary + "': " + why);
    }
    done += static_cast<std::size_t>(n);
  }
  // The file must be whole before it replaces the old one (rename below).
  const bool synced = ::fsync(fd) == 0;
  const int sync_errno = errno;
  if (::close(fd) != 0 || !synced) {
    const std::string why = std::strerror(synced ? errno : sync_errno);
    ::unlink(temporary.c_str());
    return Error("file: cannot write '" + temporary + "': " + why);
  }
  if (::rename(temporary.c_str(), path.c_str()) != 0) {
    const std::string why = std::strerror(errno);
    ::unlink(temporary.c_str());
    return Error("file: cannot replace '" + path + "': " + why);
  }
  return {};
}

}  // namespace memstore::daemon
