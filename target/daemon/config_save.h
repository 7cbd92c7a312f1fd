// SPDX-License-Identifier: Apache-2.0
// A configuration written back as TOML (`memsctl admin save`, docs/memstored.md,
// "Saving the running configuration"): parse_config() of the text gives the
// same Config. Keys at their defaults are left out, except each LUN's id,
// device and backing, so that the file says what each LUN is. Secrets are
// written as they were given: the file is for the daemon, not for a log.
#pragma once

#include <string>

#include "base/expected.h"
#include "target/daemon/config.h"

namespace memstore::daemon {

// The TOML text, starting with a comment that says what wrote it.
std::string config_to_toml(const Config& config);

// Writes `text` to `path` with mode 0600 (it may hold CHAP secrets): to a
// temporary file beside it, then renamed over it, so that a reader never
// sees half a file. An error names the path and the system's reason.
Status write_config_file(const std::string& path, const std::string& text);

}  // namespace memstore::daemon
