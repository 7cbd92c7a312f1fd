#include "host/transport.h"

#include <cstdio>

namespace memstore::host {

std::string status_name(std::uint8_t status) {
  // SAM-5 §5.3.1.
  switch (status) {
    case 0x00: return "GOOD";
    case 0x02: return "CHECK CONDITION";
    case 0x04: return "CONDITION MET";
    case 0x08: return "BUSY";
    case 0x18: return "RESERVATION CONFLICT";
    case 0x28: return "TASK SET FULL";
    case 0x30: return "ACA ACTIVE";
    case 0x40: return "TASK ABORTED";
    default: break;
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
