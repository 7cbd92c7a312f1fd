// SPDX-License-Identifier: Apache-2.0
#include "sim/progress.h"

#include <unistd.h>

#include <cstdio>
#include <iostream>

namespace memstore::sim {
namespace {

std::chrono::steady_clock::time_point steady_now() {
  return std::chrono::steady_clock::now();
}

}  // namespace

Progress::Progress(std::string what, std::int64_t total, std::string unit)
    : Progress(std::move(what), total, std::move(unit),
               ::isatty(STDERR_FILENO) == 1 ? &std::cerr : nullptr, steady_now) {}

Progress::Progress(std::string what, std::int64_t total, std::string unit, std::ostream* out,
                   Clock clock)
    : what_(std::move(what)),
      unit_(std::move(unit)),
      total_(total),
      out_(out),
      clock_(std::move(clock)),
      start_(clock_()),
      shown_(start_) {}

Progress::~Progress() {
  if (out_ != nullptr && width_ > 0)
    *out_ << '\r' << std::string(width_, ' ') << '\r' << std::flush;
}

std::string Progress::line(std::int64_t done, double seconds) const {
  std::string s = what_ + ": " + std::to_string(done) + "/" + std::to_string(total_) + " " + unit_;
  if (done > 0 && seconds > 0) {
    const double rate = static_cast<double>(done) / seconds;
    char buf[64];
    std::snprintf(buf, sizeof buf, ", %.3g/s, %.0f s left", rate,
                  static_cast<double>(total_ - done) / rate);
    s += buf;
  }
  return s;
}

void Progress::step(std::int64_t n) {
  done_ += n;
  if (out_ == nullptr) return;
  const auto now = clock_();
  // At most twice a second, and always the last step.
  if (done_ < total_ && now - shown_ < std::chrono::milliseconds(500)) return;
  shown_ = now;
  const std::string text = line(done_, std::chrono::duration<double>(now - start_).count());
  *out_ << '\r' << text;
  if (text.size() < width_) *out_ << std::string(width_ - text.size(), ' ');
  *out_ << std::flush;
  width_ = std::max(width_, text.size());
}

}  // namespace memstore::sim
