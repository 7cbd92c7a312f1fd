// The configuration's checks of names and levels that the file, the
// command line and the control socket share: iSCSI names (RFC 7143 §4.2.7)
// and log levels. Each returns an error sentence, or "".
#pragma once

#include <string>

namespace memstore::daemon {

std::string iscsi_name_error(const std::string& name);
std::string log_level_error(const std::string& level);

}  // namespace memstore::daemon
