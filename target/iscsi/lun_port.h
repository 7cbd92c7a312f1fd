// What an iSCSI session needs from a LUN: submit a command now and be called
// back when its result is due (LunDriver implements it on Asio timers; tests
// can implement it synchronously).
#pragma once

#include <cstdint>
#include <functional>
#include <span>
#include <string>

#include "target/scsi/lun.h"

namespace memstore::iscsi {

class LunPort {
 public:
  using Done = std::function<void(scsi::ScsiResult)>;
  virtual ~LunPort() = default;
  virtual void submit(std::uint64_t nexus, std::uint64_t tag, std::span<const std::uint8_t> cdb,
                      std::span<const std::uint8_t> data_out, Done done) = 0;
  // The I_T nexus is gone (logout, connection loss): drop its pending
  // callbacks; the LUN releases what SAM-5 ties to the nexus.
  virtual void forget(std::uint64_t nexus) = 0;
  // Names the nexus's initiator port ("<InitiatorName>,i,0x<ISID>", SPC-4
  // §7.6.4.6) before its first command, for persistent reservations.
  virtual void describe_nexus(std::uint64_t /*nexus*/, std::string /*initiator_port*/) {}
  // LOGICAL UNIT RESET, or a target reset reaching this LUN (SAM-5 §6.6).
  virtual void reset() {}
  // The transport is done with a result's data-in buffer (for reuse).
  virtual void recycle(scsi::Bytes /*buffer*/) {}
};

}  // namespace memstore::iscsi
