// SPDX-License-Identifier: Apache-2.0
#include "target/scsi/power_cut.h"

#include <array>
#include <utility>

namespace memstore::scsi {
namespace {

constexpr std::array<std::pair<std::string_view, CutPolicy>, 3> kPolicies{{
    {"drop-all", CutPolicy::kDropAll},
    {"keep-random", CutPolicy::kKeepRandom},
    {"torn", CutPolicy::kTorn},
}};

std::string runs_text(const std::vector<BlockRun>& runs) {
  if (runs.empty()) return "none";
  std::string s;
  for (const BlockRun& r : runs) {
    s += (s.empty() ? "" : " ") + std::to_string(r.lba) + "+" + std::to_string(r.blocks);
  }
  return s;
}

std::uint64_t sum(const std::vector<BlockRun>& runs) {
  std::uint64_t n = 0;
  for (const BlockRun& r : runs) n += r.blocks;
  return n;
}

}  // namespace

std::optional<CutPolicy> cut_policy_named(std::string_view name) {
  for (const auto& [n, p] : kPolicies) {
    if (n == name) return p;
  }
  return std::nullopt;
}

std::string_view cut_policy_name(CutPolicy policy) {
  for (const auto& [n, p] : kPolicies) {
    if (p == policy) return n;
  }
  return "?";
}

std::string_view cut_outcome_name(CutWrite::Outcome outcome) {
  switch (outcome) {
    case CutWrite::Outcome::kKept:
      return "kept";
    case CutWrite::Outcome::kLost:
      return "lost";
    case CutWrite::Outcome::kTorn:
      return "torn";
  }
  return "?";
}

std::uint64_t PowerCutReport::blocks_lost() const {
  std::uint64_t n = 0;
  for (const CutWrite& w : writes) n += sum(w.lost);
  return n;
}

std::uint64_t PowerCutReport::blocks_kept() const {
  std::uint64_t n = 0;
  for (const CutWrite& w : writes) n += sum(w.kept);
  return n;
}

std::vector<std::string> cut_report_lines(const PowerCutReport& report) {
  std::vector<std::string> lines;
  lines.push_back("policy " + std::string(cut_policy_name(report.policy)) + ", seed " +
                  std::to_string(report.seed) + ", after " + std::to_string(report.flushes) +
                  " flushes: " + std::to_string(report.writes.size()) + " volatile writes, " +
                  std::to_string(report.blocks_lost()) + " blocks lost, " +
                  std::to_string(report.blocks_kept()) + " kept");
  for (const CutWrite& w : report.writes) {
    lines.push_back(
        "write " + std::to_string(w.sequence) + " (LBA " + std::to_string(w.lba) + ", " +
        std::to_string(w.blocks) + " blocks, after flush " + std::to_string(w.after_flush) +
        "): " + std::string(cut_outcome_name(w.outcome)) + "; kept " + runs_text(w.kept) +
        "; lost " + runs_text(w.lost) + (w.writing_back ? "; its write-back was in flight" : ""));
  }
  return lines;
}

}  // namespace memstore::scsi
