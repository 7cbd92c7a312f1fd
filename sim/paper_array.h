// SPDX-License-Identifier: Apache-2.0
// The array architectures of Uysal, Merchant and Alvarez, "Using MEMS-based storage in disk
// arrays" (FAST '03, §3), as the paper describes them, each behind the array's mirrored
// NVRAM write cache (sim/nvram_cache.h) but MEMScache, whose MEMS cache replaces it:
//
//   kDiskOnly    RAID 1/0 on disks (§3.2's conventional LU; §4's baseline).
//   kMemsDisk    every disk replaced by a bank of MEMS chips, RAID 1/0 as well (§3.1).
//   kMemsMirror  hybrid mirrored pairs, one disk and one MEMS bank; reads of data not in the
//                cache go to the MEMS copy, the disk copy only takes writes (§3.2).
//   kLogDisk     MEMS RAID 0 plus log-structured disk replicas (§3.3, sim/extent_log.h):
//                reads from MEMS; a destage writes MEMS in place and appends to a disk's
//                current extent; the cleaner moves one extent's live blocks, read from
//                MEMS, whenever that disk has no destage to do.
//   kDualStripe  MEMS RAID 0 with a small stripe unit and disk RAID 0 with a large one, each
//                a full copy (§3.4): reads from MEMS unless the MEMS queue is over a
//                threshold, and a detected sequential run (sim/sequential_detector.h) read
//                from disk with a large block prefetched into the cache.
//   kMemsCache   a MEMS RAID 5 cache organised as a log of cache lines (§3.5,
//                sim/mems_cache_log.h) over a RAID 1/0 disk back-end: reads that miss are
//                read from disk and appended to the cache; writes complete on the MEMS
//                cache; flushing between the water marks in ascending disk order.
//
// Isocost-X is kDiskOnly with more disks and LogDisk+K kLogDisk with K more disks: the
// caller passes the devices (sim/paper_setup.h builds the paper's sets).
//
// memsim's choices where the paper is silent are named at each field below and in
// docs/disk-models.md, "The paper's arrays".
#pragma once

#include <cstdint>
#include <string>
#include <vector>

#include "base/expected.h"
#include "model/device.h"
#include "sim/extent_log.h"
#include "sim/mems_cache_log.h"
#include "sim/nvram_cache.h"
#include "sim/response_totals.h"
#include "sim/sequential_detector.h"
#include "sim/simulate.h"

namespace memstore::sim {

enum class PaperArch : std::uint8_t {
  kDiskOnly,
  kMemsDisk,
  kMemsMirror,
  kLogDisk,
  kDualStripe,
  kMemsCache,
};

// "diskonly", "memsdisk", "memsmirror", "logdisk", "dualstripe", "memscache".
std::string paper_arch_name(PaperArch a);
std::vector<PaperArch> all_paper_archs();

struct PaperArrayParams {
  PaperArch arch = PaperArch::kDiskOnly;
  std::int64_t volume_blocks = 0;  // the LU; requests must lie within it
  // Stripe units. RAID 1/0 sides and MEMSmirror's copies use `stripe_blocks` (64 KB);
  // DualStripe's MEMS copy `small_stripe_blocks` (8 KB) and its disk copy
  // `large_stripe_blocks` (1 MB): "small" and "large" are the paper's words (§3.4).
  std::int32_t stripe_blocks = 128;
  std::int32_t small_stripe_blocks = 16;
  std::int32_t large_stripe_blocks = 2048;
  NvramParams nvram;  // every architecture but MEMScache
  // Destaging (§3, §3.4): one destage per idle device group at a time; above the high-water
  // mark up to `forced_destages` in flight whether the devices are idle or not.
  std::int32_t forced_destages = 16;
  // LogDisk: one destage takes up to this many runs of dirty lines, written to MEMS in place
  // and appended to the disk together, so that the log is written in large sequential
  // requests (§3.3: "Disks are therefore mostly used in sequential mode").
  std::int32_t log_destage_runs = 16;
  // DualStripe (§3.4): a read goes to disk when its MEMS devices have more than this many
  // requests waiting; a sequential read reads `prefetch_blocks` from disk (256 KB).
  std::int32_t mems_queue_threshold = 4;
  std::int32_t prefetch_blocks = 512;
  SequentialityParams sequentiality;
  // LogDisk (§3.3): extent size and the log's unit; volume_units and disks are derived.
  std::int32_t extent_units = 256;
  // LogDisk+K: disks beyond one per MEMS bank; appends then go to the disk with the fewest
  // requests waiting (memsim's choice), not to the bank's own mirror.
  std::int32_t mems_banks = 1;  // LogDisk: the MEMS devices M_1..M_n, each a bank of chips
  // MEMScache (§3.5): the cache's line slots (RAID 5 data capacity / line) and water marks.
  MemsCacheLogParams mems_cache;
  // The cache starts this full of dirty lines at uniform addresses (seeded by warm_seed):
  // 0 = empty; the maximum-throughput runs start at the high-water mark (sim/paper_setup.h).
  double warm_dirty_fraction = 0;
  std::uint64_t warm_seed = 7;
  // Back-end buses (§4.1): four of 1 GB/s; device i is on bus i mod buses. A part's
  // completion waits for its transfer on the bus after the device is done.
  std::int32_t buses = 4;
  double bus_bytes_per_s = 1e9;
};

struct PaperArrayStats : ResponseTotals {
  std::int64_t read_hits = 0;                   // reads served by the NVRAM (or MEMS) cache
  std::int64_t mems_reads = 0, disk_reads = 0;  // foreground read parts by device kind
  std::int64_t sequential_reads = 0;      // DualStripe: reads detected as sequential, hit or not
  std::int64_t queue_diverted_reads = 0;  // DualStripe: reads sent to disk by the threshold
  std::int64_t destages = 0, forced_destages = 0;
  std::int64_t writes_waited = 0;  // writes that found the cache full of dirty data
  std::int64_t extents_cleaned = 0, units_cleaned = 0;  // LogDisk
  std::int64_t log_appends_refused = 0;  // LogDisk: units no disk had room for (0 expected)
  std::int64_t flushes = 0;              // MEMScache
  model::Ns first_arrival_ns = -1;
  model::Ns last_done_ns = 0;
  // Completed requests per second over the run (first arrival to last completion).
  double throughput_iops() const;
};

// Runs `next` (arrivals non-decreasing) on the architecture built of `mems` (the MEMS chips)
// and `disks`. REQUIRES, by architecture (it fails, saying which is missing, otherwise):
//   kDiskOnly    disks: an even number >= 2; kMemsDisk: mems an even number >= 2;
//   kMemsMirror, kDualStripe, kLogDisk: mems and disks; kMemsCache: >= 3 mems and an even
//   number of disks; every copy large enough for the volume.
Expected<PaperArrayStats> run_paper_array(const PaperArrayParams& params,
                                          const std::vector<model::Device*>& mems,
                                          const std::vector<model::Device*>& disks,
                                          const RequestSource& next);

}  // namespace memstore::sim
