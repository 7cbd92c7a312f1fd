// SPDX-License-Identifier: Apache-2.0
// Fault injection: what a fired rule does to a command (fault_rule.h,
// docs/faults.md).
#include <algorithm>

#include "target/scsi/lun.h"

namespace memstore::scsi {
namespace {

// The iSCSI initiator name of an initiator port "<initiator name>,i,0x<ISID>"
// (describe_nexus): what a rule's `initiator` matches.
std::string_view initiator_name(const std::string& port) {
  return std::string_view(port).substr(0, port.find(",i,"));
}

}  // namespace

FaultQuery Lun::fault_query(const CommandContext& c) const {
  FaultQuery q;
  q.cdb = c.cdb;
  q.initiator = initiator_name(port_of(c.nexus).name);
  q.arrival_ns = static_cast<std::uint64_t>(c.arrival_ns);
  return q;
}

std::optional<FiredFault> Lun::check_fault(const CommandContext& c) {
  FaultQuery q = fault_query(c);
  q.range = block_range(c.cdb, store_->blocks());
  std::optional<FiredFault> fired = faults_.check(q, geometry_);
  if (fired && log_) {
    static constexpr char kHex[] = "0123456789abcdef";
    const std::uint8_t op = c.cdb.empty() ? 0 : c.cdb[0];
    std::string line = log_name_ + ": fault rule " + std::to_string(fired->rule_id) + " (" +
                       std::string(fault_action_name(fired->rule->action)) +
                       ") fired on operation 0x" + kHex[op >> 4] + kHex[op & 0x0F];
    if (fired->bad_lba) line += " at LBA " + std::to_string(*fired->bad_lba);
    log_(LogLevel::kDebug, line + " from " + loggable(port_of(c.nexus).name));
  }
  return fired;
}

std::uint32_t Lun::add_fault(FaultRule rule) {
  const std::uint32_t id = faults_.add(std::move(rule));
  faults_changed();
  return id;
}

bool Lun::remove_fault(std::uint32_t id) {
  if (!faults_.remove(id)) return false;
  faults_changed();
  return true;
}

void Lun::clear_faults() {
  faults_.clear();
  faults_changed();
}

void Lun::reset_faults(std::uint64_t seed, std::span<const FaultRule> rules) {
  faults_.reset(seed);
  for (const FaultRule& r : rules) faults_.add(r);
  faults_changed();
}

std::optional<std::uint32_t> Lun::screen_r2t(std::uint64_t nexus, std::span<const std::uint8_t> cdb,
                                             Ns now) {
  if (!may_withhold_r2t()) return std::nullopt;
  FaultQuery q;
  q.cdb = cdb;
  q.initiator = initiator_name(port_of(nexus).name);
  q.arrival_ns = static_cast<std::uint64_t>(std::max(now, last_arrival_ns_));
  q.range = block_range(cdb, store_->blocks());
  q.before_r2t = true;
  const std::optional<FiredFault> f = faults_.check(q, geometry_);
  if (!f) return std::nullopt;
  return f->rule_id;
}

void Lun::count_r2t_rules() {
  std::uint32_t n = 0;
  for (const FaultSet::Entry& e : faults_.rules()) n += is_before_r2t(e.rule.action) ? 1 : 0;
  r2t_rules_.store(n, std::memory_order_relaxed);
}

void Lun::apply_slow_regions() {
  if (is_disk()) return;  // refused by Lun::create and the configuration
  std::vector<std::vector<model::SlowRegion>> by_sled(device_->mechanisms());
  for (const FaultSet::Entry& e : faults_.rules()) {
    const FaultRule& r = e.rule;
    if (r.action != FaultAction::kSlowSeek) continue;
    const auto sled = static_cast<std::size_t>(r.sled);
    if (sled >= by_sled.size()) continue;
    by_sled[sled].push_back({r.x.first, r.x.second, r.y.first, r.y.second, r.factor});
  }
  for (std::size_t i = 0; i < by_sled.size(); ++i) device_->set_slow_regions(i, by_sled[i]);
}

void Lun::faults_changed() {
  count_r2t_rules();
  if (is_disk()) return;  // a disk: no page 20h, no probe tips to list
  apply_slow_regions();
  std::vector<modepages::FailedTip> tips = faults_.failed_tips();
  if (mode_.failed_tips() == tips) return;
  mode_.set_failed_tips(std::move(tips));
  for (const std::uint64_t nexus : nexuses_) {
    attentions_.establish(port_of(nexus), Reason::kModeParametersChanged);
  }
}

void Lun::add_spare_access(const FiredFault& f, Outcome& outcome) {
  if (f.rule->action != FaultAction::kFailedTip || !f.rule->spare) return;
  // ORWRITE's second access already follows its first; its spare access is
  // not modelled (the command is rare and the cost one more step).
  if (!outcome.media || outcome.media_then || !f.bad_lba || !f.last_bad_lba) return;
  // The spare tip reads or writes the rows from the first spared block to
  // the last in a pass of its own. Every tip sits at the same point of its
  // square, so the spare reaches the data where the failed tip had it
  // (thesis §7.1.1), but it is not among the p tips of the access.
  model::Request spare = *outcome.media;
  spare.lbn = static_cast<model::Lbn>(*f.bad_lba);
  spare.blocks = static_cast<std::int32_t>(*f.last_bad_lba - *f.bad_lba + 1);
  outcome.media_then = spare;
}

std::optional<Sense> Lun::batch_faults(const CommandContext& c,
                                       std::vector<model::BatchExtent>& extents,
                                       std::vector<model::BatchExtent>& spared) {
  std::vector<model::Lbn> spare_lbns;
  for (const model::BatchExtent& e : extents) {
    const FaultOp op = e.op == model::Op::kWrite ? FaultOp::kWrite : FaultOp::kRead;
    FaultQuery q = fault_query(c);
    q.range =
        BlockRange{static_cast<std::uint64_t>(e.lbn), static_cast<std::uint64_t>(e.blocks), op};
    q.blocks_only = true;
    const std::optional<FiredFault> f = faults_.check(q, geometry_);
    if (!f || !f->bad_lba) continue;
    if (f->rule->action != FaultAction::kFailedTip || !f->rule->spare) {
      return Sense{op == FaultOp::kWrite ? Reason::kWriteError : Reason::kReadError, std::nullopt,
                   f->bad_lba};
    }
    for (std::uint64_t l = *f->bad_lba; l <= *f->last_bad_lba; ++l) {
      if (first_bad_lba(*f->rule, geometry_, l, l))
        spare_lbns.push_back(static_cast<model::Lbn>(l));
    }
  }
  if (spare_lbns.empty()) return std::nullopt;
  // Split the extents around the spared blocks.
  std::sort(spare_lbns.begin(), spare_lbns.end());
  std::vector<model::BatchExtent> kept;
  for (const model::BatchExtent& e : extents) {
    model::BatchExtent run{e.op, e.lbn, 0};
    for (model::Lbn l = e.lbn; l < e.lbn + e.blocks; ++l) {
      if (!std::binary_search(spare_lbns.begin(), spare_lbns.end(), l)) {
        if (run.blocks == 0) run.lbn = l;
        ++run.blocks;
        continue;
      }
      spared.push_back({e.op, l, 1});
      if (run.blocks > 0) kept.push_back(run);
      run.blocks = 0;
    }
    if (run.blocks > 0) kept.push_back(run);
  }
  extents = std::move(kept);
  return std::nullopt;
}

bool Lun::inject_fault(const FiredFault& f, const CommandContext& c, ScsiResult& result,
                       const Sink& sink) {
  const FaultRule& rule = *f.rule;
  const std::optional<BlockRange>& range = f.range;
  const bool writing =
      range ? range->op == FaultOp::kWrite : c.spec.direction == DataDirection::kOut;
  auto answer = [&](Status status, std::optional<Sense> sense) {
    result.status = status;
    if (sense) result.sense = build_sense(*sense, descriptor_sense());
    sink(std::move(result));
    return true;
  };
  switch (rule.action) {
    case FaultAction::kDelay:
      return false;  // submit() adds rule.delay_ns to the completion
    case FaultAction::kTimeout:
      result.withheld = true;
      result.reject_abort = rule.reject_abort;
      return false;
    case FaultAction::kDropConnection:
      result.drop_connection = true;
      return false;
    case FaultAction::kCorruptDigest:
      result.corrupt_digest = true;
      return false;
    case FaultAction::kSlowSeek:
    case FaultAction::kWithholdR2t:
      return false;  // never fire here (FaultSet::check)
    case FaultAction::kPowerCut: {
      // The power goes as the command arrives: the command is not carried
      // out and never answered.
      auto cut =
          power_cycle(rule.cut_policy, rule.cut_seed, c.arrival_ns, static_cast<Ns>(rule.off_ns),
                      "fault rule " + std::to_string(f.rule_id));
      if (!cut.ok() && log_) {
        log_(LogLevel::kError, log_name_ + ": power cut (fault rule " + std::to_string(f.rule_id) +
                                   "): " + cut.error().message);
      }
      result.withheld = true;
      sink(std::move(result));
      return true;
    }
    case FaultAction::kBusy:
      return answer(Status::kBusy, std::nullopt);
    case FaultAction::kTaskSetFull:
      return answer(Status::kTaskSetFull, std::nullopt);
    case FaultAction::kReservationConflict:
      return answer(Status::kReservationConflict, std::nullopt);
    case FaultAction::kSense:
      result.sense = build_sense(rule.sense, Sense{}, descriptor_sense());
      return answer(Status::kCheckCondition, std::nullopt);
    case FaultAction::kSpaceExhausted:
      return answer(Status::kCheckCondition,
                    Sense{Reason::kSpaceAllocationFailed, std::nullopt, f.bad_lba});
    case FaultAction::kUnitAttention: {
      // Every initiator port the LUN knows gets the condition; this
      // command is the first to report it (SAM-5 "Unit attention conditions").
      const Reason r = attention_reason(rule.attention);
      for (const std::uint64_t nexus : nexuses_) attentions_.establish(port_of(nexus), r);
      // INQUIRY, REPORT LUNS and REQUEST SENSE never report one.
      if (passes_unit_attention(c.cdb[0])) return false;
      attentions_.take(port_of(c.nexus));
      return answer(Status::kCheckCondition, Sense{r, std::nullopt, std::nullopt});
    }
    case FaultAction::kFailedTip:
      if (rule.spare) return false;  // served, at a cost (add_spare_access)
      break;
    case FaultAction::kMediumError:
    case FaultAction::kMediaRegion:
      break;
  }
  // A medium error: nothing is read or written, and the error is reported
  // when the model has accessed the blocks up to the bad one (a device
  // finds a bad block by reading it).
  result.status = Status::kCheckCondition;
  result.sense = build_sense(
      Sense{writing ? Reason::kWriteError : Reason::kReadError, std::nullopt, f.bad_lba},
      descriptor_sense());
  if (!range || !f.bad_lba) {
    sink(std::move(result));
    return true;
  }
  Outcome timed = media_outcome(writing ? model::Op::kWrite : model::Op::kRead, range->lba,
                                *f.bad_lba - range->lba + 1);
  queue_media(std::move(result), timed, c, 0, sink);
  return true;
}

}  // namespace memstore::scsi
