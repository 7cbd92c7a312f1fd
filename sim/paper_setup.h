// SPDX-License-Identifier: Apache-2.0
// The study's configurations and methods (Uysal, Merchant and Alvarez, FAST '03, §4) on
// memsim's devices: which devices each architecture of Figure 5 is built of, the LogDisk+K
// variants of Figure 6, the synthetic workload of §4.2, the maximum throughput at an offered
// load of 1,000,000 IO/s and the normal-usage latency at half of it (§4.3.1), and the cost
// of each configuration (§4.3.4).
//
// Scale (memsim's choice, docs/disk-models.md "The paper's arrays"): the paper's 2 TB of raw
// disk (56 disks of 36 GB) and 840 MEMS chips are more devices than a run here can afford in
// `scripts/reproduce all`'s ten minutes, so every capacity is scaled by one factor: the
// DiskOnly array is 8 `disk20k` drives (161 GB raw), and the 2 GB NVRAM and 100 GB MEMScache
// shrink by 161/2000 with it. A MEMS bank is 7 `uysal03` chips (17.92 GB), the most below a
// disk20k's 20.16 GB, so that LogDisk's disks are "of greater capacity" (§3.3); the LU is 4
// banks (71.68 GB, whole 1 MB stripe units of each chip) in every architecture
// (iso-capacity, §4).
#pragma once

#include <cstdint>
#include <memory>
#include <string>
#include <vector>

#include "model/device.h"
#include "sim/array_cost.h"
#include "sim/paper_array.h"

namespace memstore::sim {

struct PaperSetup {
  std::int32_t chips_per_bank = 7;
  std::int32_t banks = 4;                 // the LU: DiskOnly has 2 x banks disks in RAID 1/0
  double paper_raw_disk_bytes = 2e12;     // §4.3: 2 TB of raw disk
  double paper_nvram_bytes = 2e9;         // §3: 2 GB
  double paper_mems_cache_bytes = 100e9;  // §4.3: 100 GB of MEMScache
  std::string scheduler = "fcfs";         // every device's queue (memsim's choice)
};

// One configuration: an architecture and the devices it is built of.
struct PaperConfig {
  std::string name;  // "DiskOnly", "Isocost-3", "LogDisk+2", ...
  PaperArrayParams params;
  std::int32_t chips = 0;
  std::int32_t disks = 0;
  ArrayBill bill;  // its disk, NVRAM and MEMS bytes (§4.3.4)
};

std::int64_t paper_chip_blocks();  // uysal03
std::int64_t paper_disk_blocks();  // disk20k
// Raw disk of the scaled DiskOnly over the paper's 2 TB: what NVRAM and MEMScache scale by.
double paper_scale(const PaperSetup& s);

// Figure 5's configurations: DiskOnly, Isocost-1/3/5/10, MEMSdisk, MEMSmirror, LogDisk,
// DualStripe, MEMScache.
std::vector<PaperConfig> figure5_configs(const PaperSetup& s);
// Figure 6's LogDisk+K (§4.3.2): 2 banks of chips and 2 + K disks; K = 0 is LogDisk.
PaperConfig logdisk_k(const PaperSetup& s, std::int32_t k);

// §4.2's synthetic workload: uniform starts over the LU, exponential inter-arrival times
// at `iops`, sizes exponential with mean `size_kb` (or all of it, `fixed_size`, as memsim
// reads Figure 6's "small (4KB) IOs and large (64KB) IOs").
struct PaperWorkload {
  std::int64_t requests = 0;
  double iops = 1e6;
  double size_kb = 4;
  bool fixed_size = false;
  double read_fraction = 0.67;
  std::uint64_t seed = 1;
};
RequestSource paper_requests(const PaperWorkload& w, std::int64_t volume_blocks);

// Runs the configuration on fresh devices with the given requests (a trace, §4.3.3: each
// request at its own time, whether earlier ones completed or not), or why it could not.
Expected<PaperArrayStats> run_paper_config_on(const PaperSetup& s, const PaperConfig& c,
                                              const RequestSource& next);
// Runs the configuration on fresh devices, or says why it could not.
Expected<PaperArrayStats> run_paper_config(const PaperSetup& s, const PaperConfig& c,
                                           const PaperWorkload& w);

struct PaperPoint {
  double max_iops = 0;   // §4.3.1: throughput at an offered load of 1,000,000 IO/s
  double normal_ms = 0;  // mean response at half of max_iops
  PaperArrayStats at_max, at_half;
};
// `max_requests` at 1,000,000 IO/s with the NVRAM starting full of dirty lines, MEMScache's
// cache at its high-water mark (memsim's choice: the steady state of a saturated array,
// which a short run from an empty cache would not reach), then `half_requests` at half the measured
// throughput from an empty cache.
Expected<PaperPoint> measure_paper_point(const PaperSetup& s, const PaperConfig& c, PaperWorkload w,
                                         std::int64_t max_requests, std::int64_t half_requests);

}  // namespace memstore::sim
