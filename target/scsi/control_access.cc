// SPDX-License-Identifier: Apache-2.0
#include "target/scsi/control_access.h"

#include <algorithm>

namespace memstore::scsi {

std::string_view initiator_name_of(std::string_view initiator_port) {
  const std::size_t sep = initiator_port.find(",i,0x");
  return sep == std::string_view::npos ? initiator_port : initiator_port.substr(0, sep);
}

bool same_iscsi_name(std::string_view a, std::string_view b) {
  const auto lower = [](char c) { return c >= 'A' && c <= 'Z' ? static_cast<char>(c + 32) : c; };
  return std::equal(a.begin(), a.end(), b.begin(), b.end(),
                    [&](char x, char y) { return lower(x) == lower(y); });
}

bool ControlAccess::allows(const InitiatorPort& port) const {
  if (!port.described()) return unnamed;
  const std::string_view name = initiator_name_of(port.name);
  if (name.empty()) return false;  // a port named without an initiator name
  return std::any_of(initiators.begin(), initiators.end(),
                     [&](const std::string& n) { return same_iscsi_name(n, name); });
}

}  // namespace memstore::scsi
