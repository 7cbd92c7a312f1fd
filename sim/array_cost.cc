// SPDX-License-Identifier: Apache-2.0
// The array cost model; described in the header.
#include "sim/array_cost.h"

namespace memstore::sim {

double array_cost_dollars(const CostModel& m, const ArrayBill& bill) {
  const double disk = bill.disk_bytes / 1e9 * m.disk_dollars_per_gb;
  const double nvram = bill.nvram_bytes / 1e6 * m.nvram_dollars_per_mb;
  const double mems = bill.mems_bytes / 1e9 * m.disk_dollars_per_gb * m.mems_to_disk_ratio;
  return disk + nvram + mems;
}

std::int32_t isocost_disks(const CostModel& m, double disk_bytes, double nvram_bytes,
                           double target_dollars, std::int32_t base_disks) {
  std::int32_t disks = base_disks;
  auto cost = [&](std::int32_t n) {
    return array_cost_dollars(m, {disk_bytes * n, nvram_bytes, 0});
  };
  while (cost(disks + 2) <= target_dollars) disks += 2;
  return disks;
}

}  // namespace memstore::sim
