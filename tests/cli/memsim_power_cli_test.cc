// SPDX-License-Identifier: Apache-2.0
// End-to-end tests of memsim's power strategies (issue 20, power paper §5.2):
// the [power] keys switch them, the shaped workloads run, and memsim power
// writes one row per policy with the same requests in every group.
#include "tests/cli/memsim_cli.h"

namespace {

using namespace memsim_cli;

std::vector<std::vector<std::string>> csv_rows(const std::string& text) {
  std::vector<std::vector<std::string>> rows;
  std::istringstream in(text);
  for (std::string line; std::getline(in, line);) {
    std::vector<std::string> cells;
    std::istringstream l(line);
    for (std::string cell; std::getline(l, cell, ',');) cells.push_back(cell);
    rows.push_back(cells);
  }
  return rows;
}

TEST(MemsimPower, MergingJoinsQueuedSequentialRequestsOfTheMobileWorkload) {
  const std::vector<std::string> base = {"run",  "--workload", "mobile", "--requests",
                                         "3000", "--scale",    "8",      "--json"};
  std::vector<std::string> on = base;
  on.insert(on.end(), {"--set", "power.merge_requests=true"});
  const json off_j = ok_json(memsim(base));
  const json on_j = ok_json(memsim(on));
  EXPECT_EQ(off_j["workload"], "mobile");
  EXPECT_EQ(off_j["merged_requests"], 0);
  EXPECT_GT(on_j["merged_requests"].get<int>(), 100);
  EXPECT_EQ(on_j["requests"], off_j["requests"]);
  EXPECT_EQ(on_j["blocks"], off_j["blocks"]);
  EXPECT_LT(on_j["response_ms"]["mean"].get<double>(), off_j["response_ms"]["mean"].get<double>());
}

TEST(MemsimPower, OneRowPerPolicyAndSubsectorNeverRaisesEnergy) {
  const Result r = memsim({"power", "--shapes", "user", "--requests", "1500", "--scales", "1,8",
                           "--timeouts-ms", "-1,10,0"});
  ASSERT_EQ(r.status, 0) << r.err;
  const auto rows = csv_rows(r.out);
  ASSERT_EQ(rows.size(), 1u + 3 + 2 * 4);  // header, the timeouts, 4 policies per scale
  ASSERT_EQ(rows[0][0], "study");
  ASSERT_EQ(rows[0].back(), "total_j");
  const std::size_t total = rows[0].size() - 1;
  // Spinning down at once saves energy against never spinning down.
  EXPECT_LT(std::stod(rows[3][total]), std::stod(rows[1][total]));
  for (std::size_t g = 4; g < rows.size(); g += 4) {
    const double none = std::stod(rows[g][total]);
    const double subsector = std::stod(rows[g + 2][total]);
    EXPECT_EQ(rows[g + 1][4], "1");  // merge
    EXPECT_EQ(rows[g + 2][5], "1");  // subsector
    EXPECT_LT(subsector, none) << "scale " << rows[g][2];
  }
}

TEST(MemsimPower, UnknownShapeAndBadKeyValueNameTheFix) {
  Result r = memsim({"power", "--shapes", "laptop"});
  expect_clean_failure(r, 2);
  EXPECT_NE(r.err.find("--shapes: unknown shape 'laptop'; use user, server or mobile"),
            std::string::npos)
      << r.err;
  r = memsim({"run", "--set", "power.merge_requests=1"});
  expect_clean_failure(r, 2);
  EXPECT_NE(r.err.find("power.merge_requests must be true or false"), std::string::npos) << r.err;
  r = memsim({"power", "--timeouts-ms", "-5"});
  expect_clean_failure(r, 2);
  EXPECT_NE(r.err.find("--timeouts-ms"), std::string::npos) << r.err;
}

// The power paper's Fig. 4 (scripts/reproduce power-fig4): seek times from the centre to
// one access direction's rows. Fixing the direction can only lengthen a row's positioning
// against the best of both, and must for some rows (those the sled would rather read the
// other way); an unknown direction, or one on a one-way device, is refused.
TEST(MemsimPower, SeekProfileInOneDirectionIsNeverSoonerThanTheBest) {
  const std::vector<std::string> base = {"seek-profile", "--device", "tos05", "--from",
                                         "centre",       "--x-step", "250"};
  std::vector<std::string> up = base;
  up.insert(up.end(), {"--direction", "up"});
  const Result best_r = memsim(base);
  const Result up_r = memsim(up);
  ASSERT_EQ(best_r.status, 0) << best_r.err;
  ASSERT_EQ(up_r.status, 0) << up_r.err;
  const auto best = csv_rows(best_r.out);
  const auto one = csv_rows(up_r.out);
  ASSERT_EQ(best.size(), one.size());
  ASSERT_EQ(best.size(), 1u + 10 * 27);
  int longer = 0;
  for (std::size_t i = 1; i < best.size(); ++i) {
    ASSERT_EQ(best[i][1], one[i][1]);
    ASSERT_EQ(best[i][2], one[i][2]);
    EXPECT_GE(std::stod(one[i][3]), std::stod(best[i][3]) - 1e-9) << i;
    if (std::stod(one[i][3]) > std::stod(best[i][3]) + 1e-6) ++longer;
  }
  EXPECT_GT(longer, 0);
  std::vector<std::string> bad = base;
  bad.insert(bad.end(), {"--direction", "sideways"});
  const Result r = memsim(bad);
  expect_clean_failure(r, 2);
  EXPECT_NE(r.err.find("--direction: expected best, up or down"), std::string::npos) << r.err;
  // G1 reads one way only (thesis Table 3.1): a fixed direction would describe nothing.
  const Result g1 = memsim({"seek-profile", "--device", "g1", "--direction", "up"});
  expect_clean_failure(g1, 2);
  EXPECT_NE(g1.err.find("reads in one direction only"), std::string::npos) << g1.err;
}

}  // namespace
