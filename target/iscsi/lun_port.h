// What an iSCSI session needs from a LUN: submit a command now and be called
// back when its result is due (LunDriver implements it on Asio timers; tests
// can implement it synchronously).
#pragma once

#include <cstdint>
#include <functional>
#include <span>

#include "target/scsi/lun.h"

namespace memstore::iscsi {

class LunPort {
 public:
  using Done = std::function<void(scsi::ScsiResult)>;
  virtual ~LunPort() = default;
  virtual void submit(std::uint64_t nexus, std::uint64_t tag, std::span<const std::uint8_t> cdb,
                      std::span<const std::uint8_t> data_out, Done done) = 0;
  virtual void forget(std::uint64_t nexus) = 0;
  // The transport is done with a result's data-in buffer (for reuse).
  virtual void recycle(scsi::Bytes /*buffer*/) {}
};

}  // namespace memstore::iscsi
