// SPDX-License-Identifier: Apache-2.0
// End-to-end tests of memsim sweep (docs/memsim.md): its CSV and JSON, and
// sharded sweeps (--shard I/N) that memsim merge joins into the unsharded output.
#include "tests/cli/memsim_cli.h"

namespace {

using namespace memsim_cli;

TEST(MemsimSweep, OneCsvRowPerSchedulerAndRateInOrder) {
  const Result r = memsim({"sweep", "--device", "g2", "--workload", "random", "--rates", "100,200",
                           "--schedulers", "fcfs,sptf", "--requests", "200"});
  ASSERT_EQ(r.status, 0) << r.err;
  // stderr is a pipe here, not a terminal: no progress line (sim/progress.h).
  EXPECT_EQ(r.err, "");
  const std::vector<std::string> l = lines(r.out);
  ASSERT_EQ(l.size(), 5u) << r.out;
  EXPECT_EQ(l[0], "scheduler,rate_per_s,requests,mean_response_ms,scv_response,p99_response_ms");
  const char* const expected[] = {"fcfs,100,200,", "fcfs,200,200,", "sptf,100,200,",
                                  "sptf,200,200,"};
  for (int i = 0; i < 4; ++i) EXPECT_EQ(l[i + 1].rfind(expected[i], 0), 0u) << l[i + 1];
}

// Issue 20: a sweep split into 4 shards (run in a scrambled order, merged in
// another) gives the unsharded output byte for byte.
TEST(MemsimSweep, FourShardsMergeToTheUnshardedOutput) {
  const std::vector<std::string> sweep = {"sweep",        "--rates",         "100,300,900",
                                          "--schedulers", "fcfs,sptf,clook", "--requests",
                                          "300",          "--seed",          "7"};
  const Result whole = memsim(sweep);
  ASSERT_EQ(whole.status, 0) << whole.err;
  ASSERT_EQ(lines(whole.out).size(), 10u) << whole.out;
  TempFile shard_files[4];
  for (int i : {2, 0, 3, 1}) {
    std::vector<std::string> args = sweep;
    args.insert(args.end(), {"--shard", std::to_string(i) + "/4"});
    const Result part = memsim(args);
    ASSERT_EQ(part.status, 0) << part.err;
    std::ofstream(shard_files[i].path(), std::ios::binary) << part.out;
  }
  const Result merged = memsim({"merge", shard_files[3].path(), shard_files[1].path(),
                                shard_files[0].path(), shard_files[2].path()});
  ASSERT_EQ(merged.status, 0) << merged.err;
  EXPECT_EQ(merged.out, whole.out);
}

TEST(MemsimSweep, MergeRefusesAMissingShardAndShardsOfAnotherSweep) {
  TempFile a;
  TempFile b;
  TempFile other;
  const auto write = [](const TempFile& f, std::vector<std::string> args) {
    const Result r = memsim(args);
    ASSERT_EQ(r.status, 0) << r.err;
    std::ofstream(f.path(), std::ios::binary) << r.out;
  };
  write(a, {"sweep", "--rates", "100,200", "--schedulers", "fcfs", "--requests", "50", "--shard",
            "0/2"});
  write(b, {"sweep", "--rates", "100,200", "--schedulers", "fcfs", "--requests", "50", "--shard",
            "1/2"});
  write(other, {"sweep", "--rates", "100,200", "--schedulers", "fcfs", "--requests", "60",
                "--shard", "1/2"});
  expect_clean_failure(memsim({"merge", a.path()}), 1);
  expect_clean_failure(memsim({"merge", a.path(), other.path()}), 1);
  expect_clean_failure(memsim({"merge", a.path(), a.path(), b.path()}), 1);
  EXPECT_EQ(memsim({"merge", b.path(), a.path()}).status, 0);
  expect_clean_failure(
      memsim({"sweep", "--rates", "100", "--schedulers", "fcfs", "--shard", "4/4"}), 2);
}

TEST(MemsimSweep, JsonHasOnePointPerSchedulerAndRateInOrder) {
  const json j = ok_json(memsim({"sweep", "--device", "g2", "--rates", "100,200", "--schedulers",
                                 "fcfs,sptf", "--requests", "200", "--json"}));
  EXPECT_EQ(j["device"], "g2");
  EXPECT_EQ(j["workload"], "random");
  EXPECT_EQ(j["requests_per_point"], 200);
  ASSERT_EQ(j["points"].size(), 4u) << j.dump();
  const char* const scheduler[] = {"fcfs", "fcfs", "sptf", "sptf"};
  const double rate[] = {100, 200, 100, 200};
  for (std::size_t i = 0; i < 4; ++i) {
    const json& p = j["points"][i];
    EXPECT_EQ(p["scheduler"], scheduler[i]);
    EXPECT_EQ(p["rate_per_s"].get<double>(), rate[i]);
    EXPECT_EQ(p["requests"], 200);
    EXPECT_GT(p["mean_response_ms"].get<double>(), 0.0);
    EXPECT_GE(p["p99_response_ms"].get<double>(), p["mean_response_ms"].get<double>());
  }
}

TEST(MemsimSweep, JsonAndCsvAgree) {
  const std::vector<std::string> args = {"sweep", "--rates",    "150", "--schedulers",
                                         "clook", "--requests", "100"};
  std::vector<std::string> with_json = args;
  with_json.push_back("--json");
  const json j = ok_json(memsim(with_json));
  const Result csv = memsim(args);
  ASSERT_EQ(csv.status, 0) << csv.err;
  const std::vector<std::string> l = lines(csv.out);
  ASSERT_EQ(l.size(), 2u) << csv.out;
  char mean[32];
  std::snprintf(mean, sizeof mean, "%.6f", j["points"][0]["mean_response_ms"].get<double>());
  EXPECT_NE(l[1].find(std::string(",") + mean + ","), std::string::npos) << l[1] << " vs " << mean;
}

}  // namespace
