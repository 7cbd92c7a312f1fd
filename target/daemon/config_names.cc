// SPDX-License-Identifier: Apache-2.0
#include "target/daemon/config_names.h"

#include "target/daemon/config.h"
#include "target/scsi/log_sink.h"

namespace memstore::daemon {

// RFC 7143 §4.2.7: "iqn.", "eui." or "naa." names of at most 223 bytes
// (§4.2.7.1).
Status check_iscsi_name(const std::string& name) {
  if (name.rfind("iqn.", 0) != 0 && name.rfind("eui.", 0) != 0 && name.rfind("naa.", 0) != 0) {
    return Error("must be an iSCSI name (iqn.YYYY-MM.reversed.domain:id, eui. or naa.), not '" +
                 scsi::loggable(name, 64) + "'");
  }
  if (name.size() > kMaxIscsiNameBytes) {
    return Error("an iSCSI name is at most 223 bytes (RFC 7143 §4.2.7.1); this one is " +
                 std::to_string(name.size()));
  }
  return {};
}

Status check_log_level(const std::string& level) {
  std::string list;
  for (const char* l : kLogLevels) {
    if (level == l) return {};
    list += (list.empty() ? "" : ", ") + std::string(l);
  }
  return Error("'" + scsi::loggable(level, 32) + "' is not a log level; use one of " + list);
}

}  // namespace memstore::daemon
