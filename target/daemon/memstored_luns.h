// SPDX-License-Identifier: Apache-2.0
// The LUNs of memstored: opened at start from the configuration, and added
// and removed while it runs through the control socket (lun-add,
// lun-remove; docs/memstored.md, "Control socket"). Each LUN's driver is
// opened the same way in both cases.
#pragma once

#include <boost/asio/io_context.hpp>
#include <cstddef>
#include <fstream>
#include <map>
#include <memory>
#include <mutex>
#include <string>
#include <variant>
#include <vector>

#include "base/expected.h"
#include "target/control/control_commands.h"
#include "target/daemon/config.h"
#include "target/driver/timed_lun.h"
#include "target/iscsi/server.h"
#include "target/scsi/memory_budget.h"

namespace memstore::memstored {

// What every LUN of the daemon shares. Lives as long as the daemon runs.
struct LunContext {
  // What runs (spin, compensation, state directory, control initiators):
  // lun-add, lun-remove, target-add and target-remove keep its targets and
  // LUNs as they run (memstored_running.h).
  daemon::Config* config = nullptr;
  std::shared_ptr<scsi::MemoryBudget> buffer_budget;
  std::shared_ptr<scsi::MemoryBudget> batch_budget;
  std::ofstream* completions = nullptr;  // --completion-log, when open
  std::mutex* completions_mutex = nullptr;
  std::vector<boost::asio::io_context*> loops;  // LUNs are spread over them
  // Told when a LUN's power is cut (iscsi::Server::power_cut); none in tests
  // that open LUNs without a server.
  iscsi::Server* server = nullptr;
  std::size_t next_loop = 0;
  // Each target served, by name: its number in the completion log (the
  // configuration's order, then the order target-add gave them).
  std::map<std::string, std::size_t> target_index;
  std::size_t next_target_index = 0;
};

iscsi::ChapConfig chap_of(const daemon::Chap& chap);
iscsi::SecurityConfig security_of(const daemon::TargetSpec& t);

// A target ready to serve: its setup, with every LUN's driver opened, and
// the LUNs' entries for the control socket.
struct OpenedTarget {
  iscsi::TargetSetup setup;
  std::vector<control::ControlLun> luns;
};
// Opens the target's LUNs (open_driver) and numbers the target in
// `context`. An error names the key under `where` ("target[0]." in the
// file, "config." for target-add) and the fix; nothing stays open then.
Expected<OpenedTarget> open_target(LunContext& context, const daemon::TargetSpec& t,
                                   const std::string& where);

// "LUN 3 of iqn...", for the log.
std::string lun_name(const std::string& target, std::uint16_t id);

// Opens the LUN (its store, model and identity) and its driver on the next
// loop, with the log, the timing settings and the completion log. `ids`:
// the target's LUNs, this one included, for REPORT LUNS. An error names the
// key under `where` and the fix.
Expected<std::unique_ptr<driver::TimedLun>> open_driver(LunContext& context,
                                                        const daemon::LunSpec& spec,
                                                        std::size_t target_index,
                                                        const std::string& target_name,
                                                        const std::vector<std::uint16_t>& ids,
                                                        const std::string& where);

// lun-add and lun-remove for the control socket: LUNs opened as above and
// given to `server`; a removed LUN's commands end with LOGICAL UNIT NOT
// SUPPORTED, it is flushed on its own loop and then closed. `commands`
// tells which LUNs exist.
control::ControlCommands::LunAdmin lun_admin(LunContext& context, iscsi::Server& server,
                                             const control::ControlCommands& commands);

// target-add and target-remove for the control socket: a target opened as
// at start (open_target) and served at once; a removed one's sessions end
// and its LUNs are retired as lun-remove retires one.
control::ControlCommands::TargetAdmin target_admin(LunContext& context, iscsi::Server& server);

}  // namespace memstore::memstored
