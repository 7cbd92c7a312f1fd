// SPDX-License-Identifier: Apache-2.0
// The fault rules of one LUN, and the decision, command by command, of
// which rule fires (fault_rule.h, docs/faults.md).
//
// Rules are looked at in the order they were added; the first that fires
// wins, and the rules after it do not see the command. A rule counts the
// commands it matches (for `every`) and draws from its own random stream
// (for `probability`), seeded from the set's seed and the rule's id: the
// same seed, rules and commands make the same rules fire on the same
// commands, run after run.
//
// Not thread-safe: the LUN's strand owns it, like the Lun.
#pragma once

#include <cstdint>
#include <optional>
#include <span>
#include <string_view>
#include <utility>
#include <vector>

#include "model/geometry.h"
#include "modepages/mode_vendor.h"
#include "target/scsi/fault_range.h"
#include "target/scsi/fault_rule.h"

namespace memstore::scsi {

struct FaultQuery {
  std::span<const std::uint8_t> cdb;
  std::optional<BlockRange> range;  // block_range(cdb)
  std::string_view initiator;       // iSCSI initiator name; empty: not known
  std::uint64_t arrival_ns = 0;     // model time
  // Only rules that fail blocks (medium-error, failed-tip, media-region)
  // are looked at: one descriptor of a MEMS BATCH, whose command the other
  // rules have already seen as a whole.
  bool blocks_only = false;
  // The transport's question before a write's first R2T: only the rules
  // that act there (is_before_r2t) are looked at; otherwise only the others.
  bool before_r2t = false;
};

struct FiredFault {
  std::uint32_t rule_id = 0;
  const FaultRule* rule = nullptr;
  // The first LBA of the command that the rule covers (medium errors' and
  // geometry faults' INFORMATION); unset for a command without blocks.
  std::optional<std::uint64_t> bad_lba;
  // The last such LBA (geometry faults; = bad_lba for the others): a spared
  // failed tip's extra access covers bad_lba..last_bad_lba.
  std::optional<std::uint64_t> last_bad_lba;
  std::optional<BlockRange> range;  // the command's blocks (FaultQuery::range)
};

class FaultSet {
 public:
  explicit FaultSet(std::uint64_t seed = 1) : seed_(seed) {}

  struct Entry {
    std::uint32_t id = 0;
    FaultRule rule;
    std::uint64_t matched = 0;  // commands it matched
    std::uint64_t fired = 0;    // commands it fired on
    std::uint64_t random = 0;   // its random stream's state
  };

  // Ids count from 1 and are never reused.
  std::uint32_t add(FaultRule rule);
  bool remove(std::uint32_t id);
  void clear() { rules_.clear(); }
  // Every rule goes, and new ones draw from `seed` (a configuration
  // reloaded). Ids go on counting.
  void reset(std::uint64_t seed) {
    rules_.clear();
    seed_ = seed;
  }
  const std::vector<Entry>& rules() const { return rules_; }
  bool empty() const { return rules_.empty(); }
  // Commands any rule fired on since the LUN started, removed rules
  // included: it only grows (a Prometheus counter).
  std::uint64_t fired_total() const { return fired_total_; }
  std::uint64_t seed() const { return seed_; }

  // The rule that fires for this command, if any. `geometry` places blocks
  // on tips and media for the failed-tip and media-region actions.
  std::optional<FiredFault> check(const FaultQuery& q, const model::Geometry& geometry);

  // The tips that failed-tip rules fail, one entry per (sled, tip), sorted;
  // spared only when every rule naming the tip spares it. Page 20h lists
  // them (modepages::GeometryPage::failed_tips).
  std::vector<modepages::FailedTip> failed_tips() const;

 private:
  std::uint64_t seed_;
  std::uint32_t next_id_ = 1;
  std::uint64_t fired_total_ = 0;
  std::vector<Entry> rules_;
};

// The first LBA in [lo, hi] that the failed-tip or media-region rule makes
// bad, or nullopt. Exposed for tests against the layout.
std::optional<std::uint64_t> first_bad_lba(const FaultRule& rule, const model::Geometry& g,
                                           std::uint64_t lo, std::uint64_t hi);
// The first and the last such LBA.
std::optional<std::pair<std::uint64_t, std::uint64_t>> bad_lba_span(const FaultRule& rule,
                                                                    const model::Geometry& g,
                                                                    std::uint64_t lo,
                                                                    std::uint64_t hi);

// Adds the tip a failed-tip rule names to `tips` (FaultSet::failed_tips'
// merging); other rules leave it alone.
void add_failed_tip(std::vector<modepages::FailedTip>& tips, const FaultRule& rule);

}  // namespace memstore::scsi
