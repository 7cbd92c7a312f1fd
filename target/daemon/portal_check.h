// SPDX-License-Identifier: Apache-2.0
// Whether a portal can be listened on, asked before anything else starts:
// an address in use or not on this host is then reported before a LUN's
// image, perhaps of several GB, is created (docs/memstored.md, "Running it").
#pragma once

#include <string>

#include "base/expected.h"
#include "target/daemon/config.h"

namespace memstore::daemon {

// Whether a listening socket can be bound to the portal now; if not, why
// ("127.0.0.1:3260: Address already in use", with its errno). The socket is
// closed again; the server binds for good once the LUNs are open.
Status check_portal(const Portal& portal);

}  // namespace memstore::daemon
