// SPDX-License-Identifier: Apache-2.0
// memstored's log lines under systemd (docs/service.md): when stderr is the
// journal's stream ($JOURNAL_STREAM, set by systemd for StandardError=journal),
// each line starts with its syslog priority, "<3>" for an error to "<7>" for
// debug (sd-daemon(3)'s SD_ERR..SD_DEBUG prefixes, which journald reads), and
// carries no timestamp of its own: the journal stamps every entry. Elsewhere
// the lines keep spdlog's default form, with the time.
#pragma once

namespace memstore::memstored {

// Call once, before the first log line. True when the journal's form is on.
bool use_journal_format_if_under_systemd();

}  // namespace memstore::memstored
