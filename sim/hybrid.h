// Two devices working as one store (issue 19): a disk behind the MEMS write buffer of
// sim/write_buffer.h, or either device alone for comparison. Both devices run concurrently,
// each with its own queue; a request completes when its last part does. The runner is the
// disk-array one of sim/array.h, with one disk (kMemsLog is this write buffer).
//
// Routing, with the buffer: a write goes to the MEMS log (its slots, and the head of any
// segment it opens); a read whose blocks are all in the log is served from the MEMStore, any
// other read from the disk. The cleaner, whenever the used segments pass the high water mark,
// reads the oldest segment from the MEMStore, then writes its live blocks to the disk, then
// frees it, one segment at a time, until the low water mark. It writes to the disk in the
// background: one run of blocks at a time, and only when the disk is idle (nothing queued,
// nothing in service, no write-back in flight). Its MEMStore reads queue with the foreground
// requests (FCFS).
#pragma once

#include <cstdint>

#include "model/device.h"
#include "sim/response_totals.h"
#include "sim/simulate.h"
#include "sim/write_buffer.h"

namespace memstore::sim {

enum class HybridMode : std::uint8_t {
  kDiskAlone,      // every request on the disk
  kMemsAlone,      // every request on the MEMStore, LBNs folded into its capacity
  kWriteBuffered,  // the disk behind the MEMS write buffer
};

struct HybridStats : ResponseTotals {
  std::int64_t buffer_read_hits = 0;  // reads served from the log
  std::int64_t bypassed_writes = 0;   // writes that found the log full
  std::int64_t segments_cleaned = 0;
  model::Ns last_done_ns = 0;
};

// Runs every request of `next` (arrivals non-decreasing, LBNs within the disk) in `mode`.
// `mems` may be null for kDiskAlone and `disk` for kMemsAlone. REQUIRES with the buffer:
// the log (params.segments x params.segment_blocks) fits on the MEMStore.
HybridStats run_hybrid(HybridMode mode, model::Device* mems, model::Device* disk,
                       const WriteBufferParams& params, const RequestSource& next);

}  // namespace memstore::sim
