// SPDX-License-Identifier: Apache-2.0
// A LUN as seen from the sessions of one io_context (one event-loop
// thread). memstored runs N event loops (docs/design.md, "Threads"): each
// LUN's TimedLun and model live on one of them, and each connection on one
// of them. A session calls its LoopBridge; when the LUN lives on the
// session's own loop the call goes straight to the TimedLun, otherwise the
// command is posted to the LUN's loop (an OwnedCommand: the session's
// data-out buffer goes with it, uncopied) and its result posted back.
//
// A nexus the session forgot (its connection ended) gets no more results:
// each result posted back checks, on the session's loop, that its nexus is
// still alive before calling the session. So no lock is taken: everything a
// bridge holds is touched on the session's loop only.
#pragma once

#include <boost/asio/io_context.hpp>
#include <cstdint>
#include <memory>
#include <unordered_map>

#include "target/driver/command_port.h"

namespace memstore::driver {

class TimedLun;

class LoopBridge final : public CommandPort {
 public:
  // `home`: the loop of the sessions using this bridge.
  LoopBridge(boost::asio::io_context& home, TimedLun& timed);

  void submit(scsi::ScsiCommand command, Done done) override;
  void forget(std::uint64_t nexus) override;
  void describe_nexus(std::uint64_t nexus, std::string initiator_port) override;
  void reset() override;
  void recycle(scsi::Bytes buffer) override;
  std::uint32_t block_size() const override { return block_size_; }
  bool may_withhold_r2t() const override;
  void screen_r2t(std::uint64_t nexus, std::span<const std::uint8_t> cdb,
                  R2tAnswer answer) override;

  const void* loop() const override;
  bool local() const { return local_; }
  // The LUN was removed (iscsi::Server::remove_lun): from now on the bridge
  // answers every command itself, at once, as for a LUN that does not exist
  // (scsi::absent_lun: LOGICAL UNIT NOT SUPPORTED), and never reaches the
  // TimedLun again, which may be gone. Results already on their way back
  // still arrive. Call on the home loop.
  void retire() { retired_ = true; }

 private:
  boost::asio::io_context& home_;
  TimedLun& timed_;
  bool local_;
  bool retired_ = false;
  std::uint32_t block_size_;  // read once: it never changes
  // Per nexus with results on the way: false once forgotten.
  std::unordered_map<std::uint64_t, std::shared_ptr<bool>> alive_;
};

}  // namespace memstore::driver
