// SPDX-License-Identifier: Apache-2.0
// How the SCSI layer tells its host program what went wrong where no
// initiator is told the whole story: a backing store's failure reaches the
// initiator as sense data, and the operator through this sink with its
// cause (errno text, file, byte offset). The program decides where lines go
// (memstored: spdlog; tests: a vector). Called on the LUN's thread.
#pragma once

#include <cstdint>
#include <functional>
#include <string>
#include <string_view>

namespace memstore::scsi {

// kDebug: what helps follow one LUN's behaviour (each fault that fires), for
// a daemon started with log_level = "debug".
enum class LogLevel : std::uint8_t { kDebug, kInfo, kWarning, kError };

using LogSink = std::function<void(LogLevel, std::string_view message)>;

// Text an initiator chose (its InitiatorName, a CHAP name), made safe for a
// log line: bytes outside printable ASCII become \xNN, so that no one can
// forge or break lines, and it is cut at `max` bytes with "...".
inline std::string loggable(std::string_view s, std::size_t max = 256) {
  static constexpr char kHex[] = "0123456789abcdef";
  std::string out;
  for (const char ch : s.substr(0, max)) {
    const auto b = static_cast<unsigned char>(ch);
    if (b >= 0x20 && b < 0x7F && b != '\\') {
      out += ch;
    } else {
      out += "\\x";
      out += kHex[b >> 4];
      out += kHex[b & 0x0F];
    }
  }
  if (s.size() > max) out += "...";
  return out;
}

}  // namespace memstore::scsi
