// SPDX-License-Identifier: Apache-2.0
// The study's configurations and workload (Uysal, Merchant and Alvarez, FAST '03, §4):
// iso-capacity device sets, Isocost-X by cost, LogDisk+K, and §4.2's synthetic workload.
#include "sim/paper_setup.h"

#include <gtest/gtest.h>

#include <map>

namespace memstore::sim {
namespace {

TEST(PaperSetup, Figure5HasThePapersConfigurationsAtEqualCapacity) {
  const PaperSetup s;
  const std::vector<PaperConfig> cs = figure5_configs(s);
  std::vector<std::string> names;
  std::map<std::string, PaperConfig> by;
  for (const PaperConfig& c : cs) {
    names.push_back(c.name);
    by[c.name] = c;
    // Four banks of seven chips, each in whole 1 MB units.
    EXPECT_EQ(c.params.volume_blocks, 4 * 7 * (paper_chip_blocks() / 2048 * 2048)) << c.name;
  }
  EXPECT_EQ(names, (std::vector<std::string>{"DiskOnly", "Isocost-1", "Isocost-3", "Isocost-5",
                                             "Isocost-10", "MEMSdisk", "MEMSmirror", "LogDisk",
                                             "DualStripe", "MEMScache"}));
  EXPECT_EQ(by["DiskOnly"].disks, 8);
  EXPECT_EQ(by["DiskOnly"].chips, 0);
  EXPECT_EQ(by["MEMSdisk"].chips, 56);  // a bank of 7 chips for each of the 8 disks
  EXPECT_EQ(by["MEMSdisk"].disks, 0);
  for (const char* hybrid : {"MEMSmirror", "LogDisk", "DualStripe"}) {
    EXPECT_EQ(by[hybrid].chips, 28) << hybrid;
    EXPECT_EQ(by[hybrid].disks, 4) << hybrid;
  }
  EXPECT_EQ(by["MEMScache"].disks, 8);
  EXPECT_EQ(by["MEMScache"].bill.nvram_bytes, 0);  // §3.5: the MEMS cache replaces the NVRAM
  EXPECT_GT(by["MEMScache"].params.mems_cache.slots, 0);
}

TEST(PaperSetup, IsocostCostsWhatMemsDiskCostsAtItsRatio) {
  const PaperSetup s;
  std::map<std::string, PaperConfig> by;
  for (const PaperConfig& c : figure5_configs(s)) by[c.name] = c;
  std::int32_t previous = 0;
  for (const int x : {1, 3, 5, 10}) {
    CostModel m;
    m.mems_to_disk_ratio = x;
    const PaperConfig& iso = by["Isocost-" + std::to_string(x)];
    EXPECT_GE(iso.disks, previous);
    previous = iso.disks;
    const double target = array_cost_dollars(m, by["MEMSdisk"].bill);
    if (iso.disks > 8) {
      EXPECT_LE(array_cost_dollars(m, iso.bill), target) << x;
    }
    ArrayBill more = iso.bill;
    more.disk_bytes += 2 * iso.bill.disk_bytes / iso.disks;
    EXPECT_GT(array_cost_dollars(m, more), target) << x;
  }
  EXPECT_GT(by["Isocost-10"].disks, by["Isocost-1"].disks);
}

TEST(PaperSetup, LogDiskPlusKAddsDisksToTwoBanks) {
  const PaperSetup s;
  const PaperConfig base = logdisk_k(s, 0);
  const PaperConfig plus2 = logdisk_k(s, 2);
  EXPECT_EQ(base.name, "LogDisk");
  EXPECT_EQ(plus2.name, "LogDisk+2");
  EXPECT_EQ(base.disks, 2);
  EXPECT_EQ(plus2.disks, 4);
  EXPECT_EQ(plus2.chips, 14);  // §4.3.2: two logical MEMS disks
  EXPECT_EQ(plus2.params.mems_banks, 2);
}

TEST(PaperSetup, TheSyntheticWorkloadIsSection42s) {
  PaperWorkload w;
  w.requests = 20000;
  w.iops = 1000;
  const std::int64_t volume = 1'000'000;
  const RequestSource next = paper_requests(w, volume);
  double blocks = 0, reads = 0, last_ns = 0, low_half = 0;
  int n = 0;
  while (const auto r = next()) {
    ASSERT_GE(r->lbn, 0);
    ASSERT_LE(r->lbn + r->blocks, volume);
    blocks += r->blocks;
    reads += r->op == model::Op::kRead;
    low_half += r->lbn < volume / 2;
    last_ns = static_cast<double>(r->arrival_ns);
    ++n;
  }
  EXPECT_EQ(n, 20000);
  // Exponential sizes of mean 4 KB, rounded up to whole blocks: about 4.25 KB.
  EXPECT_NEAR(blocks / n * 512 / 1024, 4.25, 0.2);
  EXPECT_NEAR(reads / n, 0.67, 0.02);
  EXPECT_NEAR(low_half / n, 0.5, 0.02);        // uniform starts
  EXPECT_NEAR(n / (last_ns / 1e9), 1000, 30);  // the offered rate
}

}  // namespace
}  // namespace memstore::sim
