// Errors as values for the host library: every call that talks to a device or
// checks an argument returns a Status or a Result<T>, never throws (the C API
// and other languages sit directly on top). An Error says what went wrong in
// words; a CHECK CONDITION also carries the decoded sense data.
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <utility>
#include <variant>

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

class Status {
 public:
  Status() = default;
  Status(Error e) : error_(std::move(e)) {}  // NOLINT: implicit on purpose
  bool ok() const { return !error_; }
  explicit operator bool() const { return ok(); }
  // REQUIRES: !ok().
  const Error& error() const { return *error_; }

 private:
  std::optional<Error> error_;
};

template <class T>
class Result {
 public:
  Result(T value) : v_(std::move(value)) {}  // NOLINT: implicit on purpose
  Result(Error e) : v_(std::move(e)) {}      // NOLINT
  Result(Status s) : v_(s.error()) {}        // NOLINT; REQUIRES: !s.ok()

  bool ok() const { return std::holds_alternative<T>(v_); }
  explicit operator bool() const { return ok(); }
  // REQUIRES: ok().
  T& value() & { return std::get<T>(v_); }
  const T& value() const& { return std::get<T>(v_); }
  T&& value() && { return std::get<T>(std::move(v_)); }
  T& operator*() & { return value(); }
  const T& operator*() const& { return value(); }
  T* operator->() { return &value(); }
  const T* operator->() const { return &value(); }
  // REQUIRES: !ok().
  const Error& error() const { return std::get<Error>(v_); }
  Status status() const { return ok() ? Status() : Status(error()); }

 private:
  std::variant<T, Error> v_;
};

inline Error invalid_argument(std::string message) {
  return {Error::Code::kInvalidArgument, std::move(message), 0, std::nullopt};
}
inline Error bad_response(std::string message) {
  return {Error::Code::kBadResponse, std::move(message), 0, std::nullopt};
}

}  // namespace memstore::host
