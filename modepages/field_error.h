// SPDX-License-Identifier: Apache-2.0
// What a decoder found wrong, as a value the target turns into sense data
// (SPC-4 §4.5.2.4.2: the sense-key specific field pointer names the byte and
// bit of the offending field). Codecs never build sense bytes themselves.
// A decoder returns Expected<T, FieldError>, a check FieldStatus: the
// project's one convention (base/expected.h) with this error.
#pragma once

#include <cstdint>
#include <string>

#include "base/expected.h"

namespace memstore::modepages {

struct FieldError {
  enum class Kind : std::uint8_t {
    kInvalidFieldInCdb,        // 24h/00h
    kInvalidFieldInParamList,  // 26h/00h
    kParamListLengthError,     // 1Ah/00h
    kLbaOutOfRange,            // 21h/00h
    kNotParallelAccessible,    // 26h/80h (vendor ASCQ: STRICT batch needs > 1 media step)
    kSavingNotSupported,       // 39h/00h
    // 20h/02h ACCESS DENIED - NO ACCESS RIGHTS: the page is valid, but this
    // initiator may not change it (a control page; `byte` is in the parameter list).
    kAccessDenied,
  };
  Kind kind = Kind::kInvalidFieldInParamList;
  std::uint16_t byte = 0;  // offset of the field in the CDB or parameter list
  std::int8_t bit = -1;    // most significant bit of the field, -1 = whole byte(s)
  std::string what;        // for logs and test messages, never sent to the host
};

using FieldStatus = BasicStatus<FieldError>;

}  // namespace memstore::modepages
