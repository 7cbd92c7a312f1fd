// SPDX-License-Identifier: Apache-2.0
// End-to-end tests of memsim array (issue 19; Uysal, Merchant and Alvarez, FAST 2003): every
// configuration runs the same requests, the JSON says whether the paper's ranking holds, a
// trace replays at each speedup, and bad flags name the fix.
#include "tests/cli/memsim_cli.h"

namespace {

using namespace memsim_cli;

TEST(MemsimArray, EveryConfigurationRunsTheSameRequestsAndTheRankingIsReported) {
  const json j =
      ok_json(memsim({"array", "--workloads", "oltp", "--requests", "2000", "--warmup-requests",
                      "100000", "--speedups", "1,8", "--disk-set", "write_back=false", "--json"}));
  ASSERT_EQ(j["runs"].size(), 2u);
  for (const json& run : j["runs"]) {
    ASSERT_EQ(run["configs"].size(), 6u);
    for (const json& c : run["configs"]) EXPECT_EQ(c["requests"], 2000) << c["config"];
    // The mirror serves every read from its MEMS side; the disk-only array none.
    EXPECT_EQ(run["configs"][2]["config"], "mirror");
    EXPECT_GT(run["configs"][2]["reads_served_by_mems"].get<int>(), 1000);
    EXPECT_EQ(run["configs"][0]["reads_served_by_mems"], 0);
    EXPECT_EQ(run["paper_ranking_holds"], true) << run["order"];
    EXPECT_EQ(run["order"].get<std::string>().rfind("mems<", 0), 0u) << run["order"];
  }
  // Four 20,000 rpm disks hold the volume; 24 G2s hold it too (equal capacity).
  EXPECT_EQ(j["runs"][0]["configs"][1]["mems_devices"], 24);
}

TEST(MemsimArray, ATraceReplaysAtEachSpeedup) {
  const Result r = memsim({"array", "--trace", data("small.disksim"), "--speedups", "1,16",
                           "--configs", "disk,mirror"});
  ASSERT_EQ(r.status, 0) << r.err;
  EXPECT_EQ(r.out.rfind("workload,speedup,config,", 0), 0u);
  EXPECT_NE(r.out.find("\ntrace,16,mirror,"), std::string::npos) << r.out;
}

TEST(MemsimArray, BadFlagsNameTheFix) {
  Result r = memsim({"array", "--configs", "raid5"});
  expect_clean_failure(r, 2);
  EXPECT_NE(r.err.find("--configs: unknown configuration 'raid5'"), std::string::npos) << r.err;
  r = memsim({"array", "--workloads", "web"});
  expect_clean_failure(r, 2);
  EXPECT_NE(r.err.find("--workloads: unknown workload 'web'"), std::string::npos) << r.err;
  r = memsim({"array", "--log-segments", "100000"});
  expect_clean_failure(r, 2);
  EXPECT_NE(r.err.find("--log-segments: the log (100000 segments of 128 KB) does not fit on g2"),
            std::string::npos)
      << r.err;
}

}  // namespace

namespace {

using namespace memsim_cli;

// memsim paper-array (issue 36): the paper's Figure 6 and Figure 10 as CSV, a bad figure
// refused, Figure 10 from a Figure 5 CSV.
TEST(MemsimPaperArray, Figure6PrintsOneRowPerSizeReadFractionAndVariant) {
  const Result r = memsim({"paper-array", "--figure", "6", "--read-fractions", "1", "--ks", "0,2",
                           "--max-requests", "2000"});
  ASSERT_EQ(r.status, 0) << r.err;
  EXPECT_EQ(r.out.rfind("size_kb,read_fraction,variant,disks,max_throughput_iops\n", 0), 0u);
  EXPECT_NE(r.out.find("\n4,1.00,LogDisk,2,"), std::string::npos) << r.out;
  EXPECT_NE(r.out.find("\n64,1.00,LogDisk+2,4,"), std::string::npos) << r.out;
}

// --banks sets the scale: the LU's banks of 7 chips, DiskOnly's disks twice as many
// (RAID 1/0), MEMSdisk a bank per disk. One bank is refused: MEMScache's RAID 5 would have
// fewer than 3 chips.
TEST(MemsimPaperArray, BanksScaleEveryArchitecture) {
  const Result r = memsim({"paper-array", "--figure", "5", "--banks", "2", "--max-requests", "400",
                           "--half-requests", "200"});
  ASSERT_EQ(r.status, 0) << r.err;
  EXPECT_NE(r.out.find("\nDiskOnly,"), std::string::npos) << r.out;
  for (const std::string& row : lines(r.out)) {
    if (row.rfind("DiskOnly,", 0) == 0) EXPECT_NE(row.find(",4,0,"), std::string::npos) << row;
    if (row.rfind("MEMSdisk,", 0) == 0) EXPECT_NE(row.find(",0,28,"), std::string::npos) << row;
  }
  expect_clean_failure(memsim({"paper-array", "--banks", "1"}), 2);
}

TEST(MemsimPaperArray, Figure10TakesFigure5sThroughputsAndABadFigureIsRefused) {
  const Result bad = memsim({"paper-array", "--figure", "7"});
  expect_clean_failure(bad, 2);
  EXPECT_NE(bad.err.find("--figure: must be 5, 6 or 10"), std::string::npos) << bad.err;
  const Result missing = memsim({"paper-array", "--figure", "10", "--max-from", "/nonexistent"});
  expect_clean_failure(missing, 1);
  EXPECT_NE(missing.err.find("--max-from: cannot read"), std::string::npos) << missing.err;
}

}  // namespace

namespace {

using namespace memsim_cli;

TEST(MemsimPaperArray, ATraceReplaysOnEveryConfigurationAtEachScale) {
  const Result r = memsim({"paper-array", "--trace", data("small.disksim"), "--scales", "1,4"});
  ASSERT_EQ(r.status, 0) << r.err;
  EXPECT_EQ(r.out.rfind("architecture,scale,requests,mean_response_ms,", 0), 0u);
  EXPECT_NE(r.out.find("\nDiskOnly,4,"), std::string::npos) << r.out;
  EXPECT_NE(r.out.find("\nMEMScache,1,"), std::string::npos) << r.out;
  EXPECT_EQ(lines(r.out).size(), 1u + 10 * 2);
}

}  // namespace
