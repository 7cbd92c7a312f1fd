// SPDX-License-Identifier: Apache-2.0
#include "target/scsi/sense.h"

#include <cerrno>

#include "modepages/bytes.h"

namespace memstore::scsi {
namespace {

struct Row {
  Reason reason;
  SenseCode code;
};

// The one table from reason to sense code (SPC-4 Annex D).
constexpr Row kSenseTable[] = {
    {Reason::kNoSense, {SenseKey::kNoSense, 0x00, 0x00}},
    {Reason::kInvalidOpcode, {SenseKey::kIllegalRequest, 0x20, 0x00}},
    {Reason::kInvalidFieldInCdb, {SenseKey::kIllegalRequest, 0x24, 0x00}},
    {Reason::kInvalidFieldInParamList, {SenseKey::kIllegalRequest, 0x26, 0x00}},
    {Reason::kParamListLengthError, {SenseKey::kIllegalRequest, 0x1A, 0x00}},
    {Reason::kLbaOutOfRange, {SenseKey::kIllegalRequest, 0x21, 0x00}},
    {Reason::kLunNotSupported, {SenseKey::kIllegalRequest, 0x25, 0x00}},
    {Reason::kSavingNotSupported, {SenseKey::kIllegalRequest, 0x39, 0x00}},
    {Reason::kNotParallelAccessible, {SenseKey::kIllegalRequest, 0x26, 0x80}},
    {Reason::kInsufficientResources, {SenseKey::kIllegalRequest, 0x55, 0x03}},
    {Reason::kNoRegistrationResources, {SenseKey::kIllegalRequest, 0x55, 0x04}},
    {Reason::kMiscompare, {SenseKey::kMiscompare, 0x1D, 0x00}},
    {Reason::kWriteError, {SenseKey::kMediumError, 0x0C, 0x00}},
    {Reason::kReadError, {SenseKey::kMediumError, 0x11, 0x00}},
    {Reason::kInternalFailure, {SenseKey::kHardwareError, 0x44, 0x00}},
    {Reason::kSpaceAllocationFailed, {SenseKey::kDataProtect, 0x27, 0x07}},
    {Reason::kPowerOnReset, {SenseKey::kUnitAttention, 0x29, 0x00}},
    {Reason::kModeParametersChanged, {SenseKey::kUnitAttention, 0x2A, 0x01}},
    {Reason::kInvalidRelease, {SenseKey::kIllegalRequest, 0x26, 0x04}},
    {Reason::kBusDeviceReset, {SenseKey::kUnitAttention, 0x29, 0x03}},
    {Reason::kReservationsPreempted, {SenseKey::kUnitAttention, 0x2A, 0x03}},
    {Reason::kReservationsReleased, {SenseKey::kUnitAttention, 0x2A, 0x04}},
    {Reason::kRegistrationsPreempted, {SenseKey::kUnitAttention, 0x2A, 0x05}},
    {Reason::kAccessDenied, {SenseKey::kIllegalRequest, 0x20, 0x02}},
    {Reason::kCapacityDataChanged, {SenseKey::kUnitAttention, 0x2A, 0x09}},
    {Reason::kReportedLunsChanged, {SenseKey::kUnitAttention, 0x3F, 0x0E}},
};

// Bytes 15-17 of fixed sense / 4-6 of the sense-key specific descriptor.
void put_field_pointer(Bytes& b, std::size_t at, const FieldPointer& f) {
  b[at] = static_cast<std::uint8_t>(0x80 | (f.in_cdb ? 0x40 : 0x00) |
                                    (f.bit >= 0 ? 0x08 | (f.bit & 0x07) : 0x00));
  modepages::put_be(b, at + 1, 2, f.byte);
}

}  // namespace

SenseCode code_of(Reason r) {
  for (const Row& row : kSenseTable) {
    if (row.reason == r) return row.code;
  }
  return {SenseKey::kHardwareError, 0x44, 0x00};
}

Sense sense_from(const modepages::FieldError& e) {
  using K = modepages::FieldError::Kind;
  switch (e.kind) {
    case K::kInvalidFieldInCdb:
      return Sense::cdb(Reason::kInvalidFieldInCdb, e.byte, e.bit);
    case K::kInvalidFieldInParamList:
      return Sense::param(Reason::kInvalidFieldInParamList, e.byte, e.bit);
    case K::kParamListLengthError:
      return {Reason::kParamListLengthError, std::nullopt, std::nullopt};
    case K::kLbaOutOfRange:
      return {Reason::kLbaOutOfRange, std::nullopt, std::nullopt};
    case K::kNotParallelAccessible:
      return {Reason::kNotParallelAccessible, std::nullopt, std::nullopt};
    case K::kSavingNotSupported:
      return Sense::cdb(Reason::kSavingNotSupported, e.byte, e.bit);
    case K::kAccessDenied:
      return Sense::param(Reason::kAccessDenied, e.byte, e.bit);
  }
  return {Reason::kInternalFailure, std::nullopt, std::nullopt};
}

Sense store_sense(int errno_value, bool writing, std::uint64_t lba) {
  switch (errno_value) {
    case ENOSPC:
    case EDQUOT:
      return {Reason::kSpaceAllocationFailed, std::nullopt, lba};
    case EIO:
      return {writing ? Reason::kWriteError : Reason::kReadError, std::nullopt, lba};
    default:
      return {Reason::kInternalFailure, std::nullopt, std::nullopt};
  }
}

Bytes build_sense(const Sense& s, bool descriptor_format) {
  return build_sense(code_of(s.reason), s, descriptor_format);
}

Bytes build_sense(SenseCode c, const Sense& s, bool descriptor_format) {
  if (!descriptor_format) {
    Bytes b(18, 0);
    b[0] = 0x70;  // current error, fixed format
    b[2] = static_cast<std::uint8_t>(c.key);
    if (s.information) {
      b[0] |= 0x80;                                // VALID: the INFORMATION field is meaningful
      modepages::put_be(b, 3, 4, *s.information);  // its low 4 bytes
    }
    b[7] = 10;  // additional sense length
    b[12] = c.asc;
    b[13] = c.ascq;
    if (s.field) put_field_pointer(b, 15, *s.field);
    return b;
  }
  Bytes b(8, 0);
  b[0] = 0x72;  // current error, descriptor format
  b[1] = static_cast<std::uint8_t>(c.key);
  b[2] = c.asc;
  b[3] = c.ascq;
  if (s.information) {
    const std::size_t at = b.size();
    b.resize(at + 12, 0);
    b[at] = 0x00;  // information descriptor
    b[at + 1] = 0x0A;
    b[at + 2] = 0x80;  // VALID
    modepages::put_be(b, at + 4, 8, *s.information);
  }
  if (s.field) {
    const std::size_t at = b.size();
    b.resize(at + 8, 0);
    b[at] = 0x02;  // sense key specific descriptor
    b[at + 1] = 0x06;
    put_field_pointer(b, at + 4, *s.field);
  }
  b[7] = static_cast<std::uint8_t>(b.size() - 8);
  return b;
}

}  // namespace memstore::scsi
