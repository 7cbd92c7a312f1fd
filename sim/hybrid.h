// SPDX-License-Identifier: Apache-2.0
// Two devices working as one store: a disk behind the MEMS write buffer of Wang and Brandt
// (sim/wbuffer_driver.h), or either device alone for comparison, as the paper compares
// them (its Figs. 5 and 7: the Atlas 10K alone and a G2 MEMStore that replaces the disk).
// The devices alone run on the one-device arrays of sim/array.h.
#pragma once

#include <cstdint>

#include "model/device.h"
#include "sim/response_totals.h"
#include "sim/simulate.h"
#include "sim/wbuffer_driver.h"
#include "sim/write_buffer.h"

namespace memstore::sim {

enum class HybridMode : std::uint8_t {
  kDiskAlone,      // every request on the disk
  kMemsAlone,      // every request on the MEMStore, LBNs folded into its capacity
  kWriteBuffered,  // the disk behind the MEMS write buffer
};

// The write buffer's statistics; for a device alone, only the response times and the
// requests reaching that device.
using HybridStats = WbufferStats;

// Runs every request of `next` (arrivals non-decreasing, LBNs within the disk) in `mode`.
// `mems` may be null for kDiskAlone and `disk` for kMemsAlone. REQUIRES with the buffer:
// the log (params.segments segments of 128 KB) fits on the MEMStore.
HybridStats run_hybrid(HybridMode mode, model::Device* mems, model::Device* disk,
                       const WriteBufferParams& params, const RequestSource& next);

}  // namespace memstore::sim
