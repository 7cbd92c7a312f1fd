// SPDX-License-Identifier: Apache-2.0
// Power cuts (docs/crash-consistency.md): what the LUN does when its power
// goes, and when it goes for good.
#include <string>

#include "target/scsi/lun.h"

namespace memstore::scsi {
namespace {

void log_cut(const LogSink& log, const std::string& lun, std::string_view what,
             std::string_view cause, const PowerCutReport& report) {
  if (!log) return;
  const std::vector<std::string> lines = cut_report_lines(report);
  // The summary says whether anything was lost; each write's account is
  // what a tester needs to check the host's recovery, one line each.
  log(report.blocks_lost() > 0 ? LogLevel::kWarning : LogLevel::kInfo,
      lun + ": " + std::string(what) + " (" + std::string(cause) + "): " + lines.front());
  for (std::size_t i = 1; i < lines.size(); ++i) log(LogLevel::kInfo, lun + ": " + lines[i]);
}

}  // namespace

Expected<PowerCutReport> Lun::power_cycle(CutPolicy policy, std::uint64_t seed, Ns now, Ns off_ns,
                                          std::string_view cause) {
  if (power_lost_) {
    const Ns wall = config_.timing.mode == TimingMode::kScaled
                        ? static_cast<Ns>(static_cast<double>(off_ns) * config_.timing.scale)
                        : off_ns;
    power_lost_(std::chrono::nanoseconds(wall));
  }
  ++power_cycles_;  // from here on nothing that arrived before is answered
  off_until_ns_ = now + off_ns;
  auto cut = store_->power_cut(policy, seed);
  if (!cut.ok()) return cut;
  log_cut(log_, log_name_, "power cut", cause, *cut);
  reservations_.power_on();
  for (const std::uint64_t nexus : nexuses_) {
    attentions_.establish(port_of(nexus), Reason::kPowerOnReset);
  }
  return cut;
}

StoreStatus Lun::switch_off(std::string_view cause) {
  auto cut = store_->power_cut(CutPolicy::kDropAll, 0);
  if (!cut.ok()) return cut.error();
  // A store without a cache of its own (write-back, write-through) reports
  // no write: nothing to say.
  if (!cut->writes.empty()) log_cut(log_, log_name_, "switched off", cause, *cut);
  return store_->flush();
}

}  // namespace memstore::scsi
