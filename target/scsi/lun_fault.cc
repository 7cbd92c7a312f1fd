// Fault injection: what a fired rule does to a command (fault_rule.h,
// docs/faults.md).
#include "target/scsi/lun.h"

namespace memstore::scsi {

std::optional<FiredFault> Lun::check_fault(const CommandContext& c) {
  FaultQuery q;
  q.cdb = c.cdb;
  q.range = block_range(c.cdb, store_->blocks());
  // The iSCSI initiator port is "<initiator name>,i,0x<ISID>" (describe_nexus).
  const std::string& port = port_of(c.nexus).name;
  q.initiator = std::string_view(port).substr(0, port.find(",i,"));
  q.arrival_ns = static_cast<std::uint64_t>(c.arrival_ns);
  return faults_.check(q, geometry_);
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
      return false;
    case FaultAction::kDropConnection:
      result.drop_connection = true;
      return false;
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
    case FaultAction::kMediumError:
    case FaultAction::kFailedTip:
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
