// SPDX-License-Identifier: Apache-2.0
// The configuration's checks of names and levels that the file, the
// command line and the control socket share: iSCSI names (RFC 7143 §4.2.7)
// and log levels. Each error is a sentence that ends in the fix.
#pragma once

#include <string>

#include "base/expected.h"

namespace memstore::daemon {

Status check_iscsi_name(const std::string& name);
Status check_log_level(const std::string& level);

}  // namespace memstore::daemon
