// SPDX-License-Identifier: Apache-2.0
// The architectures of Uysal, Merchant and Alvarez (FAST '03, §3) on real device models: each
// test breaks if the architecture's policy is broken (where reads go, what write-behind,
// destaging, sequential detection, the log and the MEMS cache do).
#include "sim/paper_array.h"

#include <gtest/gtest.h>

#include <memory>
#include <vector>

#include "model/device_factory.h"
#include "sim/array_workload.h"

namespace memstore::sim {
namespace {

using model::Ns;
using model::Op;
using model::Request;

struct Devices {
  std::vector<std::unique_ptr<model::Device>> owned;
  std::vector<model::Device*> mems, disks;
};

// The study's chip (uysal03) and disk20k with its drive cache off: the array's NVRAM caches
// writes (§3).
Devices devices(int mems, int disks) {
  Devices d;
  model::ZonedDiskParams disk = *model::disk_preset("disk20k");
  disk.cache.write_back = false;
  for (int i = 0; i < mems; ++i) {
    d.owned.push_back(model::make_mems_device(*model::preset("uysal03"), "fcfs"));
    d.mems.push_back(d.owned.back().get());
  }
  for (int i = 0; i < disks; ++i) {
    d.owned.push_back(model::make_zoned_disk_device(disk, "fcfs"));
    d.disks.push_back(d.owned.back().get());
  }
  return d;
}

RequestSource from(std::vector<Request> rs) {
  auto all = std::make_shared<std::vector<Request>>(std::move(rs));
  auto at = std::make_shared<std::size_t>(0);
  for (std::size_t i = 0; i < all->size(); ++i) (*all)[i].id = i;
  return [all, at]() -> std::optional<Request> {
    if (*at == all->size()) return std::nullopt;
    return (*all)[(*at)++];
  };
}

Request req(Ns at_ms, model::Lbn lbn, std::int32_t blocks, Op op) {
  Request r;
  r.arrival_ns = at_ms * 1'000'000;
  r.lbn = lbn;
  r.blocks = blocks;
  r.op = op;
  return r;
}

// Random 4 KB requests far apart (no queueing), `reads` of them reads, the rest writes.
std::vector<Request> sparse(int n, double read_fraction, std::int64_t volume, int gap_ms = 20) {
  std::vector<Request> rs;
  std::uint64_t x = 12345;
  for (int i = 0; i < n; ++i) {
    x = x * 6364136223846793005ull + 1442695040888963407ull;
    const auto lbn =
        static_cast<model::Lbn>((x >> 20) % static_cast<std::uint64_t>(volume - 8)) / 8 * 8;
    const bool read = static_cast<double>(i % 100) < read_fraction * 100;
    rs.push_back(req(i * gap_ms, lbn, 8, read ? Op::kRead : Op::kWrite));
  }
  return rs;
}

PaperArrayParams params(PaperArch a, std::int64_t volume) {
  PaperArrayParams p;
  p.arch = a;
  p.volume_blocks = volume;
  p.nvram.capacity_blocks = 64 * 1024;  // 32 MB
  return p;
}

constexpr std::int64_t kVolume = 4'000'000;  // under one chip (5,000,000) and one disk

TEST(PaperArray, WritesCompleteInTheNvram) {
  for (PaperArch a : {PaperArch::kDiskOnly, PaperArch::kMemsMirror, PaperArch::kLogDisk,
                      PaperArch::kDualStripe}) {
    Devices d = devices(2, 2);
    const Expected<PaperArrayStats> run =
        run_paper_array(params(a, kVolume), d.mems, d.disks, from(sparse(200, 0.5, kVolume)));
    ASSERT_TRUE(run.ok()) << paper_arch_name(a) << ": " << run.error().message;
    const PaperArrayStats& s = *run;
    EXPECT_EQ(s.requests, 200);
    EXPECT_EQ(s.mean_write_ms(), 0) << paper_arch_name(a);  // write-behind
    EXPECT_GT(s.destages, 0) << paper_arch_name(a);         // flushed while idle
    EXPECT_EQ(s.forced_destages, 0) << paper_arch_name(a);  // never near the high water
    EXPECT_GT(s.mean_read_ms(), 0) << paper_arch_name(a);
  }
}

TEST(PaperArray, MemsMirrorReadsUncachedDataFromTheMemsCopyOnly) {
  Devices d = devices(2, 2);
  const PaperArrayStats s = run_paper_array(params(PaperArch::kMemsMirror, kVolume), d.mems,
                                            d.disks, from(sparse(300, 0.67, kVolume)))
                                .value();
  EXPECT_GT(s.mems_reads, 150);
  EXPECT_EQ(s.disk_reads, 0);
}

TEST(PaperArray, DiskOnlyAndMemsDiskReadFromTheirOwnDevices) {
  Devices d = devices(2, 2);
  const PaperArrayStats disk = run_paper_array(params(PaperArch::kDiskOnly, kVolume), d.mems,
                                               d.disks, from(sparse(100, 1, kVolume)))
                                   .value();
  EXPECT_EQ(disk.mems_reads, 0);
  EXPECT_EQ(disk.disk_reads, 100);
  Devices e = devices(2, 2);
  const PaperArrayStats mems = run_paper_array(params(PaperArch::kMemsDisk, kVolume), e.mems,
                                               e.disks, from(sparse(100, 1, kVolume)))
                                   .value();
  EXPECT_EQ(mems.disk_reads, 0);
  EXPECT_EQ(mems.mems_reads, 100);
  EXPECT_LT(mems.mean_read_ms(), disk.mean_read_ms());
}

TEST(PaperArray, ReadsOfWrittenDataHitTheNvram) {
  Devices d = devices(2, 2);
  std::vector<Request> rs = {req(0, 800, 8, Op::kWrite), req(50, 800, 8, Op::kRead),
                             req(100, 808, 8, Op::kRead)};
  const PaperArrayStats s =
      run_paper_array(params(PaperArch::kDiskOnly, kVolume), d.mems, d.disks, from(rs)).value();
  EXPECT_EQ(s.read_hits, 1);
  EXPECT_EQ(s.disk_reads, 1);
}

TEST(PaperArray, DestagingIsForcedOnceTheNvramReachesItsHighWaterMark) {
  // A burst of writes 0.01 ms apart, faster than two disks take them: the NVRAM fills up.
  std::vector<Request> rs;
  for (int i = 0; i < 2000; ++i) {
    Request r = req(0, static_cast<model::Lbn>(i) * 997 * 8 % (kVolume - 8), 8, Op::kWrite);
    r.arrival_ns = i * 10'000;
    rs.push_back(r);
  }
  PaperArrayParams p = params(PaperArch::kDiskOnly, kVolume);
  p.nvram.capacity_blocks = 1000 * 8;  // 1000 lines, high water at 800
  Devices d = devices(0, 2);
  const PaperArrayStats s = run_paper_array(p, d.mems, d.disks, from(rs)).value();
  EXPECT_GT(s.forced_destages, 0);
  EXPECT_GT(s.writes_waited, 0);  // past the capacity writes wait for destages
  EXPECT_EQ(s.requests, 2000);
  p.nvram.capacity_blocks = 4000 * 8;  // room for every write: nothing reaches high water
  Devices e = devices(0, 2);
  const PaperArrayStats roomy = run_paper_array(p, e.mems, e.disks, from(rs)).value();
  EXPECT_EQ(roomy.forced_destages, 0);
  EXPECT_EQ(roomy.writes_waited, 0);
}

TEST(PaperArray, DualStripeSendsASequentialRunToTheDisks) {
  std::vector<Request> rs;
  for (int i = 0; i < 40; ++i) rs.push_back(req(i * 20, 100'000 + i * 16, 16, Op::kRead));
  Devices d = devices(2, 2);
  const PaperArrayStats s =
      run_paper_array(params(PaperArch::kDualStripe, kVolume), d.mems, d.disks, from(rs)).value();
  // The first 32 KB (4 reads of 8 KB) are not yet a run; the rest are, read from disk with
  // 256 KB prefetched: the 5th and the 37th go to disk, the 32 after each hit the cache.
  EXPECT_EQ(s.sequential_reads, 36);
  EXPECT_EQ(s.mems_reads, 4);
  EXPECT_EQ(s.disk_reads, 2);
  EXPECT_EQ(s.read_hits, 34);
  // Random reads at light load stay on MEMS.
  Devices e = devices(2, 2);
  const PaperArrayStats r = run_paper_array(params(PaperArch::kDualStripe, kVolume), e.mems,
                                            e.disks, from(sparse(100, 1, kVolume)))
                                .value();
  EXPECT_EQ(r.disk_reads, 0);
  EXPECT_EQ(r.sequential_reads, 0);
}

TEST(PaperArray, DualStripeDivertsReadsWhenTheMemsQueueIsLong) {
  // 60 reads at once on one chip's stripe unit range: its queue passes the threshold.
  std::vector<Request> rs;
  for (int i = 0; i < 60; ++i) rs.push_back(req(0, (i % 2) * 1000 * 16 * 2, 8, Op::kRead));
  Devices d = devices(2, 2);
  PaperArrayParams p = params(PaperArch::kDualStripe, kVolume);
  p.sequentiality.window = 1;  // keep the detector out of it
  const PaperArrayStats s = run_paper_array(p, d.mems, d.disks, from(rs)).value();
  EXPECT_GT(s.queue_diverted_reads, 0);
  EXPECT_GT(s.disk_reads, 0);
}

TEST(PaperArray, LogDiskReadsFromMemsAndCleansDuringIdleTime) {
  // Overwrites of the same 4 MB leave the first extents sparse; idle gaps let the cleaner in.
  std::vector<Request> rs;
  for (int i = 0; i < 600; ++i) {
    const bool read = i % 3 == 0;
    rs.push_back(
        req(i * 5, (static_cast<model::Lbn>(i) * 37 % 1024) * 8, 8, read ? Op::kRead : Op::kWrite));
  }
  PaperArrayParams p = params(PaperArch::kLogDisk, kVolume);
  p.mems_banks = 2;
  Devices d = devices(2, 2);
  const PaperArrayStats s = run_paper_array(p, d.mems, d.disks, from(rs)).value();
  EXPECT_EQ(s.disk_reads, 0);
  EXPECT_GT(s.extents_cleaned, 0);
  EXPECT_GT(s.units_cleaned, 0);
  EXPECT_EQ(s.log_appends_refused, 0);
}

TEST(PaperArray, MemsCacheServesCachedLinesAndFlushesFromTheHighWaterMark) {
  PaperArrayParams p = params(PaperArch::kMemsCache, kVolume);
  p.mems_cache.slots = 100;  // high water 80 dirty lines, low 50
  std::vector<Request> rs;
  for (int i = 0; i < 79; ++i) rs.push_back(req(i, i * 64, 8, Op::kWrite));
  rs.push_back(req(100, 0, 8, Op::kRead));       // written: in the cache
  rs.push_back(req(110, 50'000, 8, Op::kRead));  // not: from disk, then cached
  rs.push_back(req(150, 50'000, 8, Op::kRead));
  Devices d = devices(3, 2);
  const PaperArrayStats below = run_paper_array(p, d.mems, d.disks, from(rs)).value();
  EXPECT_EQ(below.flushes, 0);  // 79 dirty lines: below the high-water mark
  EXPECT_EQ(below.read_hits, 2);
  EXPECT_EQ(below.disk_reads, 1);
  rs.push_back(req(200, 80 * 64, 8, Op::kWrite));  // the 80th dirty line
  rs.push_back(req(300, 0, 8, Op::kRead));
  Devices e = devices(3, 2);
  const PaperArrayStats at = run_paper_array(p, e.mems, e.disks, from(rs)).value();
  EXPECT_GE(at.flushes, 30);         // down below 50 dirty lines
  EXPECT_GT(at.mean_write_ms(), 0);  // writes complete on the MEMS cache, not at once
}

TEST(PaperArray, RefusesDevicesThatCannotHoldTheArchitecture) {
  Devices d = devices(1, 1);
  const auto disk_only =
      run_paper_array(params(PaperArch::kDiskOnly, kVolume), d.mems, d.disks, from({}));
  ASSERT_FALSE(disk_only.ok());
  EXPECT_NE(disk_only.error().message.find("even number of disks"), std::string::npos);
  const auto mems_cache =
      run_paper_array(params(PaperArch::kMemsCache, kVolume), d.mems, d.disks, from({}));
  ASSERT_FALSE(mems_cache.ok());
  EXPECT_NE(mems_cache.error().message.find("even number of disks"), std::string::npos);
}

}  // namespace
}  // namespace memstore::sim
