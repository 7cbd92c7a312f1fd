// SPDX-License-Identifier: Apache-2.0
#include "host/transport.h"

#include <cstdio>

namespace memstore::host {
namespace {

struct StatusRow {
  std::uint8_t code;
  const char* name;
};

// SAM-5 §5.3.1.
constexpr StatusRow kStatuses[] = {
    {0x00, "GOOD"},       {0x02, "CHECK CONDITION"},      {0x04, "CONDITION MET"},
    {0x08, "BUSY"},       {0x18, "RESERVATION CONFLICT"}, {0x28, "TASK SET FULL"},
    {0x30, "ACA ACTIVE"}, {0x40, "TASK ABORTED"},
};

}  // namespace

std::string status_name(std::uint8_t status) {
  for (const StatusRow& r : kStatuses) {
    if (r.code == status) return r.name;
  }
  char buf[16];
  std::snprintf(buf, sizeof buf, "status 0x%02X", status);
  return buf;
}

Result<std::unique_ptr<Transport>> open_transport(const std::string& target,
                                                  const TransportOptions& options) {
  if (target.rfind("iscsi://", 0) == 0) return open_iscsi(target, options);
  if (!target.empty() && target[0] == '/') return open_sg(target, options);
  return invalid_argument("'" + target +
                          "' is neither an iSCSI URL (iscsi://host[:port]/target-iqn/lun) nor a "
                          "device path (/dev/sgN)");
}

}  // namespace memstore::host
