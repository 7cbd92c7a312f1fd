// SPDX-License-Identifier: Apache-2.0
// SIGHUP in memstored: the configuration file read again, and the plan
// (reload.h) applied: the log level here, each target's ACL and CHAP to the
// server, each LUN's changes posted to the LUN's own loop, and one log line
// for each change that needs a restart.
#pragma once

#include <cstdint>
#include <map>
#include <string>
#include <utility>

#include "target/daemon/config.h"
#include "target/driver/timed_lun.h"
#include "target/iscsi/server.h"

namespace memstore::memstored {

// `running`: the configuration that runs, updated with what the reload applied.
void reload(const daemon::CommandLine& cli, daemon::Config& running,
            const std::map<std::pair<std::string, std::uint16_t>, driver::TimedLun*>& luns,
            iscsi::Server& server);

}  // namespace memstore::memstored
