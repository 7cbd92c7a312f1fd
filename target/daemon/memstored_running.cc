// SPDX-License-Identifier: Apache-2.0
#include "target/daemon/memstored_running.h"

#include <spdlog/spdlog.h>

#include <boost/asio/post.hpp>
#include <memory>

#include "modepages/mode_vendor.h"
#include "target/control/redact.h"
#include "target/daemon/config_save.h"

namespace memstore::memstored {
namespace {

// One LUN as it runs: what may differ from its configuration.
struct LiveLun {
  std::string target;
  std::uint16_t id = 0;
  modepages::ControlPage page;
  std::vector<scsi::FaultRule> faults;
  std::uint64_t fault_seed = 1;
};

daemon::LunSpec* find(daemon::Config& config, const std::string& target, std::uint16_t id) {
  for (daemon::TargetSpec& t : config.targets) {
    if (t.name != target) continue;
    for (daemon::LunSpec& l : t.luns) {
      if (l.id == id) return &l;
    }
  }
  return nullptr;
}

// The live values into `spec`. Timing, scale and scheduler change only
// where page 22h differs from what the configuration gives, so that a scale
// the page rounds (it holds thousandths) is kept as it was written.
void apply(const LiveLun& live, daemon::LunSpec& spec) {
  scsi::LunConfig& c = spec.config;
  if (live.page.timing != c.timing.mode) c.timing.mode = live.page.timing;
  const auto milli = static_cast<std::uint32_t>(c.timing.scale * 1000 + 0.5);
  if (live.page.scale_milli != milli) c.timing.scale = live.page.scale_milli / 1000.0;
  if (const auto name = modepages::scheduler_name(live.page.scheduler);
      name && *name != c.scheduler) {
    c.scheduler = *name;
  }
  c.faults = live.faults;
  c.fault_seed = live.fault_seed;
}

}  // namespace

void refresh_running(boost::asio::io_context& home, daemon::Config& running,
                     const std::vector<control::ControlLun>& luns, std::function<void()> done) {
  struct Pending {
    std::vector<LiveLun> read;
    std::size_t left = 0;
    std::function<void()> done;
  };
  auto pending = std::make_shared<Pending>();
  pending->left = luns.size();
  pending->done = std::move(done);
  auto finish = [&running, pending] {
    for (const LiveLun& live : pending->read) {
      if (daemon::LunSpec* spec = find(running, live.target, live.id)) apply(live, *spec);
    }
    pending->done();
  };
  if (luns.empty()) return boost::asio::post(home, finish);
  for (const control::ControlLun& l : luns) {
    driver::TimedLun* d = l.driver;
    boost::asio::post(d->context(), [&home, d, pending, finish, target = l.target, id = l.id] {
      LiveLun live{target, id, d->lun().control(), {}, d->lun().faults().seed()};
      for (const scsi::FaultSet::Entry& e : d->lun().faults().rules())
        live.faults.push_back(e.rule);
      boost::asio::post(home, [pending, finish, live = std::move(live)]() mutable {
        pending->read.push_back(std::move(live));
        if (--pending->left == 0) finish();
      });
    });
  }
}

control::ControlCommands::SaveConfig save_config(boost::asio::io_context& home,
                                                 daemon::Config& running,
                                                 const control::ControlCommands& commands) {
  return [&home, &running, &commands](const std::string& file,
                                      std::function<void(Expected<control::json>)> done) {
    refresh_running(home, running, commands.luns(), [&running, file, done = std::move(done)] {
      const std::string text = daemon::config_to_toml(running);
      if (file.empty()) {
        return done(control::json{{std::string(control::kSavedConfigKey), text}});
      }
      if (const Status e = daemon::write_config_file(file, text); !e.ok()) return done(e.error());
      spdlog::info("running configuration saved to {} ({} bytes)", file, text.size());
      done(control::json{{"file", file}, {"bytes", text.size()}});
    });
  };
}

}  // namespace memstore::memstored
