// SPDX-License-Identifier: Apache-2.0
// SCSI status and sense data (SPC-4 §4.5). Handlers return a sense *reason*;
// one table maps reasons to sense key / ASC / ASCQ, and one builder produces
// fixed (70h) or descriptor (72h) format as the Control mode page's D_SENSE
// bit asks.
#pragma once

#include <cstdint>
#include <optional>
#include <vector>

#include "modepages/field_error.h"

namespace memstore::scsi {

using Bytes = std::vector<std::uint8_t>;

// SAM-5 §5.3.1.
enum class Status : std::uint8_t {
  kGood = 0x00,
  kCheckCondition = 0x02,
  kBusy = 0x08,
  kReservationConflict = 0x18,
  kTaskSetFull = 0x28,
  kTaskAborted = 0x40,
};

enum class SenseKey : std::uint8_t {
  kNoSense = 0x0,
  kNotReady = 0x2,
  kMediumError = 0x3,
  kHardwareError = 0x4,
  kIllegalRequest = 0x5,
  kUnitAttention = 0x6,
  kDataProtect = 0x7,
  kAbortedCommand = 0xB,
  kMiscompare = 0xE,
};

// Why a command failed; code_of() gives its key/ASC/ASCQ.
enum class Reason : std::uint8_t {
  kNoSense,
  kInvalidOpcode,            // 5/20/00 INVALID COMMAND OPERATION CODE
  kInvalidFieldInCdb,        // 5/24/00
  kInvalidFieldInParamList,  // 5/26/00
  kParamListLengthError,     // 5/1A/00
  kLbaOutOfRange,            // 5/21/00 LOGICAL BLOCK ADDRESS OUT OF RANGE
  kLunNotSupported,          // 5/25/00 LOGICAL UNIT NOT SUPPORTED
  kSavingNotSupported,       // 5/39/00 SAVING PARAMETERS NOT SUPPORTED
  kNotParallelAccessible,    // 5/26/80 vendor: STRICT batch needs more than one media step
  kInsufficientResources,    // 5/55/03 INSUFFICIENT RESOURCES
  kNoRegistrationResources,  // 5/55/04 INSUFFICIENT REGISTRATION RESOURCES
  kMiscompare,               // E/1D/00 MISCOMPARE DURING VERIFY OPERATION
  kWriteError,               // 3/0C/00 WRITE ERROR
  kReadError,                // 3/11/00 UNRECOVERED READ ERROR
  kInternalFailure,          // 4/44/00 INTERNAL TARGET FAILURE
  kSpaceAllocationFailed,    // 7/27/07 SPACE ALLOCATION FAILED WRITE PROTECT
  kPowerOnReset,             // 6/29/00 POWER ON, RESET, OR BUS DEVICE RESET OCCURRED
  kModeParametersChanged,    // 6/2A/01 MODE PARAMETERS CHANGED
  kInvalidRelease,           // 5/26/04 INVALID RELEASE OF PERSISTENT RESERVATION
  kBusDeviceReset,           // 6/29/03 BUS DEVICE RESET FUNCTION OCCURRED (LUN reset)
  kReservationsPreempted,    // 6/2A/03 RESERVATIONS PREEMPTED
  kReservationsReleased,     // 6/2A/04 RESERVATIONS RELEASED
  kRegistrationsPreempted,   // 6/2A/05 REGISTRATIONS PREEMPTED
  kAccessDenied,             // 5/20/02 ACCESS DENIED - NO ACCESS RIGHTS (control pages)
  kCapacityDataChanged,      // 6/2A/09 CAPACITY DATA HAS CHANGED
  kReportedLunsChanged,      // 6/3F/0E REPORTED LUNS DATA HAS CHANGED
};

struct SenseCode {
  SenseKey key;
  std::uint8_t asc;
  std::uint8_t ascq;
  friend bool operator==(const SenseCode&, const SenseCode&) = default;
};
SenseCode code_of(Reason r);

// Sense-key specific field pointer (SPC-4 §4.5.2.4.2).
struct FieldPointer {
  bool in_cdb = true;  // C/D: the field is in the CDB (else the parameter list)
  std::uint16_t byte = 0;
  std::int8_t bit = -1;  // -1: no bit pointer (BPV = 0)
};

struct Sense {
  Reason reason = Reason::kNoSense;
  std::optional<FieldPointer> field;
  std::optional<std::uint64_t> information;  // e.g. the failing LBA, miscompare offset
  static Sense cdb(Reason r, std::uint16_t byte, std::int8_t bit = -1) {
    return {r, FieldPointer{true, byte, bit}, std::nullopt};
  }
  static Sense param(Reason r, std::uint16_t byte, std::int8_t bit = -1) {
    return {r, FieldPointer{false, byte, bit}, std::nullopt};
  }
};

// A codec's FieldError as sense: where it points (CDB or parameter list) follows the kind.
Sense sense_from(const modepages::FieldError& e);

// A backing store's failure as sense, by its cause (SBC-3 §4.7.3.6 for
// thin provisioning): no space (ENOSPC, EDQUOT) is DATA PROTECT / SPACE
// ALLOCATION FAILED WRITE PROTECT; an I/O error is a MEDIUM ERROR (WRITE
// ERROR or UNRECOVERED READ ERROR, with INFORMATION = `lba`); anything else
// is a HARDWARE ERROR (INTERNAL TARGET FAILURE).
Sense store_sense(int errno_value, bool writing, std::uint64_t lba);

// Fixed format is 18 bytes; descriptor format carries the information and
// sense-key specific descriptors when present.
Bytes build_sense(const Sense& s, bool descriptor_format);
// The same for a key/ASC/ASCQ of the caller's (an injected fault's,
// fault_rule.h) instead of a reason's.
Bytes build_sense(SenseCode code, const Sense& s, bool descriptor_format);

}  // namespace memstore::scsi
