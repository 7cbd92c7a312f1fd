// SPDX-License-Identifier: Apache-2.0
#include "target/control/power_cut_json.h"

#include <string>

namespace memstore::control {
namespace {

nlohmann::json runs(const std::vector<scsi::BlockRun>& list) {
  nlohmann::json out = nlohmann::json::array();
  for (const scsi::BlockRun& r : list) out.push_back({r.lba, r.blocks});
  return out;
}

}  // namespace

nlohmann::json power_cut_json(const scsi::PowerCutReport& report) {
  nlohmann::json writes = nlohmann::json::array();
  for (const scsi::CutWrite& w : report.writes) {
    writes.push_back({{"sequence", w.sequence},
                      {"lba", w.lba},
                      {"blocks", w.blocks},
                      {"after_flush", w.after_flush},
                      {"outcome", std::string(scsi::cut_outcome_name(w.outcome))},
                      {"kept", runs(w.kept)},
                      {"lost", runs(w.lost)},
                      {"writing_back", w.writing_back}});
  }
  return {{"policy", std::string(scsi::cut_policy_name(report.policy))},
          {"seed", report.seed},
          {"flushes", report.flushes},
          {"writes_volatile", report.writes.size()},
          {"blocks_lost", report.blocks_lost()},
          {"blocks_kept", report.blocks_kept()},
          {"writes", writes}};
}

}  // namespace memstore::control
