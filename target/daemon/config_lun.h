// SPDX-License-Identifier: Apache-2.0
// One [[target.lun]] table, or one [[target]] table, on its own: what the
// control socket's lun-add and target-add give (docs/memstored.md,
// "Control socket"). Apart from config.h so that only its users see toml++.
#pragma once

#include <toml++/toml.h>

#include <string>
#include <variant>
#include <vector>

#include "base/expected.h"
#include "target/daemon/config.h"

namespace memstore::daemon {

// The LUN `t` describes, checked as the configuration file's LUNs are
// (every key of [[target.lun]]; `id` is required here), for the target
// `target_name`; its image defaults to the state directory as there. Errors
// name the key under `where` (e.g. "config.") and the fix.
Expected<LunSpec> parse_lun_table(const toml::table& t, const std::string& where,
                                  const std::string& state_dir, const std::string& target_name,
                                  const std::vector<std::string>& control_initiators);

// The target `t` describes, with its [[target.lun]] tables (`lun`), checked
// as the configuration file's targets are; what the control socket's
// target-add gives. Errors name the key under `where` and the fix.
Expected<TargetSpec> parse_target_table(const toml::table& t, const std::string& where,
                                        const std::string& state_dir,
                                        const std::vector<std::string>& control_initiators);

// A `chap` table (user, secret, mutual_user, mutual_secret), checked as the
// configuration file's are: what the control socket's chap-set gives.
// Errors name the key under `where` and the fix.
Expected<Chap> parse_chap_table(const toml::table& t, const std::string& where);

}  // namespace memstore::daemon
