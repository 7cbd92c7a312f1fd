// SPDX-License-Identifier: Apache-2.0
// The MEMS write buffer driver of Wang and Brandt, "Using MEMS Device as Disk Write Buffer"
// (§3 and its Fig. 2): a disk and a MEMStore run concurrently, each with its own queue, and
// the driver between them keeps the log of sim/write_buffer.h on the MEMStore.
//
// From the paper:
//   * every write is appended to the current log on the MEMStore;
//   * a read is looked up by 8 KB block and fragment; it is served from the log, from the
//     disk, or partly from each, and completes when its last piece does;
//   * when a write comes and the cache usage is beyond the high water mark, that write is
//     suspended and cleaning runs until usage is back at the low water mark; meanwhile the
//     cache serves no request ("the request will be blocked until the disk writes is
//     finished and the data structure is updated");
//   * a cleaning pass reads the oldest segments into the clean buffer in one sequential
//     read from the MEMStore, combines their valid blocks into requests as large as
//     possible, writes those to the disk, and once they are written frees the segments;
//   * prefetching is off (the MEMStore model never prefetches), and the log buffer is not
//     used (the paper: "we didn't make benefit from the log buffer").
//
// memsim's choices where the paper leaves them open:
//   * while cleaning, a read that touches nothing in the log and no waiting write goes on to
//     the disk (it needs nothing the cleaner holds); every other request waits, and the
//     waiting ones are served in arrival order once cleaning ends;
//   * the paper's "we clear one segment at one time" and "several segments will be read
//     into clean buffer" are reconciled by a clean buffer of `clean_segments` segments: a
//     pass takes the oldest ones, as many as fit and are needed to reach the low mark;
//   * the cleaner's combined disk writes are all queued at once, in ascending disk order;
//   * a write that cannot fit in the free slots starts cleaning too (when usage is above the
//     low mark), and one that still cannot fit goes to the disk.
#pragma once

#include <cstdint>

#include "model/device.h"
#include "sim/response_totals.h"
#include "sim/simulate.h"
#include "sim/write_buffer.h"

namespace memstore::sim {

struct WbufferStats : ResponseTotals {
  // Requests reaching each device (the paper's Fig. 6): the host's, the segment heads, the
  // clean buffer's reads and its combined writes.
  std::int64_t mems_requests = 0, disk_requests = 0;
  std::int64_t read_hits = 0;          // reads served wholly from the log
  std::int64_t partial_read_hits = 0;  // reads served partly from the log, partly the disk
  std::int64_t bypassed_writes = 0;    // writes that could not fit and went to the disk
  std::int64_t clean_passes = 0, segments_cleaned = 0, cleaner_disk_writes = 0;
  std::int64_t waited = 0;  // host requests that waited for cleaning
  model::Ns last_done_ns = 0;
};

// Runs every request of `next` (arrivals non-decreasing, within the disk) on the disk behind
// the write buffer. REQUIRES: fresh devices; the log (params.segments segments of 128 KB)
// fits on the MEMStore.
WbufferStats run_write_buffer(model::Device& mems, model::Device& disk,
                              const WriteBufferParams& params, const RequestSource& next);

}  // namespace memstore::sim
