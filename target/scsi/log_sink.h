// How the SCSI layer tells its host program what went wrong where no
// initiator is told the whole story: a backing store's failure reaches the
// initiator as sense data, and the operator through this sink with its
// cause (errno text, file, byte offset). The program decides where lines go
// (memstored: spdlog; tests: a vector). Called on the LUN's thread.
#pragma once

#include <cstdint>
#include <functional>
#include <string_view>

namespace memstore::scsi {

enum class LogLevel : std::uint8_t { kInfo, kWarning, kError };

using LogSink = std::function<void(LogLevel, std::string_view message)>;

}  // namespace memstore::scsi
