// Errors as values, the one convention at every layer boundary
// (docs/design.md, "Errors"): a function that can fail returns Status when it
// has nothing else to return, Expected<T> when it has a T. Neither converts
// to bool; callers ask ok(), so that a success is never mistaken for a
// failure by a reader who expected the other convention.
//
// The Error keeps its cause: a complete sentence for the person who has to
// act on it, and, when a system call failed, its errno, from which the SCSI
// layer picks the sense data (ENOSPC → DATA PROTECT, EIO → MEDIUM ERROR).
// The host library uses the same templates with its own error type, which
// carries decoded sense data (host/result.h).
#pragma once

#include <string>
#include <type_traits>
#include <utility>
#include <variant>

namespace memstore {

struct Error {
  Error(std::string message_in) : message(std::move(message_in)) {}  // NOLINT: implicit on purpose
  Error(const char* message_in) : message(message_in) {}              // NOLINT
  Error(int errno_in, std::string message_in)
      : errno_value(errno_in), message(std::move(message_in)) {}

  int errno_value = 0;  // errno of the failed system call; 0 when none failed
  std::string message;
};

template <class E>
class [[nodiscard]] BasicStatus {
 public:
  BasicStatus() = default;                                   // success
  BasicStatus(E error) : error_(std::move(error)) {}         // NOLINT: implicit on purpose
  // `return "what failed";` and `return where + "...";` read as the failure
  // they are.
  template <class S>
    requires(std::is_constructible_v<E, S> && !std::is_same_v<std::decay_t<S>, E>)
  BasicStatus(S&& message) : error_(E(std::forward<S>(message))) {}  // NOLINT: implicit
  bool ok() const { return std::holds_alternative<std::monostate>(error_); }
  // REQUIRES: !ok().
  const E& error() const { return std::get<E>(error_); }
  E& error() { return std::get<E>(error_); }

 private:
  std::variant<std::monostate, E> error_;
};

template <class T, class E = Error>
class [[nodiscard]] Expected {
  // A bool result would take `return "what failed";` for `true`: name the
  // outcomes with an enum instead.
  static_assert(!std::is_same_v<T, bool>, "Expected<bool>: use an enum");

 public:
  Expected(T value) : v_(std::in_place_index<0>, std::move(value)) {}  // NOLINT: implicit
  Expected(E error) : v_(std::in_place_index<1>, std::move(error)) {}  // NOLINT: implicit
  // As for BasicStatus; not for what would also make a T.
  template <class S>
    requires(std::is_constructible_v<E, S> && !std::is_same_v<std::decay_t<S>, E> &&
             !std::is_convertible_v<S, T>)
  Expected(S&& message)  // NOLINT: implicit
      : v_(std::in_place_index<1>, E(std::forward<S>(message))) {}
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
