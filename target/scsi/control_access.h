// SPDX-License-Identifier: Apache-2.0
// Who may change a LUN's control mode pages: the pages whose values change
// how the LUN times every initiator's commands (ModePage::control): the
// vendor page 22h (scheduler, timing mode, scale; docs/vendor-interface.md)
// and Power Condition 1Ah (when the sled spins down, and so which commands
// pay the startup time). Any initiator may read them and may send them back
// unchanged (tools write back a whole MODE SENSE response); only the
// initiators named here may change them.
//
// Identity is what the transport tells the Lun (Lun::describe_nexus): for
// iSCSI the initiator port "<InitiatorName>,i,0x<ISID>", of which the name
// counts here. That name is only as trustworthy as the login that brought it:
// without CHAP any initiator can claim any name (docs/memstored.md, "Limits
// and security"). A nexus no transport named (the TCMU handler: LIO does not
// tell userspace who sent a command) is allowed only with `unnamed`.
#pragma once

#include <string>
#include <string_view>
#include <vector>

#include "target/scsi/unit_attention.h"

namespace memstore::scsi {

struct ControlAccess {
  // iSCSI names, compared ASCII case-insensitively (RFC 3722 folds case).
  // Empty: no named initiator may change a control page.
  std::vector<std::string> initiators;
  // Commands from a nexus the transport never named may change them.
  bool unnamed = false;

  bool allows(const InitiatorPort& port) const;
};

// The initiator name of an iSCSI initiator port ("<name>,i,0x<ISID>"): the
// part before ",i,0x", or the whole string when it has none.
std::string_view initiator_name_of(std::string_view initiator_port);

// ASCII case-insensitive equality (iSCSI names, RFC 3722).
bool same_iscsi_name(std::string_view a, std::string_view b);

}  // namespace memstore::scsi
