// SPDX-License-Identifier: Apache-2.0
// The control socket's `sessions` and `connections` (docs/memstored.md,
// "Control socket"): the iSCSI server's sessions, as the control layer
// lists them.
#pragma once

#include "target/control/control_commands.h"
#include "target/iscsi/server.h"

namespace memstore::memstored {

// Asks `server` (on its io_context, where the control socket runs).
control::ControlCommands::SessionsQuery sessions_query(iscsi::Server& server);

}  // namespace memstore::memstored
