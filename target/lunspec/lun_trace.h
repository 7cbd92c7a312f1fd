// SPDX-License-Identifier: Apache-2.0
// Captures of a LUN's requests (scsi::RequestTrace; docs/memstored.md,
// "Traces"), opened the same way from a LUN's `trace` key and from the
// control socket's trace-start: the file's header names the LUN, where on
// its model clock the capture began, and the memsim command that replays it
// on the same device with the same scheduler.
#pragma once

#include <memory>
#include <string>

#include "base/expected.h"
#include "target/lunspec/lun_spec.h"
#include "target/scsi/lun.h"

namespace memstore::lunspec {

// memsim's options that give a replay `spec`'s device: --device, and its
// --config and --set as the LUN has them.
std::string memsim_device_args(const LunSpec& spec);

// Starts capturing `lun`'s requests into `path` (created or truncated), in
// `format`. `device_args`: memsim_device_args() of the LUN's spec. Call on
// the LUN's thread. Errors name the file.
Expected<std::unique_ptr<scsi::RequestTrace>> open_trace(const std::string& path,
                                                         model::TraceFormat format,
                                                         const std::string& lun_name,
                                                         const std::string& device_args,
                                                         const scsi::Lun& lun, scsi::Ns now);

// The memsim command line in the header: replays `path` as captured.
std::string replay_command(const std::string& path, model::TraceFormat format,
                           const std::string& device_args, const scsi::Lun& lun);

}  // namespace memstore::lunspec
