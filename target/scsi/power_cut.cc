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
    case CutWrite::Outcome::kKept: return "kept";
    case CutWrite::Outcome::kLost: return "lost";
    case CutWrite::Outcome::kTorn: return "torn";
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

}  // namespace memstore::scsi
