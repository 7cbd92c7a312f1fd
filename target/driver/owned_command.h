// SPDX-License-Identifier: Apache-2.0
// A command that owns what its spans point at, so that it can be handed to
// another thread after its submitter has returned (LoopBridge posts one to
// the LUN's loop). scsi::ScsiCommand's spans are the submitter's only for
// the call; this keeps a copy of the CDB (at most a few hundred bytes) and
// takes the data-out buffer from its owner (ScsiCommand::data_out_owner), so
// that a write's data is never copied on its way: the submitter keeps an
// empty buffer in its place, as it keeps whatever buffer a Lun leaves it.
// Data-out without an owner, or not at the start of its owner's buffer, is
// copied.
#pragma once

#include <cstddef>
#include <cstdint>
#include <span>
#include <utility>
#include <vector>

#include "target/scsi/lun.h"

namespace memstore::driver {

class OwnedCommand {
 public:
  explicit OwnedCommand(const scsi::ScsiCommand& command)
      : command_(command),
        cdb_(command.cdb.begin(), command.cdb.end()),
        data_out_size_(command.data_out.size()) {
    scsi::Bytes* owner = command.data_out_owner;
    if (owner != nullptr && !command.data_out.empty() && command.data_out.data() == owner->data()) {
      data_ = std::move(*owner);  // the same heap block: data_out still points into it
    } else {
      data_.assign(command.data_out.begin(), command.data_out.end());
    }
    command_.cdb = {};
    command_.data_out = {};
    command_.data_out_owner = nullptr;
  }

  // The command, its spans on what this owns, and the data-out buffer
  // offered on (the Lun may keep it). Valid while this stays where it is.
  scsi::ScsiCommand command() {
    scsi::ScsiCommand c = command_;
    c.cdb = cdb_;
    c.data_out = std::span<const std::uint8_t>(data_).first(data_out_size_);
    c.data_out_owner = &data_;
    return c;
  }

 private:
  scsi::ScsiCommand command_;  // all but the spans and the owner
  std::vector<std::uint8_t> cdb_;
  scsi::Bytes data_;
  std::size_t data_out_size_;
};

}  // namespace memstore::driver
