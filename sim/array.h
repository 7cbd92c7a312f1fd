// SPDX-License-Identifier: Apache-2.0
// The disk-array configurations of Uysal, Merchant and Alvarez, "Using MEMS-based storage
// in disk arrays" (FAST 2003), run on memsim's device models (issue 19). Every device of an
// array runs concurrently with its own queue, and a request completes when its last part
// does. The array holds one logical volume of `volume_blocks`.
//
//   kDiskOnly     the conventional array: the volume striped over the disks (RAID-0).
//   kMemsOnly     the disks replaced by MEMStores: the volume striped over the MEMStores.
//   kMirror       the MEMS/disk mirror: the disks hold the volume and the MEMStores a full
//                 replica; every read goes to the MEMStore side, every write to both, and
//                 the write completes when both copies are written.
//   kMemsCache    the MEMStores as a write-back cache of `line_blocks` lines in front of the
//                 disks (sim/array_cache.h): a read whose lines are all cached is served by
//                 the MEMStores; a miss reads its whole lines from the disks and then fills
//                 them into the cache in the background, unless its MEMStores have requests
//                 waiting (a busy cache admits nothing new, so that a scan cannot swamp it);
//                 writes go to the cache; an evicted dirty line is written to the disks in
//                 the background.
//   kMemsLog      a log on the MEMStore in front of the disks: the write buffer's log of
//                 sim/write_buffer.h, with the disks striped behind it and a cleaner of the
//                 array's own, which writes one live run at a time whenever the disks are
//                 idle while the log goes on taking writes (`memsim wbuffer`'s cleaner, the
//                 write-buffer paper's, blocks the log instead: sim/wbuffer_driver.h).
//   kMixedStripe  one stripe over the MEMStores and the disks together while the MEMStores
//                 have room, the rest over the disks alone (sim/array_layout.h).
//
// The caller passes the MEMStores and the disks the configuration is built of; kDiskOnly
// ignores the MEMStores, kMemsOnly the disks, and kMemsLog uses only the first MEMStore.
// How many of each the comparison uses (equal capacity) is cmd_array's choice.
#pragma once

#include <cstdint>
#include <string>
#include <vector>

#include "base/expected.h"
#include "model/device.h"
#include "sim/response_totals.h"
#include "sim/simulate.h"
#include "sim/write_buffer.h"

namespace memstore::sim {

enum class ArrayKind : std::uint8_t {
  kDiskOnly,
  kMemsOnly,
  kMirror,
  kMemsCache,
  kMemsLog,
  kMixedStripe,
};

// "disk", "mems", "mirror", "cache", "log", "stripe": the names the CLI and its output use.
std::string array_kind_name(ArrayKind k);
std::vector<ArrayKind> all_array_kinds();

struct ArrayParams {
  std::int64_t volume_blocks = 0;    // the logical volume; requests must lie within it
  std::int32_t stripe_blocks = 128;  // 64 KB stripe units (memsim's choice)
  std::int32_t line_blocks = 16;     // 8 KB cache lines (memsim's choice)
  WriteBufferParams log;             // the log on the first MEMStore (kMemsLog)
  // kMemsCache: requests that only warm the cache before the run (no device time): reads
  // cache their lines clean, writes dirty. A short run on a cold cache measures the cache
  // filling, not the steady state a long trace reaches; empty = start cold.
  RequestSource warmup;
};

// What happened; the part counts are foreground parts (the host's requests), the rest is
// background work of the cache or the log.
struct ArrayStats : ResponseTotals {
  std::int64_t mems_read_parts = 0, mems_write_parts = 0;
  std::int64_t disk_read_parts = 0, disk_write_parts = 0;
  std::int64_t reads_served_by_mems = 0;  // reads whose every part was on a MEMStore
  std::int64_t cache_hits = 0, cache_misses = 0, cache_fills = 0, cache_fills_skipped = 0;
  std::int64_t cache_destages = 0;
  std::int64_t log_read_hits = 0, log_bypassed_writes = 0, log_segments_cleaned = 0;
  model::Ns last_done_ns = 0;
};

// Runs every request of `next` (arrivals non-decreasing, within the volume) on the array.
// REQUIRES, by kind: the disks' capacity holds the volume (every kind but kMemsOnly); the
// MEMStores' capacity holds it (kMemsOnly, kMirror); at least one MEMStore (all but
// kDiskOnly) and one disk (all but kMemsOnly); the log fits on the first MEMStore (kMemsLog).
// Devices must be fresh (nothing submitted yet). Fails, saying what is missing, otherwise.
Expected<ArrayStats> run_array(ArrayKind kind, const ArrayParams& params,
                               const std::vector<model::Device*>& mems,
                               const std::vector<model::Device*>& disks, const RequestSource& next);

}  // namespace memstore::sim
