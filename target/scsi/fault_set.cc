// SPDX-License-Identifier: Apache-2.0
#include "target/scsi/fault_set.h"

#include <algorithm>

namespace memstore::scsi {
namespace {

// splitmix64: a small, well-mixed stream per rule, so that one rule's
// draws do not depend on another's.
std::uint64_t next_random(std::uint64_t& state) {
  std::uint64_t z = (state += 0x9E3779B97F4A7C15ULL);
  z = (z ^ (z >> 30)) * 0xBF58476D1CE4E5B9ULL;
  z = (z ^ (z >> 27)) * 0x94D049BB133111EBULL;
  return z ^ (z >> 31);
}

bool is_geometric(FaultAction a) {
  return a == FaultAction::kFailedTip || a == FaultAction::kMediaRegion;
}

bool fails_blocks(FaultAction a) {
  return is_geometric(a) || a == FaultAction::kMediumError;
}

bool op_matches(const FaultRule& r, const FaultQuery& q) {
  switch (r.op) {
    case FaultOp::kAny:
      return true;
    case FaultOp::kOpcode:
      return !q.cdb.empty() && q.cdb[0] == r.opcode;
    case FaultOp::kRead:
    case FaultOp::kWrite:
      return q.range && q.range->op == r.op;
  }
  return false;
}

// Does the track starting at `track_first` hold a bad block of the rule,
// as far as the track's square row and cylinder tell? (A cheap test that
// lets whole tracks be skipped.)
bool track_may_hold(const FaultRule& r, const model::Geometry& g,
                    const model::PhysicalAddress& first) {
  const std::int32_t square_row = first.square / g.p();
  if (r.action == FaultAction::kFailedTip) return square_row == r.tip / g.p();
  const std::int32_t top = square_row * g.sy();
  if (top + g.sy() - 1 < r.y.first || top > r.y.second) return false;
  // Some column c of squares puts this cylinder inside [x.first, x.second].
  for (std::int32_t c = 0; c < g.p(); ++c) {
    const std::int32_t x = c * g.sx() + first.x;
    if (x >= r.x.first && x <= r.x.second) return true;
  }
  return false;
}

bool block_is_bad(const FaultRule& r, const model::Geometry& g, const model::PhysicalAddress& a) {
  if (r.action == FaultAction::kFailedTip) return a.square == r.tip;
  const std::int32_t x = (a.square % g.p()) * g.sx() + a.x;
  const std::int32_t y = (a.square / g.p()) * g.sy() + a.y;
  return x >= r.x.first && x <= r.x.second && y >= r.y.first && y <= r.y.second;
}

}  // namespace

std::optional<std::pair<std::uint64_t, std::uint64_t>> bad_lba_span(const FaultRule& rule,
                                                                    const model::Geometry& g,
                                                                    std::uint64_t lo,
                                                                    std::uint64_t hi) {
  const auto sled_first = static_cast<std::uint64_t>(rule.sled) * g.blocks_per_sled();
  const std::uint64_t sled_last = sled_first + g.blocks_per_sled() - 1;
  lo = std::max(lo, sled_first);
  hi = std::min(hi, sled_last);
  const auto st = static_cast<std::uint64_t>(g.st());
  std::optional<std::pair<std::uint64_t, std::uint64_t>> span;
  for (std::uint64_t lbn = lo; lbn <= hi;) {
    const std::uint64_t track_first = lbn - (lbn - sled_first) % st;
    const std::uint64_t track_last = std::min(track_first + st - 1, hi);
    const model::PhysicalAddress first = g.to_physical(static_cast<model::Lbn>(track_first));
    if (track_may_hold(rule, g, first)) {
      for (std::uint64_t l = lbn; l <= track_last; ++l) {
        if (!block_is_bad(rule, g, g.to_physical(static_cast<model::Lbn>(l)))) continue;
        if (!span) span.emplace(l, l);
        span->second = l;
      }
    }
    lbn = track_first + st;
  }
  return span;
}

std::optional<std::uint64_t> first_bad_lba(const FaultRule& rule, const model::Geometry& g,
                                           std::uint64_t lo, std::uint64_t hi) {
  const auto span = bad_lba_span(rule, g, lo, hi);
  if (!span) return std::nullopt;
  return span->first;
}

void add_failed_tip(std::vector<modepages::FailedTip>& tips, const FaultRule& rule) {
  if (rule.action != FaultAction::kFailedTip) return;
  const auto sled = static_cast<std::uint8_t>(rule.sled);
  const auto tip = static_cast<std::uint32_t>(rule.tip);
  for (modepages::FailedTip& t : tips) {
    if (t.sled == sled && t.tip == tip) {
      t.spared = t.spared && rule.spare;
      return;
    }
  }
  tips.push_back({sled, rule.spare, tip});
  std::sort(tips.begin(), tips.end(), [](const auto& a, const auto& b) {
    return std::pair(a.sled, a.tip) < std::pair(b.sled, b.tip);
  });
}

std::vector<modepages::FailedTip> FaultSet::failed_tips() const {
  std::vector<modepages::FailedTip> tips;
  for (const Entry& e : rules_) add_failed_tip(tips, e.rule);
  return tips;
}

std::uint32_t FaultSet::add(FaultRule rule) {
  Entry e;
  e.id = next_id_++;
  e.rule = std::move(rule);
  e.random = seed_ ^ (std::uint64_t{e.id} * 0xD1B54A32D192ED03ULL);
  rules_.push_back(std::move(e));
  return rules_.back().id;
}

bool FaultSet::remove(std::uint32_t id) {
  return std::erase_if(rules_, [id](const Entry& e) { return e.id == id; }) > 0;
}

std::optional<FiredFault> FaultSet::check(const FaultQuery& q, const model::Geometry& g) {
  for (Entry& e : rules_) {
    const FaultRule& r = e.rule;
    if (is_standing(r.action)) continue;  // set in the model (Lun::apply_slow_regions)
    if (r.once && e.fired > 0) continue;
    if (q.blocks_only && !fails_blocks(r.action)) continue;
    if (q.before_r2t != is_before_r2t(r.action)) continue;
    if (q.arrival_ns < r.after_ns || !op_matches(r, q)) continue;
    if (!r.initiator.empty() && r.initiator != q.initiator) continue;
    std::optional<std::uint64_t> bad, last;
    if (q.range && q.range->blocks > 0) {
      std::uint64_t lo = q.range->lba;
      std::uint64_t hi = q.range->lba + q.range->blocks - 1;
      if (r.lba) {
        lo = std::max(lo, r.lba->first);
        hi = std::min(hi, r.lba->second);
        if (lo > hi) continue;
      }
      if (is_geometric(r.action)) {
        const auto span = bad_lba_span(r, g, lo, hi);
        if (!span) continue;
        bad = span->first;
        last = span->second;
      } else {
        bad = last = lo;
      }
    } else if (r.lba || is_geometric(r.action)) {
      continue;  // the rule is about blocks, and the command has none
    }
    ++e.matched;
    if (e.matched % r.every != 0) continue;
    if (r.probability < 1.0) {
      const double u = static_cast<double>(next_random(e.random) >> 11) * 0x1.0p-53;
      if (u >= r.probability) continue;
    }
    ++e.fired;
    ++fired_total_;
    return FiredFault{e.id, &e.rule, bad, last, q.range};
  }
  return std::nullopt;
}

}  // namespace memstore::scsi
