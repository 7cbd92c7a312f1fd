// Whether a portal can be listened on, asked before anything else starts:
// an address in use or not on this host is then reported before a LUN's
// image, perhaps of several GB, is created (docs/memstored.md, "Running it").
#pragma once

#include <string>

#include "target/daemon/config.h"

namespace memstore::daemon {

// "" if a listening socket can be bound to the portal now, else why not
// ("127.0.0.1:3260: Address already in use"). The socket is closed again;
// the server binds for good once the LUNs are open.
std::string portal_error(const Portal& portal);

}  // namespace memstore::daemon
