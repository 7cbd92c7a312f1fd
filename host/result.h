// SPDX-License-Identifier: Apache-2.0
// Errors as values for the host library: every call that talks to a device or
// checks an argument returns a Status or a Result<T>, never throws (the C API
// and other languages sit directly on top). Callers ask ok(). An Error says what went wrong in
// words; a CHECK CONDITION also carries the decoded sense data.
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <utility>
#include <variant>

#include "base/expected.h"
#include "host/sense_text.h"

namespace memstore::host {

struct Error {
  enum class Code : std::uint8_t {
    kInvalidArgument,  // the caller's input is wrong (names the argument)
    kTransport,        // connect/login failed, connection lost, ioctl failed
    kCheckCondition,   // the device answered CHECK CONDITION: see `sense`
    kScsiStatus,       // another non-GOOD status (BUSY, TASK SET FULL, ...): see `status`
    kBadResponse,      // the device's data does not decode (short, wrong page, ...)
    kNotMemstore,      // the device has no (usable) mode page 20h
  };
  Code code = Code::kInvalidArgument;
  std::string message;
  std::uint8_t status = 0;         // SCSI status for kCheckCondition / kScsiStatus
  std::optional<SenseData> sense;  // kCheckCondition
};

// The code's name in words ("check condition", ...).
const char* code_name(Error::Code code);

// The project's one convention (base/expected.h), with this library's Error.
using Status = BasicStatus<Error>;
template <class T>
using Result = Expected<T, Error>;

inline Error invalid_argument(std::string message) {
  return {Error::Code::kInvalidArgument, std::move(message), 0, std::nullopt};
}
inline Error bad_response(std::string message) {
  return {Error::Code::kBadResponse, std::move(message), 0, std::nullopt};
}

}  // namespace memstore::host
