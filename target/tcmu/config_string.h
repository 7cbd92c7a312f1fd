// SPDX-License-Identifier: Apache-2.0
// The TCMU backstore's configuration string (docs/tcmu.md):
//
//   memstore/<backing image>[;key=value]...
//
// targetcli passes it as `cfgstring=` (the "memstore/" subtype prefix is
// added by tcmu-runner and may be left out here). The backing image is an
// absolute path (created sparse when absent; its directory must exist) or
// the word `memory` (volatile, for tests). Keys, each at most once:
//
//   device=g1|g2|g3|uysal03|tos05|asplos99-g1|asplos99-g2|asplos99-g3
//                                         a MEMStore preset (default g2), or
//   device=atlas10k|disk20k|cheetah4lp|superdisk
//                                         a zoned rotating disk
//   config=/abs/params.toml               MEMStore parameter overrides, the
//                                         format of memstored's device_config
//                                         (refused for a disk)
//   timing=realtime|scaled|off            completion delivery (default realtime)
//   scale=K                               scaled: wall delay = K x modeled delay
//   scheduler=fcfs|clook|sstf|sptf|asptf|sdf|zsptf|zfcfs|ztsptf
//   durability=write-back|write-through
//   rotation_rate=N                       VPD B1h MEDIUM ROTATION RATE (a
//                                         disk reports its own; refused there)
//   control=deny|allow                    may initiators change pages 22h, 1Ah
//                                         (default deny: TCMU does not say
//                                         which initiator sent a command)
//   faults=/abs/faults.toml               fault rules ([[fault]] tables, the
//                                         keys of memstored's [[target.lun.fault]],
//                                         and fault_seed), power-cut included;
//                                         iSCSI transport faults are refused
//   tcmur_cmd_time_out=N                  tcmu-runner's own key; ignored here
//
// Parsing and validation only (no image is opened): every error names the
// key at fault and says what would be accepted.
#pragma once

#include <string>
#include <string_view>
#include <variant>

#include "base/expected.h"
#include "target/lunspec/lun_spec.h"

namespace memstore::tcmu {

inline constexpr std::string_view kSubtype = "memstore";

// Example and key list for tcmu-runner's `cfg_desc` (shown by targetcli's
// `help create` in /backstores/user:memstore) and docs/tcmu.md.
extern const char* const kConfigHelp;

// The LUN the string describes: a lunspec::LunSpec with params resolved from
// the preset and the config file, ready for lunspec::open_lun.
Expected<lunspec::LunSpec> parse_config_string(std::string_view cfgstring);

}  // namespace memstore::tcmu
