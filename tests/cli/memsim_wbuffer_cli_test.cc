// End-to-end tests of memsim wbuffer (issue 19; Wang and Brandt's MEMS write buffer): the
// synthetic write-heavy load keeps the paper's ordering with the gap widening as it is
// replayed faster, a trace replays at each speedup, and bad flags name the fix.
#include "tests/cli/memsim_cli.h"

namespace {

using namespace memsim_cli;

double mean_ms(const json& run, const char* system) {
  return run[system]["response_ms"];
}

TEST(MemsimWbuffer, TheOrderingHoldsAndTheGapWidensWithTheSpeedup) {
  const json j = ok_json(memsim({"wbuffer", "--requests", "3000", "--speedups", "1,16", "--json"}));
  ASSERT_EQ(j["runs"].size(), 2u);
  EXPECT_EQ(j["workload"], "random");
  EXPECT_EQ(j["requests"], 3000);
  for (const json& run : j["runs"]) EXPECT_EQ(run["ordering_holds"], true) << run.dump();
  const double gap1 = mean_ms(j["runs"][0], "disk") - mean_ms(j["runs"][0], "disk_with_buffer");
  const double gap16 = mean_ms(j["runs"][1], "disk") - mean_ms(j["runs"][1], "disk_with_buffer");
  EXPECT_GT(gap16, gap1);
}

TEST(MemsimWbuffer, ATraceReplaysAtEachSpeedup) {
  const json j = ok_json(
      memsim({"wbuffer", "--trace", data("small.disksim"), "--speedups", "1,16", "--json"}));
  EXPECT_EQ(j["workload"], data("small.disksim"));
  EXPECT_FALSE(j.contains("read_fraction"));  // a trace's shape is its own
  ASSERT_EQ(j["runs"].size(), 2u);
  for (const json& run : j["runs"]) {
    // Every request of the trace, in each of the three systems.
    EXPECT_EQ(run["disk"]["requests"], j["requests"]);
    EXPECT_EQ(run["disk_with_buffer"]["requests"], j["requests"]);
    EXPECT_EQ(run["mems"]["requests"], j["requests"]);
  }
  EXPECT_GT(j["requests"].get<int>(), 0);
  const Result csv = memsim({"wbuffer", "--trace", data("small.disksim"), "--speedups", "4"});
  ASSERT_EQ(csv.status, 0) << csv.err;
  EXPECT_NE(csv.out.find("\n4,0,"), std::string::npos) << csv.out;
}

TEST(MemsimWbuffer, BadTracesNameTheFix) {
  Result r = memsim({"wbuffer", "--trace", "/nonexistent.trace"});
  expect_clean_failure(r, 1);
  EXPECT_NE(r.err.find("--trace: cannot open /nonexistent.trace"), std::string::npos) << r.err;
  r = memsim({"wbuffer", "--trace", data("small.disksim"), "--trace-format", "csv"});
  expect_clean_failure(r, 2);
  EXPECT_NE(r.err.find("--trace-format must be disksim or spc"), std::string::npos) << r.err;
  r = memsim({"wbuffer", "--trace", data("malformed_line3.disksim")});
  expect_clean_failure(r, 1);
  EXPECT_NE(r.err.find("malformed_line3.disksim"), std::string::npos) << r.err;
}

}  // namespace
