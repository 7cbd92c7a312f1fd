// SPDX-License-Identifier: Apache-2.0
#include "target/daemon/journal_log.h"

#include <spdlog/pattern_formatter.h>
#include <spdlog/spdlog.h>

#include <cstdlib>
#include <memory>

namespace memstore::memstored {
namespace {

// "%*": the syslog priority of the line's level (RFC 5424 severities).
class SyslogPriority final : public spdlog::custom_flag_formatter {
 public:
  void format(const spdlog::details::log_msg& msg, const std::tm&,
              spdlog::memory_buf_t& dest) override {
    const char* p = "<6>";
    switch (msg.level) {
      case spdlog::level::trace:
      case spdlog::level::debug:
        p = "<7>";
        break;
      case spdlog::level::info:
        p = "<6>";
        break;
      case spdlog::level::warn:
        p = "<4>";
        break;
      case spdlog::level::err:
        p = "<3>";
        break;
      case spdlog::level::critical:
        p = "<2>";
        break;
      default:
        break;
    }
    dest.append(p, p + 3);
  }
  std::unique_ptr<custom_flag_formatter> clone() const override {
    return std::make_unique<SyslogPriority>();
  }
};

}  // namespace

bool use_journal_format_if_under_systemd() {
  const char* stream = std::getenv("JOURNAL_STREAM");
  if (stream == nullptr || *stream == '\0') return false;
  auto formatter = std::make_unique<spdlog::pattern_formatter>();
  formatter->add_flag<SyslogPriority>('*').set_pattern("%*%v");
  spdlog::set_formatter(std::move(formatter));
  return true;
}

}  // namespace memstore::memstored
