// SPDX-License-Identifier: Apache-2.0
// iSCSI PDU codec (RFC 7143 §11): typed structs for every BHS the target
// receives or sends, with encode/decode and no session state.
//   pdu_bhs.h        the 48-byte BHS, opcodes, common fields, LUN, PduError
//   pdu_initiator.h  NOP-Out, SCSI Command, TMF, Login, Text, Data-Out, Logout, SNACK
//   pdu_target.h     NOP-In, SCSI Response, TMF, Login, Text, Data-In, Logout,
//                    R2T, Async Message, Reject
//   pdu_ahs.h        extended CDB and bidirectional read length AHS
// This header adds decoders that dispatch on the opcode.
#pragma once

#include <variant>

#include "base/expected.h"
#include "target/iscsi/pdu_ahs.h"
#include "target/iscsi/pdu_bhs.h"
#include "target/iscsi/pdu_initiator.h"
#include "target/iscsi/pdu_target.h"

namespace memstore::iscsi {

using InitiatorPdu = std::variant<NopOutPdu, ScsiCommandPdu, TaskMgmtRequestPdu, LoginRequestPdu,
                                  TextRequestPdu, DataOutPdu, LogoutRequestPdu, SnackPdu>;
using TargetPdu =
    std::variant<NopInPdu, ScsiResponsePdu, TaskMgmtResponsePdu, LoginResponsePdu, TextResponsePdu,
                 DataInPdu, LogoutResponsePdu, R2tPdu, AsyncMessagePdu, RejectPdu>;

// What the target reads off the wire. An undefined opcode is "command not
// supported" (RFC 7143 §11.17.1, reason 05h); a target opcode is a protocol error.
Expected<InitiatorPdu, PduError> decode_initiator_pdu(const Bhs& bhs);
// The reverse direction, for tests and test initiators.
Expected<TargetPdu, PduError> decode_target_pdu(const Bhs& bhs);

Bhs encode(const InitiatorPdu& pdu);
Bhs encode(const TargetPdu& pdu);

}  // namespace memstore::iscsi
