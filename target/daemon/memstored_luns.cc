// SPDX-License-Identifier: Apache-2.0
#include "target/daemon/memstored_luns.h"

#include <fmt/ostream.h>
#include <spdlog/spdlog.h>

#include <boost/asio/post.hpp>
#include <filesystem>

#include "target/daemon/config_lun.h"
#include "target/iscsi/address_text.h"
#include "target/lunspec/lun_factory.h"
#include "target/lunspec/lun_trace.h"

namespace memstore::memstored {

std::string lun_name(const std::string& target, std::uint16_t id) {
  return "LUN " + std::to_string(id) + " of " + target;
}

iscsi::ChapConfig chap_of(const daemon::Chap& chap) {
  iscsi::ChapConfig c;
  c.user = chap.user;
  c.secret = chap.secret;
  if (!chap.mutual_user.empty()) {
    c.mutual_user = chap.mutual_user;
    c.mutual_secret = chap.mutual_secret;
  }
  return c;
}

iscsi::SecurityConfig security_of(const daemon::TargetSpec& t) {
  iscsi::SecurityConfig s;
  s.acl = t.acl;
  if (t.chap) s.chap = chap_of(*t.chap);
  return s;
}

Expected<std::unique_ptr<driver::TimedLun>> open_driver(LunContext& context,
                                                        const daemon::LunSpec& spec,
                                                        std::size_t target_index,
                                                        const std::string& target_name,
                                                        const std::vector<std::uint16_t>& ids,
                                                        const std::string& where) {
  const daemon::Config& config = *context.config;
  if (spec.backing != "memory" && config.state_dir == "var" && spec.backing.rfind("var/", 0) == 0) {
    std::error_code ec;
    std::filesystem::create_directories("var", ec);  // the default state directory
  }
  daemon::LunSpec shared = spec;  // with the daemon-wide budgets
  shared.config.buffer_budget = context.buffer_budget;
  shared.config.batch_budget = context.batch_budget;
  auto opened = lunspec::open_lun(shared, target_name, where);
  if (!opened.ok()) return opened.error();
  std::unique_ptr<scsi::Lun>& lun = *opened;
  lun->set_target_luns(ids);
  lun->set_log(
      [](scsi::LogLevel level, std::string_view line) {
        spdlog::log(level == scsi::LogLevel::kError     ? spdlog::level::err
                    : level == scsi::LogLevel::kWarning ? spdlog::level::warn
                    : level == scsi::LogLevel::kInfo    ? spdlog::level::info
                                                        : spdlog::level::debug,
                    "{}", line);
      },
      lun_name(target_name, spec.id));
  if (context.server != nullptr) {
    // A cut ends the target's sessions and refuses logins while the power
    // is off (docs/crash-consistency.md).
    lun->set_power_lost([server = context.server, target_name](std::chrono::nanoseconds off) {
      server->power_cut(target_name, off);
    });
  }
  // Each LUN's model and delivery stay on one loop (one thread).
  boost::asio::io_context& loop = *context.loops[context.next_loop++ % context.loops.size()];
  auto driver = std::make_unique<driver::TimedLun>(loop, std::move(lun));
  driver->set_spin(std::chrono::microseconds(config.spin_us));
  driver->set_compensation(std::chrono::microseconds(config.transport_compensation_us));
  if (context.completions != nullptr && context.completions->is_open()) {
    driver->on_delivery([&log = *context.completions, &mutex = *context.completions_mutex,
                         ti = target_index, id = spec.id](const delivery::Delivery& d) {
      const std::lock_guard lock(mutex);
      // The session's tag is the ITT in its low 32 bits (and a generation
      // an abort raises above them): the log gives the ITT.
      fmt::print(log, "{},{},{},{},{},{},{},{},{},{}\n", ti, id, d.nexus, d.tag & 0xFFFFFFFFU,
                 d.arrival_ns, d.complete_ns, d.complete_ns - d.arrival_ns, d.due_ns,
                 d.delivered_ns, d.delivered_ns - d.due_ns);
    });
  }
  const scsi::AsyncStore* async = driver->lun().store_async();
  const std::string io = async == nullptr ? "synchronous" : async->io_description();
  spdlog::info("{} opened: {} ({} blocks), backing {}, timing {}, scheduler {}, storage I/O {}",
               lun_name(target_name, spec.id), spec.model_name(), driver->lun().blocks(),
               spec.backing, scsi::timing_mode_name(spec.config.timing.mode), spec.config.scheduler,
               io);
  return driver;
}

Expected<OpenedTarget> open_target(LunContext& context, const daemon::TargetSpec& t,
                                   const std::string& where) {
  const std::size_t ti = context.next_target_index;
  OpenedTarget out;
  out.setup.name = t.name;
  out.setup.alias = t.alias;
  for (const daemon::Portal& p : t.portals) out.setup.portals.emplace_back(p.host, p.port);
  out.setup.security = security_of(t);
  std::vector<std::uint16_t> lun_ids;  // REPORT LUNS, answered by each LUN
  for (const daemon::LunSpec& spec : t.luns) lun_ids.push_back(spec.id);
  for (std::size_t li = 0; li < t.luns.size(); ++li) {
    const daemon::LunSpec& spec = t.luns[li];
    auto driver =
        open_driver(context, spec, ti, t.name, lun_ids, where + "lun[" + std::to_string(li) + "].");
    if (!driver.ok()) return driver.error();
    auto& d = *driver;
    out.luns.push_back({t.name, spec.id, spec.model_name(), spec.backing, d.get(),
                        lunspec::memsim_device_args(spec)});
    out.setup.luns[spec.id] = std::move(d);
  }
  context.target_index[t.name] = ti;
  ++context.next_target_index;
  return out;
}

namespace {

daemon::TargetSpec* running_target(LunContext& context, const std::string& name) {
  for (daemon::TargetSpec& t : context.config->targets) {
    if (t.name == name) return &t;
  }
  return nullptr;
}

// The removed LUN's last steps, on its own loop: its commands answered, its
// store flushed; then, from a later handler (those the retirement cancelled
// run first), the driver closed.
void retire(std::unique_ptr<driver::TimedLun> driver, std::string name) {
  boost::asio::io_context& loop = driver->context();
  driver::TimedLun* d = driver.get();
  boost::asio::post(loop, [d, &loop, name = std::move(name),
                           owned = std::shared_ptr<driver::TimedLun>(std::move(driver))] {
    if (const auto e = d->retire(); !e.ok()) {
      spdlog::error("{} removed: flush failed: {}", name, e.error().message);
    } else {
      spdlog::info("{} removed: its commands ended, flushed", name);
    }
    boost::asio::post(loop, [owned] {});  // the last owner goes here
  });
}

}  // namespace

control::ControlCommands::LunAdmin lun_admin(LunContext& context, iscsi::Server& server,
                                             const control::ControlCommands& commands) {
  control::ControlCommands::LunAdmin admin;
  admin.add = [&context, &server, &commands](
                  const std::string& target,
                  const toml::table& t) -> Expected<control::ControlLun> {
    const daemon::Config& config = *context.config;
    const auto index = context.target_index.find(target);
    if (index == context.target_index.end()) {
      return Error("target: no target '" + target + "' (`luns` lists the targets with LUNs)");
    }
    const std::size_t ti = index->second;
    auto parsed =
        daemon::parse_lun_table(t, "config.", config.state_dir, target, config.control_initiators);
    if (!parsed.ok()) return parsed.error();
    const daemon::LunSpec& spec = *parsed;
    // Checked before the image is made: the server would refuse it after.
    std::vector<std::uint16_t> ids{spec.id};
    for (const control::ControlLun& l : commands.luns()) {
      if (l.target != target) continue;
      if (l.id == spec.id) {
        return Error("config.id: target '" + target + "' has a LUN " + std::to_string(spec.id) +
                     " already; remove it first or choose another number");
      }
      ids.push_back(l.id);
    }
    std::sort(ids.begin(), ids.end());
    auto opened = open_driver(context, spec, ti, target, ids, "config.");
    if (!opened.ok()) return opened.error();
    auto& driver = *opened;
    control::ControlLun entry{target,       spec.id,      spec.model_name(),
                              spec.backing, driver.get(), lunspec::memsim_device_args(spec)};
    if (const Status e = server.add_lun(target, spec.id, std::move(driver)); !e.ok()) {
      return e.error();
    }
    if (daemon::TargetSpec* running = running_target(context, target)) {
      running->luns.push_back(spec);
    }
    spdlog::info("{} added", lun_name(target, spec.id));
    return entry;
  };
  admin.remove = [&context, &server](const control::ControlLun& lun) {
    const std::string name = lun_name(lun.target, lun.id);
    const Status e = server.remove_lun(
        lun.target, lun.id,
        [name](std::unique_ptr<driver::TimedLun> d) { retire(std::move(d), name); });
    if (daemon::TargetSpec* running = running_target(context, lun.target); running && e.ok()) {
      std::erase_if(running->luns, [&](const daemon::LunSpec& l) { return l.id == lun.id; });
    }
    return e;
  };
  return admin;
}

control::ControlCommands::TargetAdmin target_admin(LunContext& context, iscsi::Server& server) {
  control::ControlCommands::TargetAdmin admin;
  admin.add = [&context,
               &server](const toml::table& t) -> Expected<std::vector<control::ControlLun>> {
    const daemon::Config& config = *context.config;
    auto parsed =
        daemon::parse_target_table(t, "config.", config.state_dir, config.control_initiators);
    if (!parsed.ok()) return parsed.error();
    const daemon::TargetSpec& spec = *parsed;
    // Checked before any image is made: the server would refuse it after.
    if (context.target_index.contains(spec.name)) {
      return Error("config.name: target '" + spec.name + "' is served already; remove it first");
    }
    auto opened = open_target(context, spec, "config.");
    if (!opened.ok()) return opened.error();
    OpenedTarget& target = *opened;
    const std::vector<control::ControlLun> luns = target.luns;
    if (const Status e = server.add_running_target(target.setup); !e.ok()) {
      // Never served: each driver is closed on its own loop, as a removed one is.
      for (auto& [id, driver] : target.setup.luns) {
        retire(std::move(driver), lun_name(spec.name, id));
      }
      context.target_index.erase(spec.name);
      return Error("config.portals: " + e.error().message);
    }
    // Its portals are the last in the server's list (port 0 resolved there).
    const std::vector<std::uint16_t> ports = server.bound_ports();
    for (std::size_t i = 0; i < spec.portals.size(); ++i) {
      spdlog::info(
          "serving {} on {}", spec.name,
          iscsi::address_text(spec.portals[i].host, ports[ports.size() - spec.portals.size() + i]));
    }
    context.config->targets.push_back(spec);
    spdlog::info("target {} added with {} LUN(s)", spec.name, luns.size());
    return luns;
  };
  admin.remove = [&context, &server](const std::string& target,
                                     const std::vector<control::ControlLun>& luns) {
    std::map<const driver::TimedLun*, std::string> names;  // for the log
    for (const control::ControlLun& l : luns) names[l.driver] = lun_name(target, l.id);
    const Status e = server.remove_running_target(
        target, [names = std::move(names)](std::unique_ptr<driver::TimedLun> d) {
          const auto name = names.find(d.get());
          retire(std::move(d), name != names.end() ? name->second : "a LUN");
        });
    if (!e.ok()) return e;
    context.target_index.erase(target);
    std::erase_if(context.config->targets,
                  [&](const daemon::TargetSpec& t) { return t.name == target; });
    spdlog::info("target {} removed: its sessions end, its LUNs are retired", target);
    return Status();
  };
  return admin;
}

}  // namespace memstore::memstored
