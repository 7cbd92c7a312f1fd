// SPDX-License-Identifier: Apache-2.0
// Errors as values, the one convention at every layer boundary
// (docs/design.md, "Errors"): a function that can fail returns Status when it
// has nothing else to return, Expected<T> when it has a T. Neither converts
// to bool; callers ask ok(), so that a success is never mistaken for a
// failure by a reader who expected the other convention. A failure is always
// returned by name, `return Error("...")`: no text turns into a failure by
// itself, so an empty string can never pass for one (nor for success).
//
// The Error keeps its cause: a complete sentence for the person who has to
// act on it, and, when a system call failed, its errno, from which the SCSI
// layer picks the sense data (ENOSPC → DATA PROTECT, EIO → MEDIUM ERROR).
// The host library uses the same templates with its own error type, which
// carries decoded sense data (host/result.h).
#pragma once

#include <string>
#include <utility>
#include <variant>

namespace memstore {

struct Error {
  explicit Error(std::string message_in) : message(std::move(message_in)) {}
  explicit Error(const char* message_in) : message(message_in) {}
  Error(int errno_in, std::string message_in)
      : errno_value(errno_in), message(std::move(message_in)) {}

  int errno_value = 0;  // errno of the failed system call; 0 when none failed
  std::string message;
};

template <class E>
class [[nodiscard]] BasicStatus {
 public:
  BasicStatus() = default;                            // success
  BasicStatus(E error) : error_(std::move(error)) {}  // NOLINT: implicit on purpose
  bool ok() const { return std::holds_alternative<std::monostate>(error_); }
  // REQUIRES: !ok().
  const E& error() const { return std::get<E>(error_); }
  E& error() { return std::get<E>(error_); }

 private:
  std::variant<std::monostate, E> error_;
};

template <class T, class E = Error>
class [[nodiscard]] Expected {
 public:
  Expected(T value) : v_(std::in_place_index<0>, std::move(value)) {}  // NOLINT: implicit
  Expected(E error) : v_(std::in_place_index<1>, std::move(error)) {}  // NOLINT: implicit
  // REQUIRES: !status.ok(). Passes a callee's failure on.
  Expected(const BasicStatus<E>& status) : Expected(status.error()) {}  // NOLINT: implicit

  bool ok() const { return v_.index() == 0; }
  // REQUIRES: ok().
  T& value() & { return std::get<0>(v_); }
  const T& value() const& { return std::get<0>(v_); }
  T&& value() && { return std::get<0>(std::move(v_)); }
  T& operator*() & { return value(); }
  const T& operator*() const& { return value(); }
  T* operator->() { return &value(); }
  const T* operator->() const { return &value(); }
  // REQUIRES: !ok().
  const E& error() const { return std::get<1>(v_); }
  E& error() { return std::get<1>(v_); }
  BasicStatus<E> status() const { return ok() ? BasicStatus<E>() : BasicStatus<E>(error()); }

 private:
  std::variant<T, E> v_;
};

using Status = BasicStatus<Error>;

}  // namespace memstore
