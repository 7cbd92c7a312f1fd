// SPDX-License-Identifier: Apache-2.0
// Fault rules: a failure a tester declares, on purpose, for the commands
// that match it (docs/faults.md). A rule is plain data: which commands it
// matches, how often it fires, and what it does to a command when it fires.
// FaultSet (fault_set.h) keeps the rules of one LUN and decides, command by
// command, which one fires; the Lun applies the action (lun_fault.cc).
#pragma once

#include <cstdint>
#include <optional>
#include <span>
#include <string>
#include <string_view>

#include "target/scsi/power_cut.h"
#include "target/scsi/sense.h"

namespace memstore::scsi {

// Which commands a rule looks at.
enum class FaultOp : std::uint8_t {
  kAny,     // every command
  kRead,    // commands that read the medium at an LBA (fault_range.h)
  kWrite,   // commands that write the medium at an LBA
  kOpcode,  // one operation code
};

enum class FaultAction : std::uint8_t {
  kMediumError,          // MEDIUM ERROR (read 11/00, write 0C/00), INFORMATION = first bad LBA
  kSense,                // CHECK CONDITION with the rule's key/ASC/ASCQ
  kDelay,                // completes delay_ns later than the model says
  kTimeout,              // never answered: the initiator times out and aborts
  kBusy,                 // BUSY status
  kTaskSetFull,          // TASK SET FULL status
  kReservationConflict,  // RESERVATION CONFLICT status
  kUnitAttention,        // a unit attention for every initiator port
  kSpaceExhausted,       // DATA PROTECT, SPACE ALLOCATION FAILED WRITE PROTECT (SBC-3 §4.7.3.6)
  kFailedTip,            // the LBNs the probe tip `tip` stores fail as medium errors
  kMediaRegion,          // the LBNs in a rectangle of the media fail as medium errors
  kDropConnection,       // the transport closes the command's connection instead of answering
  kCorruptDigest,        // the transport sends the response with a wrong digest
  kSlowSeek,             // positioning into a region of the sled's travel is slower
  kWithholdR2t,          // the transport never asks for a write's data (no R2T)
  kPowerCut,             // the LUN loses power before the command (docs/crash-consistency.md)
};

// Actions defined on a MEMStore's probe tips, media or sled, which a disk
// has not got.
constexpr bool needs_mems_geometry(FaultAction a) {
  return a == FaultAction::kFailedTip || a == FaultAction::kMediaRegion ||
         a == FaultAction::kSlowSeek;
}
// Actions that are a standing condition of the device rather than an event
// of a command: they take no match keys and never fire on a command.
constexpr bool is_standing(FaultAction a) {
  return a == FaultAction::kSlowSeek;
}
// Actions the iSCSI transport asks about before its first R2T for a write,
// before the LUN sees the command (Lun::screen_r2t); no other stage sees them.
constexpr bool is_before_r2t(FaultAction a) {
  return a == FaultAction::kWithholdR2t;
}

// The configuration's name of each action ("medium-error", ...), and back.
std::string_view fault_action_name(FaultAction a);
std::optional<FaultAction> parse_fault_action(std::string_view name);
// Every action name, for messages that list them.
std::span<const std::string_view> fault_action_names();

// Unit attentions a rule may raise.
enum class FaultAttention : std::uint8_t { kPowerOn, kCapacityChanged, kModeChanged };
std::optional<FaultAttention> parse_fault_attention(std::string_view name);
std::string_view fault_attention_name(FaultAttention a);
Reason attention_reason(FaultAttention a);

struct FaultRule {
  // Match.
  FaultOp op = FaultOp::kAny;
  std::uint8_t opcode = 0;  // kOpcode
  // First and last LBA, inclusive: the command's blocks must overlap them.
  // Unset: any LBA, and commands without one (kAny, kOpcode) too.
  std::optional<std::pair<std::uint64_t, std::uint64_t>> lba;
  std::string initiator;       // iSCSI initiator name; empty: any initiator
  std::uint64_t every = 1;     // fires on every n-th matching command
  double probability = 1.0;    // then with this probability (seeded)
  bool once = false;           // then at most once
  std::uint64_t after_ns = 0;  // only for commands arriving after this model time

  // Action.
  FaultAction action = FaultAction::kMediumError;
  SenseCode sense{SenseKey::kMediumError, 0x11, 0x00};  // kSense
  std::uint64_t delay_ns = 0;                           // kDelay
  // kTimeout: an ABORT TASK for the withheld command is answered FUNCTION
  // REJECTED, so the initiator escalates (Linux: to a LUN reset).
  bool reject_abort = false;
  FaultAttention attention = FaultAttention::kPowerOn;  // kUnitAttention
  std::int32_t tip = 0;                                 // kFailedTip: a virtual tip, 0..N-1
  // kFailedTip: the tip's blocks are served from a spare tip instead of
  // failing; the spare cannot join the other tips' parallel access, so the
  // blocks cost one extra media access (docs/faults.md).
  bool spare = false;
  // kMediaRegion: the rectangle in media coordinates of one sled, bit
  // columns x (square column * Sx + x) and rows y (square row * Sy + y),
  // first and last inclusive (model/geometry.h).
  std::int32_t sled = 0;
  std::pair<std::int32_t, std::int32_t> x{0, 0};
  std::pair<std::int32_t, std::int32_t> y{0, 0};
  // kSlowSeek: positioning that ends in cylinders x and rows y of every
  // square of sled `sled` (sled coordinates, model::SlowRegion) takes
  // `factor` times as long.
  double factor = 1;
  // kPowerCut: what the volatile write cache keeps, drawn from cut_seed;
  // then the LUN answers nothing for off_ns of model time (its target's
  // sessions end, and logins to it are refused meanwhile).
  CutPolicy cut_policy = CutPolicy::kDropAll;
  std::uint64_t cut_seed = 1;
  std::uint64_t off_ns = 0;
  friend bool operator==(const FaultRule&, const FaultRule&) = default;
};

}  // namespace memstore::scsi
