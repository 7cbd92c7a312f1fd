// SPDX-License-Identifier: Apache-2.0
// The cost model of Uysal, Merchant and Alvarez (FAST '03, §4.1 and §4.3.4): an array costs
// what its disks, NVRAM and MEMS cost, at $6/GB for disks, $8/MB for NVRAM and X times the
// disk's price per byte for MEMS, X from 1 to 10. Isocost-X is DiskOnly with disks added
// until it costs what MEMSdisk costs at ratio X.
//
// memsim's reading: GB and MB are decimal (10^9 and 10^6 bytes), as the paper's disk and
// MEMS capacities are; "disks added until it costs" rounds to the largest whole even number
// of disks (RAID 1/0 pairs) whose cost does not exceed MEMSdisk's.
#pragma once

#include <cstdint>

namespace memstore::sim {

struct CostModel {
  double disk_dollars_per_gb = 6;   // §4.1, 2001 list prices for enterprise disks
  double nvram_dollars_per_mb = 8;  // §4.1, Dallas Semiconductor list prices
  double mems_to_disk_ratio = 1;    // X: MEMS per-byte cost over the disk's
};

struct ArrayBill {
  double disk_bytes = 0;
  double nvram_bytes = 0;
  double mems_bytes = 0;
};

double array_cost_dollars(const CostModel& m, const ArrayBill& bill);

// Isocost-X's disk count: the most disks (an even number, at least `base_disks`) of
// `disk_bytes` each, with `nvram_bytes` of NVRAM, costing no more than `target_dollars`.
std::int32_t isocost_disks(const CostModel& m, double disk_bytes, double nvram_bytes,
                           double target_dollars, std::int32_t base_disks);

}  // namespace memstore::sim
