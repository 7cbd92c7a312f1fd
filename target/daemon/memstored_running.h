// SPDX-License-Identifier: Apache-2.0
// What memstored runs now, as a configuration (docs/memstored.md, "Saving
// the running configuration"): the one it started with, plus the targets
// and LUNs added at run time and less those removed (memstored_luns.cc keeps
// that list), with each LUN's fault rules, seed, timing, scale and scheduler
// read from the LUN itself, where the control socket, SIGHUP and an
// initiator's MODE SELECT of page 22h change them. `memsctl admin save`
// writes it; SIGHUP compares the file with it.
#pragma once

#include <boost/asio/io_context.hpp>
#include <functional>
#include <vector>

#include "target/control/control_commands.h"
#include "target/daemon/config.h"

namespace memstore::memstored {

// Reads each LUN of `luns` on its own loop, then, back on `home` (the
// control socket's and SIGHUP's loop, where `running` lives), brings
// `running`'s LUNs up to date and calls `done`. A LUN removed meanwhile is
// skipped. `running` must outlive the call.
void refresh_running(boost::asio::io_context& home, daemon::Config& running,
                     const std::vector<control::ControlLun>& luns, std::function<void()> done);

// `save` for the control socket: `running` refreshed as above, then
// written as TOML (daemon::config_to_toml) to the file given, or given back.
control::ControlCommands::SaveConfig save_config(boost::asio::io_context& home,
                                                 daemon::Config& running,
                                                 const control::ControlCommands& commands);

}  // namespace memstore::memstored
