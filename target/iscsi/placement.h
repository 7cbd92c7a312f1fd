// SPDX-License-Identifier: Apache-2.0
// Which event loop a connection belongs on (docs/design.md, "Threads").
//
// memstored accepts connections onto its loops in turn. A connection whose
// commands all go to LUNs living on one other loop pays, per command, a post
// to that loop and one back, each waking a thread (driver::LoopBridge); on
// that loop it calls the LUNs directly. The first PDU of a connection is
// its login, which names the target: that is where the server learns the
// loop (Placement in connection.h moves it).
#pragma once

#include <cstdint>
#include <functional>
#include <span>
#include <string_view>

#include "target/iscsi/pdu_bhs.h"
#include "target/iscsi/session.h"

namespace memstore::iscsi {

// The loop (as driver::CommandPort::loop() gives it) that holds every LUN of the target
// a Login Request names, given its BHS and the bytes after it (AHS, then the
// data segment). nullptr for any other PDU, a truncated or malformed text
// segment, a discovery session, a target `find` does not know, a target
// without LUNs, or LUNs on more than one loop.
const void* target_loop(const Bhs& bhs, std::span<const std::uint8_t> rest,
                        const std::function<const TargetContext*(std::string_view)>& find);

}  // namespace memstore::iscsi
