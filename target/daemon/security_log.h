// SPDX-License-Identifier: Apache-2.0
// memstored's log of refused logins (docs/memstored.md, "Limits and
// security"): one warning per refusal, naming the initiator, its address,
// the target and the reason, at most `lines_per_second` per kind (login,
// CHAP, ACL). The refusals dropped in between are counted and reported in a
// line of their own before the next one of that kind gets through.
//
// Where lines go and the clock are passed in (memstored: spdlog::warn and
// the steady clock; tests: a vector and a fake clock). Thread-safe: the
// sessions of every event loop report into one log.
#pragma once

#include <cstdint>
#include <functional>
#include <string>

#include "target/iscsi/security_event.h"

namespace memstore::daemon {

using LineSink = std::function<void(const std::string& line)>;
using NowNs = std::function<std::int64_t()>;  // a monotonic clock, in ns

std::int64_t steady_now_ns();

// The line for one refusal; initiator-chosen text is made printable.
std::string describe(const iscsi::SecurityEvent& e);

iscsi::SecurityLog make_security_log(std::uint32_t lines_per_second, LineSink write,
                                     NowNs now = steady_now_ns);

}  // namespace memstore::daemon
