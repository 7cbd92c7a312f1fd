// SPDX-License-Identifier: Apache-2.0
// A fault rule back to its [[target.lun.fault]] table (fault_toml.h): the
// keys parse_fault() reads, so that a saved configuration and the control
// socket's `faults` list give the same rule back.
#include <cstdint>

#include "target/lunspec/fault_toml.h"

namespace memstore::lunspec {
namespace {

using scsi::FaultAction;

toml::array pair_of(std::int64_t first, std::int64_t last) {
  return toml::array{first, last};
}

double ms_of(std::uint64_t ns) {
  return static_cast<double>(ns) / 1e6;
}

void match_keys(const scsi::FaultRule& r, toml::table& t) {
  switch (r.op) {
    case scsi::FaultOp::kAny:
      t.insert("op", "any");
      break;
    case scsi::FaultOp::kRead:
      t.insert("op", "read");
      break;
    case scsi::FaultOp::kWrite:
      t.insert("op", "write");
      break;
    case scsi::FaultOp::kOpcode:
      t.insert("op", static_cast<std::int64_t>(r.opcode));
      break;
  }
  if (r.lba) {
    t.insert("lba", pair_of(static_cast<std::int64_t>(r.lba->first),
                            static_cast<std::int64_t>(r.lba->second)));
  }
  if (!r.initiator.empty()) t.insert("initiator", r.initiator);
  if (r.every != 1) t.insert("every", static_cast<std::int64_t>(r.every));
  if (r.probability < 1.0) t.insert("probability", r.probability);
  if (r.once) t.insert("once", true);
  if (r.after_ns > 0) t.insert("after_ms", ms_of(r.after_ns));
}

void region_keys(const scsi::FaultRule& r, toml::table& t) {
  t.insert("x", pair_of(r.x.first, r.x.second));
  t.insert("y", pair_of(r.y.first, r.y.second));
  t.insert("sled", static_cast<std::int64_t>(r.sled));
}

}  // namespace

toml::table fault_to_toml(const scsi::FaultRule& r) {
  toml::table t;
  if (!scsi::is_standing(r.action)) match_keys(r, t);
  t.insert("action", std::string(scsi::fault_action_name(r.action)));
  switch (r.action) {
    case FaultAction::kSense:
      t.insert("sense", toml::array{static_cast<std::int64_t>(r.sense.key),
                                    static_cast<std::int64_t>(r.sense.asc),
                                    static_cast<std::int64_t>(r.sense.ascq)});
      break;
    case FaultAction::kDelay:
      t.insert("delay_ms", ms_of(r.delay_ns));
      break;
    case FaultAction::kUnitAttention:
      t.insert("ua", std::string(scsi::fault_attention_name(r.attention)));
      break;
    case FaultAction::kTimeout:
      if (r.reject_abort) t.insert("abort", "reject");
      break;
    case FaultAction::kFailedTip:
      t.insert("tip", static_cast<std::int64_t>(r.tip));
      t.insert("sled", static_cast<std::int64_t>(r.sled));
      if (r.spare) t.insert("spare", true);
      break;
    case FaultAction::kMediaRegion:
      region_keys(r, t);
      break;
    case FaultAction::kSlowSeek:
      region_keys(r, t);
      t.insert("factor", r.factor);
      break;
    case FaultAction::kPowerCut:
      t.insert("policy", std::string(scsi::cut_policy_name(r.cut_policy)));
      t.insert("seed", static_cast<std::int64_t>(r.cut_seed));
      if (r.off_ns > 0) t.insert("off_ms", ms_of(r.off_ns));
      break;
    default:
      break;
  }
  return t;
}

}  // namespace memstore::lunspec
