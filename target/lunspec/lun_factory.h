// SPDX-License-Identifier: Apache-2.0
// Builds a LUN from its configuration: the backing store (a sparse image
// file, or memory), its persisted identity, and the device model.
#pragma once

#include <memory>
#include <string>
#include <variant>

#include "base/expected.h"
#include "target/lunspec/lun_spec.h"
#include "target/scsi/lun.h"

namespace memstore::lunspec {

// Errors name the configuration key (`where`, e.g. "target[0].lun[1].") and
// the fix. Image files are created (sparse) when absent; their directory must
// exist.
Expected<std::unique_ptr<scsi::Lun>> open_lun(const LunSpec& spec, const std::string& target_name,
                                              const std::string& where);

}  // namespace memstore::lunspec
