// SPDX-License-Identifier: Apache-2.0
#include "target/scsi/transport_id.h"

#include <algorithm>

#include "modepages/bytes.h"

namespace memstore::scsi {

Bytes iscsi_transport_id(std::string_view initiator_port) {
  constexpr std::string_view kSeparator = ",i,0x";
  constexpr std::size_t kMinAdditional = 20;
  const bool port_format = initiator_port.find(kSeparator) != std::string_view::npos;
  // The name and its terminating null, padded to a multiple of four.
  std::size_t additional = std::max(kMinAdditional, initiator_port.size() + 1);
  additional = (additional + 3) / 4 * 4;
  Bytes b(4 + additional, 0);
  b[0] = static_cast<std::uint8_t>((port_format ? 0x40 : 0x00) | kProtocolIscsi);
  modepages::put_be(b, 2, 2, additional);  // ADDITIONAL LENGTH
  std::copy(initiator_port.begin(), initiator_port.end(), b.begin() + 4);
  return b;
}

}  // namespace memstore::scsi
