// SPDX-License-Identifier: Apache-2.0
// The handler's log lines as tcmu-runner's log can hold them.
//
// tcmu-runner 1.5.x formats each message into a buffer of 256 bytes
// together with its function, line and device ("memstore_log:49
// memstore/ms0: ") and drops what does not fit, the newline included, so
// that the next message runs on in the same line. A power cut's account of
// a torn write lists every run of blocks kept and lost, and such a line is
// often longer (measured: cut at 254 bytes from the function name on). So
// a long line goes out in pieces at spaces; each piece after the first
// starts with the name and " ... ", to be joined to the line before.
#pragma once

#include <cstddef>
#include <string>
#include <string_view>
#include <vector>

namespace memstore::tcmu {

// Leaves 96 bytes of tcmu-runner's 256 to its prefix: a backstore name of
// up to about 60 characters.
inline constexpr std::size_t kMaxLogLine = 160;

// `line` in pieces of at most `max` bytes, cut at spaces where there are
// any; every piece but the first starts with `name` + ": ... ".
inline std::vector<std::string> log_pieces(std::string_view line, std::string_view name,
                                           std::size_t max = kMaxLogLine) {
  std::vector<std::string> out;
  const std::string more = std::string(name) + ": ... ";
  std::string piece;
  while (true) {
    const std::size_t room = max - piece.size();
    if (line.size() <= room) {
      out.push_back(piece + std::string(line));
      return out;
    }
    std::size_t cut = line.rfind(' ', room);
    if (cut == std::string_view::npos || cut == 0) cut = room;  // no space: cut anywhere
    out.push_back(piece + std::string(line.substr(0, cut)));
    line.remove_prefix(cut);
    while (!line.empty() && line.front() == ' ') line.remove_prefix(1);
    piece = more.size() < max / 2 ? more : std::string();
  }
}

}  // namespace memstore::tcmu
