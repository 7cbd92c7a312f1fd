// SPDX-License-Identifier: Apache-2.0
// The iSCSI TransportID (SPC-4 §7.6.4.6) that names an initiator port in
// PERSISTENT RESERVE IN READ FULL STATUS.
//
// Bytes: 0 FORMAT CODE (bits 7-6) and PROTOCOL IDENTIFIER 5h (bits 3-0);
// 1 reserved; 2-3 ADDITIONAL LENGTH (at least 20, a multiple of 4); then the
// name, null-terminated and null-padded to that length.
// - Format 01b (initiator port): "<iSCSI name>,i,0x<ISID in hex>", the form
//   Lun::describe_nexus takes.
// - Format 00b (device name): an iSCSI name alone, or the empty name for an
//   initiator the transport never described.
#pragma once

#include <string_view>

#include "target/scsi/sense.h"

namespace memstore::scsi {

inline constexpr std::uint8_t kProtocolIscsi = 0x5;

// Format 01b when `initiator_port` contains the ",i,0x" separator, else 00b.
Bytes iscsi_transport_id(std::string_view initiator_port);

}  // namespace memstore::scsi
