// SPDX-License-Identifier: Apache-2.0
// The paper's array architectures: names, the devices each needs, and the entry point.
#include "sim/paper_array.h"

#include <algorithm>
#include <limits>

#include "sim/paper_array_run.h"

namespace memstore::sim {

std::string paper_arch_name(PaperArch a) {
  switch (a) {
    case PaperArch::kDiskOnly:
      return "diskonly";
    case PaperArch::kMemsDisk:
      return "memsdisk";
    case PaperArch::kMemsMirror:
      return "memsmirror";
    case PaperArch::kLogDisk:
      return "logdisk";
    case PaperArch::kDualStripe:
      return "dualstripe";
    case PaperArch::kMemsCache:
      return "memscache";
  }
  return "?";
}

std::vector<PaperArch> all_paper_archs() {
  return {PaperArch::kDiskOnly, PaperArch::kMemsDisk,   PaperArch::kMemsMirror,
          PaperArch::kLogDisk,  PaperArch::kDualStripe, PaperArch::kMemsCache};
}

namespace {

std::int64_t smallest(const std::vector<model::Device*>& ds) {
  std::int64_t m = std::numeric_limits<std::int64_t>::max();
  for (const model::Device* d : ds) m = std::min(m, d->blocks());
  return ds.empty() ? 0 : m;
}

// Blocks a stripe over `n` of the devices holds, in whole stripe units on the smallest.
std::int64_t striped(const std::vector<model::Device*>& ds, std::size_t n, std::int32_t unit) {
  return smallest(ds) / unit * unit * static_cast<std::int64_t>(n);
}

Status check(const PaperArrayParams& p, const std::vector<model::Device*>& mems,
             const std::vector<model::Device*>& disks) {
  const std::string name = paper_arch_name(p.arch);
  if (p.volume_blocks <= 0) return Error("the volume must be positive");
  const bool even_disks = !disks.empty() && disks.size() % 2 == 0;
  switch (p.arch) {
    case PaperArch::kDiskOnly:
      if (!even_disks) return Error(name + " needs an even number of disks (RAID 1/0)");
      if (striped(disks, disks.size() / 2, p.stripe_blocks) < p.volume_blocks)
        return Error("the disks hold less than the volume");
      return {};
    case PaperArch::kMemsDisk:
      if (mems.empty() || mems.size() % 2 != 0)
        return Error(name + " needs an even number of MEMS chips");
      if (striped(mems, mems.size() / 2, p.stripe_blocks) < p.volume_blocks)
        return Error("the MEMS chips hold less than the volume");
      return {};
    case PaperArch::kMemsMirror:
    case PaperArch::kLogDisk:
    case PaperArch::kDualStripe: {
      if (mems.empty() || disks.empty()) return Error(name + " needs MEMS chips and disks");
      const std::int32_t mems_unit =
          p.arch == PaperArch::kDualStripe ? p.small_stripe_blocks : p.stripe_blocks;
      if (striped(mems, mems.size(), mems_unit) < p.volume_blocks)
        return Error("the MEMS chips hold less than the volume");
      if (p.arch == PaperArch::kLogDisk) {
        if (p.mems_banks < 1 || mems.size() % static_cast<std::size_t>(p.mems_banks) != 0)
          return Error("the MEMS chips must form mems_banks equal banks");
        if (p.stripe_blocks % p.nvram.line_blocks != 0)
          return Error("the stripe unit must be a whole number of log units");
        // "mirror disks ... of greater capacity": the volume and a clean extent on each disk.
        const std::int64_t extent = std::int64_t{p.extent_units} * p.nvram.line_blocks;
        const std::int64_t extents = smallest(disks) / extent;
        const std::int64_t needed = (p.volume_blocks + extent - 1) / extent;
        if ((extents - 2) * static_cast<std::int64_t>(disks.size()) < needed)
          return Error("the disks leave no room for the log beyond the volume");
        return {};
      }
      const std::int32_t disk_unit =
          p.arch == PaperArch::kDualStripe ? p.large_stripe_blocks : p.stripe_blocks;
      if (striped(disks, disks.size(), disk_unit) < p.volume_blocks)
        return Error("the disks hold less than the volume");
      return {};
    }
    case PaperArch::kMemsCache: {
      if (!even_disks) return Error(name + " needs an even number of disks (RAID 1/0)");
      if (mems.size() < 3) return Error(name + " needs at least 3 MEMS chips (RAID 5)");
      if (striped(disks, disks.size() / 2, p.stripe_blocks) < p.volume_blocks)
        return Error("the disks hold less than the volume");
      const std::int64_t rows = smallest(mems) / p.mems_cache.line_blocks;
      if (p.mems_cache.slots < 1 ||
          p.mems_cache.slots > rows * static_cast<std::int64_t>(mems.size() - 1))
        return Error("the cache's slots do not fit the MEMS chips' RAID 5");
      return {};
    }
  }
  return Error("unknown architecture");
}

}  // namespace

Expected<PaperArrayStats> run_paper_array(const PaperArrayParams& params,
                                          const std::vector<model::Device*>& mems,
                                          const std::vector<model::Device*>& disks,
                                          const RequestSource& next) {
  if (const Status s = check(params, mems, disks); !s.ok()) return s.error();
  const std::vector<model::Device*> none;
  const bool uses_mems = params.arch != PaperArch::kDiskOnly;
  const bool uses_disks = params.arch != PaperArch::kMemsDisk;
  return PaperArrayRun(params, uses_mems ? mems : none, uses_disks ? disks : none).run(next);
}

}  // namespace memstore::sim
