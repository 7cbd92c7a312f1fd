#include "target/daemon/memstored_luns.h"

#include <fmt/ostream.h>
#include <spdlog/spdlog.h>

#include <boost/asio/post.hpp>
#include <filesystem>

#include "target/daemon/config_lun.h"
#include "target/lunspec/lun_factory.h"

namespace memstore::memstored {

std::string lun_name(const std::string& target, std::uint16_t id) {
  return "LUN " + std::to_string(id) + " of " + target;
}

std::variant<std::unique_ptr<iscsi::LunDriver>, std::string> open_driver(
    LunContext& context, const daemon::LunSpec& spec, std::size_t target_index,
    const std::string& target_name, const std::vector<std::uint16_t>& ids,
    const std::string& where) {
  const daemon::Config& config = *context.config;
  if (spec.backing != "memory" && config.state_dir == "var" && spec.backing.rfind("var/", 0) == 0) {
    std::error_code ec;
    std::filesystem::create_directories("var", ec);  // the default state directory
  }
  daemon::LunSpec shared = spec;  // with the daemon-wide budgets
  shared.buffer_budget = context.buffer_budget;
  shared.batch_budget = context.batch_budget;
  auto opened = lunspec::open_lun(shared, target_name, where);
  if (auto* err = std::get_if<std::string>(&opened)) return *err;
  std::unique_ptr<scsi::Lun>& lun = std::get<std::unique_ptr<scsi::Lun>>(opened);
  lun->set_target_luns(ids);
  lun->set_log(
      [](scsi::LogLevel level, std::string_view line) {
        spdlog::log(level == scsi::LogLevel::kError     ? spdlog::level::err
                    : level == scsi::LogLevel::kWarning ? spdlog::level::warn
                                                        : spdlog::level::info,
                    "{}", line);
      },
      lun_name(target_name, spec.id));
  // Each LUN's model and delivery stay on one loop (one thread).
  boost::asio::io_context& loop = *context.loops[context.next_loop++ % context.loops.size()];
  auto driver = std::make_unique<iscsi::LunDriver>(loop, std::move(lun));
  driver->set_spin(std::chrono::microseconds(config.spin_us));
  driver->set_compensation(std::chrono::microseconds(config.transport_compensation_us));
  if (context.completions != nullptr && context.completions->is_open()) {
    driver->on_delivery([&log = *context.completions, &mutex = *context.completions_mutex,
                         ti = target_index, id = spec.id](const iscsi::Delivery& d) {
      const std::lock_guard lock(mutex);
      // The session's tag is the ITT in its low 32 bits (and a generation
      // an abort raises above them): the log gives the ITT.
      fmt::print(log, "{},{},{},{},{},{},{},{},{},{}\n", ti, id, d.nexus, d.tag & 0xFFFFFFFFU,
                 d.arrival_ns, d.complete_ns, d.complete_ns - d.arrival_ns, d.due_ns,
                 d.delivered_ns, d.delivered_ns - d.due_ns);
    });
  }
  spdlog::info("{} opened: {} ({} blocks), backing {}, timing {}, scheduler {}, storage I/O {}",
               lun_name(target_name, spec.id), spec.model_name(), driver->lun().blocks(),
               spec.backing, scsi::timing_mode_name(spec.timing.mode), spec.scheduler,
               driver->lun().store_async() != nullptr ? "io_uring" : "synchronous");
  return driver;
}

namespace {

// The removed LUN's last steps, on its own loop: its commands answered, its
// store flushed; then, from a later handler (those the retirement cancelled
// run first), the driver closed.
void retire(std::unique_ptr<iscsi::LunDriver> driver, std::string name) {
  boost::asio::io_context& loop = driver->context();
  iscsi::LunDriver* d = driver.get();
  boost::asio::post(loop, [d, &loop, name = std::move(name),
                           owned = std::shared_ptr<iscsi::LunDriver>(std::move(driver))] {
    if (const auto e = d->retire()) {
      spdlog::error("{} removed: flush failed: {}", name, e->message);
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
                  const toml::table& t) -> std::variant<control::ControlLun, std::string> {
    const daemon::Config& config = *context.config;
    std::size_t ti = 0;
    while (ti < config.targets.size() && config.targets[ti].name != target) ++ti;
    if (ti == config.targets.size()) {
      return "target: no target '" + target + "' (`luns` lists the targets with LUNs)";
    }
    auto parsed =
        daemon::parse_lun_table(t, "config.", config.state_dir, target, config.control_initiators);
    if (auto* e = std::get_if<std::string>(&parsed)) return *e;
    const daemon::LunSpec& spec = std::get<daemon::LunSpec>(parsed);
    // Checked before the image is made: the server would refuse it after.
    std::vector<std::uint16_t> ids{spec.id};
    for (const control::ControlLun& l : commands.luns()) {
      if (l.target != target) continue;
      if (l.id == spec.id) {
        return "config.id: target '" + target + "' has a LUN " + std::to_string(spec.id) +
               " already; remove it first or choose another number";
      }
      ids.push_back(l.id);
    }
    std::sort(ids.begin(), ids.end());
    auto opened = open_driver(context, spec, ti, target, ids, "config.");
    if (auto* e = std::get_if<std::string>(&opened)) return *e;
    auto& driver = std::get<std::unique_ptr<iscsi::LunDriver>>(opened);
    control::ControlLun entry{target, spec.id, spec.model_name(), spec.backing, driver.get()};
    if (const std::string e = server.add_lun(target, spec.id, std::move(driver)); !e.empty()) {
      return e;
    }
    spdlog::info("{} added", lun_name(target, spec.id));
    return entry;
  };
  admin.remove = [&server](const control::ControlLun& lun) {
    const std::string name = lun_name(lun.target, lun.id);
    return server.remove_lun(lun.target, lun.id, [name](std::unique_ptr<iscsi::LunDriver> d) {
      retire(std::move(d), name);
    });
  };
  return admin;
}

}  // namespace memstore::memstored
