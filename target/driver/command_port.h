// SPDX-License-Identifier: Apache-2.0
// What a transport needs from a LUN: submit a command now and be called back
// when its result is due, and tell the LUN about its nexuses. TimedLun
// implements it on Asio timers, LoopBridge carries it to the LUN's event
// loop; tests implement it synchronously.
#pragma once

#include <cstdint>
#include <functional>
#include <span>
#include <string>

#include "target/scsi/lun.h"

namespace memstore::driver {

class CommandPort {
 public:
  using Done = std::function<void(scsi::ScsiResult)>;
  virtual ~CommandPort() = default;
  // The command arrives now; `done` runs, on the caller's thread, when its
  // result is due. The command's spans (its CDB, its data-out) are the
  // caller's only until this returns; its `data_out_owner`, when set, may be
  // taken, leaving another buffer (possibly an empty one) in its place.
  // Its `arrival_ns` is the port's to set.
  virtual void submit(scsi::ScsiCommand command, Done done) = 0;
  // The I_T nexus is gone (logout, connection loss): drop its pending
  // callbacks; the LUN releases what SAM-5 ties to the nexus.
  virtual void forget(std::uint64_t nexus) = 0;
  // Names the nexus's initiator port ("<InitiatorName>,i,0x<ISID>", SPC-4
  // §7.6.4.6) before its first command, for persistent reservations.
  virtual void describe_nexus(std::uint64_t /*nexus*/, std::string /*initiator_port*/) {}
  // LOGICAL UNIT RESET, or a target reset reaching this LUN (SAM-5 §6.6).
  virtual void reset() {}
  // The LUN's logical block size: with the CDB, it tells how much data-out
  // a command needs (scsi::data_out_length), before the data arrives.
  virtual std::uint32_t block_size() const = 0;
  // The transport is done with a result's data-in buffer (for reuse).
  virtual void recycle(scsi::Bytes /*buffer*/) {}

  // Before the first R2T of a write that needs one (RFC 7143 §11.8): may a
  // withhold-r2t fault rule fire (docs/faults.md)? Cheap, from any thread.
  virtual bool may_withhold_r2t() const { return false; }
  // Whether the rule fires for this command: `answer(true)` and the session
  // sends no R2T for it, so the initiator times out and aborts the task.
  // `answer` runs on the session's loop, possibly before this returns, and
  // not at all once the nexus is forgotten.
  using R2tAnswer = std::function<void(bool withhold)>;
  virtual void screen_r2t(std::uint64_t /*nexus*/, std::span<const std::uint8_t> /*cdb*/,
                          R2tAnswer answer) {
    answer(false);
  }
  // The event loop the LUN's commands run on, where a session's calls go
  // straight to it (docs/design.md, "Threads"); nullptr when not known or
  // when the LUN is gone. Compared, never run: it may be another thread's.
  virtual const void* loop() const { return nullptr; }
};

}  // namespace memstore::driver
