// SPDX-License-Identifier: Apache-2.0
// Access control at run time (docs/memstored.md, "Access control at run
// time"): the control socket's `access` (each target's ACL and CHAP user,
// never a secret), `acl-add`, `acl-remove`, `acl-clear`, `chap-set` and
// `chap-clear`. Each changes the running configuration (so that `save`
// writes it) and the server's target at once (iscsi::Server::set_security):
// an initiator the ACL leaves out loses its sessions; sessions that passed
// CHAP stay.
#pragma once

#include "target/control/control_commands.h"
#include "target/daemon/config.h"
#include "target/iscsi/server.h"

namespace memstore::memstored {

void add_access_commands(control::ControlCommands& commands, daemon::Config& running,
                         iscsi::Server& server);

}  // namespace memstore::memstored
