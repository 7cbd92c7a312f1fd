// SPDX-License-Identifier: Apache-2.0
// The study's configurations and methods; described in the header.
#include "sim/paper_setup.h"

#include <algorithm>
#include <cmath>

#include "model/device_factory.h"
#include "sim/rng.h"

namespace memstore::sim {
namespace {

constexpr double kBlock = 512;

model::ZonedDiskParams array_disk() {
  // The drive's own write cache off: the array's NVRAM holds the writes (§3).
  model::ZonedDiskParams d = *model::disk_preset("disk20k");
  d.cache.write_back = false;
  return d;
}

PaperConfig base(const PaperSetup& s, std::string name, PaperArch arch) {
  PaperConfig c;
  c.name = std::move(name);
  c.params.arch = arch;
  // Whole 1 MB units on every chip, so that every stripe of every architecture holds it.
  const std::int64_t unit = c.params.large_stripe_blocks;
  c.params.volume_blocks =
      std::int64_t{s.banks} * s.chips_per_bank * (paper_chip_blocks() / unit * unit);
  c.params.nvram.capacity_blocks = static_cast<std::int64_t>(
      std::floor(s.paper_nvram_bytes * paper_scale(s) / kBlock / c.params.nvram.line_blocks) *
      c.params.nvram.line_blocks);
  c.params.mems_banks = s.banks;
  return c;
}

void bill(PaperConfig& c, bool nvram) {
  c.bill.disk_bytes =
      static_cast<double>(c.disks) * static_cast<double>(paper_disk_blocks()) * kBlock;
  c.bill.mems_bytes =
      static_cast<double>(c.chips) * static_cast<double>(paper_chip_blocks()) * kBlock;
  c.bill.nvram_bytes = nvram ? static_cast<double>(c.params.nvram.capacity_blocks) * kBlock : 0;
}

}  // namespace

std::int64_t paper_chip_blocks() {
  static const std::int64_t blocks =
      model::make_mems_device(*model::preset("uysal03"), "fcfs")->blocks();
  return blocks;
}

std::int64_t paper_disk_blocks() {
  static const std::int64_t blocks = model::make_zoned_disk_device(array_disk(), "fcfs")->blocks();
  return blocks;
}

double paper_scale(const PaperSetup& s) {
  const double raw = 2.0 * s.banks * static_cast<double>(paper_disk_blocks()) * kBlock;
  return raw / s.paper_raw_disk_bytes;
}

std::vector<PaperConfig> figure5_configs(const PaperSetup& s) {
  const std::int32_t bank_chips = s.banks * s.chips_per_bank;
  std::vector<PaperConfig> out;
  PaperConfig disk_only = base(s, "DiskOnly", PaperArch::kDiskOnly);
  disk_only.disks = 2 * s.banks;  // RAID 1/0
  bill(disk_only, true);
  PaperConfig mems_disk = base(s, "MEMSdisk", PaperArch::kMemsDisk);
  mems_disk.chips = 2 * bank_chips;  // §3.1: every disk replaced by a bank
  bill(mems_disk, true);
  out.push_back(disk_only);
  // §4.3.4: Isocost-X, DiskOnly with disks added until it costs what MEMSdisk costs at X.
  for (const int x : {1, 3, 5, 10}) {
    CostModel m;
    m.mems_to_disk_ratio = x;
    PaperConfig iso = disk_only;
    iso.name = "Isocost-" + std::to_string(x);
    iso.disks =
        isocost_disks(m, disk_only.bill.disk_bytes / disk_only.disks, disk_only.bill.nvram_bytes,
                      array_cost_dollars(m, mems_disk.bill), disk_only.disks);
    bill(iso, true);
    out.push_back(iso);
  }
  out.push_back(mems_disk);
  for (const auto& [name, arch] :
       {std::pair{"MEMSmirror", PaperArch::kMemsMirror}, std::pair{"LogDisk", PaperArch::kLogDisk},
        std::pair{"DualStripe", PaperArch::kDualStripe}}) {
    PaperConfig c = base(s, name, arch);
    c.chips = bank_chips;  // one copy on MEMS banks, one on as many disks
    c.disks = s.banks;
    bill(c, true);
    out.push_back(c);
  }
  // §3.5: the NVRAM replaced by a MEMS RAID 5 cache of the scaled 100 GB, over RAID 1/0.
  PaperConfig cache = base(s, "MEMScache", PaperArch::kMemsCache);
  const double cache_bytes = s.paper_mems_cache_bytes * paper_scale(s);
  const double chip_bytes = static_cast<double>(paper_chip_blocks()) * kBlock;
  cache.chips = static_cast<std::int32_t>(std::ceil(cache_bytes / chip_bytes)) + 1;
  cache.disks = 2 * s.banks;
  cache.params.mems_cache.slots =
      static_cast<std::int64_t>(cache_bytes / kBlock / cache.params.mems_cache.line_blocks);
  bill(cache, false);
  out.push_back(cache);
  return out;
}

PaperConfig logdisk_k(const PaperSetup& s, std::int32_t k) {
  // §4.3.2: two disks and two logical MEMS disks of a bank each, plus K disks.
  PaperSetup two = s;
  two.banks = 2;
  PaperConfig c =
      base(two, k == 0 ? "LogDisk" : "LogDisk+" + std::to_string(k), PaperArch::kLogDisk);
  c.chips = 2 * s.chips_per_bank;
  c.disks = 2 + k;
  c.params.mems_banks = 2;
  // The NVRAM scales with the four-bank arrays' disks, as in Figure 5.
  c.params.nvram = base(s, "", PaperArch::kLogDisk).params.nvram;
  bill(c, true);
  return c;
}

RequestSource paper_requests(const PaperWorkload& w, std::int64_t volume_blocks) {
  auto rng = std::make_shared<Rng>(w.seed);
  auto issued = std::make_shared<std::int64_t>(0);
  auto clock = std::make_shared<double>(0);
  return [w, volume_blocks, rng, issued, clock]() -> std::optional<model::Request> {
    if (*issued >= w.requests) return std::nullopt;
    const double bytes = w.fixed_size ? w.size_kb * 1024 : rng->exponential(w.size_kb * 1024);
    const auto blocks = static_cast<std::int32_t>(
        std::clamp(std::ceil(bytes / kBlock), 1.0, static_cast<double>(volume_blocks)));
    model::Request r;
    r.id = static_cast<std::uint64_t>(*issued);
    r.arrival_ns = static_cast<model::Ns>(std::llround(*clock));
    r.blocks = blocks;
    r.lbn = static_cast<model::Lbn>(
        rng->uniform_below(static_cast<std::uint64_t>(volume_blocks - blocks + 1)));
    r.op = rng->uniform() < w.read_fraction ? model::Op::kRead : model::Op::kWrite;
    *clock += rng->exponential(1e9 / w.iops);
    ++*issued;
    return r;
  };
}

Expected<PaperArrayStats> run_paper_config(const PaperSetup& s, const PaperConfig& c,
                                           const PaperWorkload& w) {
  return run_paper_config_on(s, c, paper_requests(w, c.params.volume_blocks));
}

Expected<PaperArrayStats> run_paper_config_on(const PaperSetup& s, const PaperConfig& c,
                                              const RequestSource& next) {
  std::vector<std::unique_ptr<model::Device>> owned;
  std::vector<model::Device*> mems, disks;
  for (std::int32_t i = 0; i < c.chips; ++i) {
    owned.push_back(model::make_mems_device(*model::preset("uysal03"), s.scheduler));
    mems.push_back(owned.back().get());
  }
  const model::ZonedDiskParams disk = array_disk();
  for (std::int32_t i = 0; i < c.disks; ++i) {
    owned.push_back(model::make_zoned_disk_device(disk, s.scheduler));
    disks.push_back(owned.back().get());
  }
  Expected<PaperArrayStats> stats = run_paper_array(c.params, mems, disks, next);
  if (!stats.ok()) return Error(c.name + ": " + stats.error().message);
  return stats;
}

Expected<PaperPoint> measure_paper_point(const PaperSetup& s, const PaperConfig& c, PaperWorkload w,
                                         std::int64_t max_requests, std::int64_t half_requests) {
  PaperPoint out;
  PaperConfig saturated = c;
  // A saturated array's NVRAM is full of dirty data; MEMScache's flushing keeps its cache
  // between the water marks, so it starts at the high one.
  saturated.params.warm_dirty_fraction =
      c.params.arch == PaperArch::kMemsCache ? c.params.mems_cache.high_water : 1;
  w.iops = 1e6;  // §4.3.1: "an offered load of 1 million IO/s"
  w.requests = max_requests;
  Expected<PaperArrayStats> at_max = run_paper_config(s, saturated, w);
  if (!at_max.ok()) return at_max.error();
  out.at_max = *at_max;
  out.max_iops = out.at_max.throughput_iops();
  if (half_requests > 0 && out.max_iops > 0) {
    w.iops = out.max_iops / 2;  // §4.3.1: "an IO rate equal to half the maximum throughput"
    w.requests = half_requests;
    w.seed += 1000;
    Expected<PaperArrayStats> at_half = run_paper_config(s, c, w);
    if (!at_half.ok()) return at_half.error();
    out.at_half = *at_half;
    out.normal_ms = out.at_half.mean_response_ms();
  }
  return out;
}

}  // namespace memstore::sim
