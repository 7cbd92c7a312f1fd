// SPDX-License-Identifier: Apache-2.0
// Progress of a long memsim run on stderr (sweep, array, power, wbuffer):
// "memsim sweep: 12/40 points, 3.1/s, 9 s left", redrawn in place at most
// twice a second and cleared when the run ends. Only when stderr is a
// terminal: a pipe or a file (scripts, CI logs) gets nothing, so the
// output of a run is the same wherever it goes.
#pragma once

#include <chrono>
#include <cstdint>
#include <functional>
#include <ostream>
#include <string>

namespace memstore::sim {

class Progress {
 public:
  using Clock = std::function<std::chrono::steady_clock::time_point()>;

  // On std::cerr when stderr is a terminal; otherwise silent.
  Progress(std::string what, std::int64_t total, std::string unit);
  // On `out` (nullptr: silent) with `clock`: for tests.
  Progress(std::string what, std::int64_t total, std::string unit, std::ostream* out, Clock clock);
  ~Progress();
  Progress(const Progress&) = delete;
  Progress& operator=(const Progress&) = delete;

  // `n` more of `total` done.
  void step(std::int64_t n = 1);

  // The line as shown after `done` of the total in `seconds`.
  std::string line(std::int64_t done, double seconds) const;

 private:
  std::string what_, unit_;
  std::int64_t total_ = 0, done_ = 0;
  std::ostream* out_ = nullptr;
  Clock clock_;
  std::chrono::steady_clock::time_point start_, shown_;
  std::size_t width_ = 0;  // of the line on screen, to clear it
};

}  // namespace memstore::sim
