// SPDX-License-Identifier: Apache-2.0
// End-to-end tests of memsim wbuffer (Wang and Brandt's MEMS write buffer): every system at
// every scaling factor and cache size on the stand-ins for the paper's traces, a trace
// replayed at each scaling, and bad flags naming the fix.
#include "tests/cli/memsim_cli.h"

namespace {

using namespace memsim_cli;

const json& find_run(const json& j, double speedup, const std::string& system, int cache_mb) {
  for (const json& run : j["runs"]) {
    if (run["speedup"] == speedup && run["system"] == system && run["cache_mb"] == cache_mb) {
      return run;
    }
  }
  ADD_FAILURE() << "no run " << speedup << " " << system << " " << cache_mb;
  return j;
}

TEST(MemsimWbuffer, EverySystemAtEveryScalingAndCacheSize) {
  const json j = ok_json(memsim(
      {"wbuffer", "--requests", "3000", "--speedups", "1,16", "--cache-mb", "16,512", "--json"}));
  EXPECT_EQ(j["workload"], "snake-like");
  EXPECT_EQ(j["requests"], 3000);
  ASSERT_EQ(j["runs"].size(), 8u);  // (disk, mems, two caches) x two scalings
  for (const json& run : j["runs"]) EXPECT_EQ(run["requests"], 3000) << run.dump();
  for (double speedup : {1.0, 16.0}) {
    const json& disk = find_run(j, speedup, "disk", 0);
    const json& mems = find_run(j, speedup, "mems", 0);
    EXPECT_EQ(disk["mems_requests"], 0);
    EXPECT_EQ(disk["disk_requests"], 3000);
    EXPECT_EQ(mems["disk_requests"], 0);
    // 16 MB fills and is cleaned; 512 MB holds the whole run's writes.
    const json& small = find_run(j, speedup, "buffer", 16);
    const json& large = find_run(j, speedup, "buffer", 512);
    EXPECT_GT(small["segments_cleaned"].get<int>(), 0);
    EXPECT_EQ(large["segments_cleaned"], 0);
    EXPECT_GT(small["disk_requests"].get<int>(), large["disk_requests"].get<int>());
    // Writes into the large log are MEMStore writes, far quicker than the disk's.
    EXPECT_LT(large["write_ms"].get<double>(), disk["write_ms"].get<double>() / 2);
  }
}

TEST(MemsimWbuffer, TheCelloStandInHasThePapersReadFraction) {
  const json j = ok_json(memsim({"wbuffer", "--workload", "cello-like", "--requests", "10000",
                                 "--speedups", "1", "--cache-mb", "64", "--json"}));
  EXPECT_EQ(j["workload"], "cello-like");
  const json& disk = find_run(j, 1, "disk", 0);
  EXPECT_EQ(disk["reads"], 3010);  // 30.1%
  EXPECT_GT(find_run(j, 1, "buffer", 64)["read_hits"].get<int>() +
                find_run(j, 1, "buffer", 64)["partial_read_hits"].get<int>(),
            0);
}

TEST(MemsimWbuffer, ATraceReplaysAtEachSpeedup) {
  const json j = ok_json(memsim({"wbuffer", "--trace", data("small.disksim"), "--speedups", "1,16",
                                 "--cache-mb", "16", "--json"}));
  EXPECT_EQ(j["workload"], data("small.disksim"));
  EXPECT_FALSE(j.contains("read_fraction"));  // a trace's shape is its own
  ASSERT_EQ(j["runs"].size(), 6u);
  for (const json& run : j["runs"]) EXPECT_EQ(run["requests"], j["requests"]);
  EXPECT_GT(j["requests"].get<int>(), 0);
  const Result csv =
      memsim({"wbuffer", "--trace", data("small.disksim"), "--speedups", "4", "--cache-mb", "16"});
  ASSERT_EQ(csv.status, 0) << csv.err;
  EXPECT_NE(csv.out.find("\n" + data("small.disksim") + ",4,buffer,16,"), std::string::npos)
      << csv.out;
}

TEST(MemsimWbuffer, BadFlagsNameTheFix) {
  Result r = memsim({"wbuffer", "--trace", "/nonexistent.trace"});
  expect_clean_failure(r, 1);
  EXPECT_NE(r.err.find("--trace: cannot open /nonexistent.trace"), std::string::npos) << r.err;
  r = memsim({"wbuffer", "--trace", data("small.disksim"), "--trace-format", "csv"});
  expect_clean_failure(r, 2);
  EXPECT_NE(r.err.find("--trace-format must be disksim or spc"), std::string::npos) << r.err;
  r = memsim({"wbuffer", "--trace", data("malformed_line3.disksim")});
  expect_clean_failure(r, 1);
  EXPECT_NE(r.err.find("malformed_line3.disksim"), std::string::npos) << r.err;
  r = memsim({"wbuffer", "--workload", "snake"});
  expect_clean_failure(r, 2);
  EXPECT_NE(r.err.find("--workload must be snake-like, cello-like or random"), std::string::npos)
      << r.err;
  r = memsim({"wbuffer", "--cache-mb", "100000"});
  expect_clean_failure(r, 2);
  EXPECT_NE(r.err.find("--cache-mb: 100000 MB does not fit on g2"), std::string::npos) << r.err;
  r = memsim({"wbuffer", "--high-water", "0.5", "--low-water", "0.6"});
  expect_clean_failure(r, 2);
  EXPECT_NE(r.err.find("low < high <= 1"), std::string::npos) << r.err;
}

}  // namespace
