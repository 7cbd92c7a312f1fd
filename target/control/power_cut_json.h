// SPDX-License-Identifier: Apache-2.0
// A power cut's report as the control socket gives it (docs/crash-consistency.md).
#pragma once

#include <nlohmann/json.hpp>

#include "target/scsi/power_cut.h"

namespace memstore::control {

// {"policy", "seed", "flushes", "writes_volatile", "blocks_lost",
// "blocks_kept", "writes": [{"sequence", "lba", "blocks", "after_flush",
// "outcome", "kept": [[lba, blocks]...], "lost": [...]}]}
nlohmann::json power_cut_json(const scsi::PowerCutReport& report);

}  // namespace memstore::control
