// SPDX-License-Identifier: Apache-2.0
// One delivered completion, for memstored's --completion-log: what the model
// predicted and when the result was really handed to the transport. Times
// are ns on the LUN's model clock (arrival, modeled completion) and on the
// wall clock since the engine's epoch (due, delivered).
#pragma once

#include <cstdint>

#include "target/scsi/lun.h"

namespace memstore::delivery {

struct Delivery {
  std::uint64_t nexus = 0;
  std::uint64_t tag = 0;
  scsi::Ns arrival_ns = 0;
  scsi::Ns complete_ns = 0;
  std::int64_t due_ns = 0;
  std::int64_t delivered_ns = 0;
};

}  // namespace memstore::delivery
