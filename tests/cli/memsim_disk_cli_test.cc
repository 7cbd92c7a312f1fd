// SPDX-License-Identifier: Apache-2.0
// End-to-end tests of memsim with the zoned disks (issue 19, docs/disk-models.md):
// --device atlas10k and disk20k run, take their --set keys, and print their parameters.
#include "tests/cli/memsim_cli.h"

namespace {

using namespace memsim_cli;

TEST(MemsimDisks, Atlas10kRunsAtDiskSpeed) {
  const json j = ok_json(memsim(
      {"run", "--device", "atlas10k", "--requests", "300", "--interarrival-ms", "50", "--json"}));
  EXPECT_EQ(j["device"], "atlas10k");
  EXPECT_EQ(j["requests"], 300);
  // Random 4 KB on a 10,025 rpm disk: a seek of a few ms and half a 6 ms revolution.
  EXPECT_GT(j["service_ms"]["mean"].get<double>(), 5.0);
  EXPECT_LT(j["service_ms"]["mean"].get<double>(), 15.0);
}

TEST(MemsimDisks, Disk20kIsFasterThanTheAtlas) {
  const std::vector<std::string> run = {"run", "--requests", "300",     "--interarrival-ms",
                                        "50",  "--json",     "--device"};
  auto with = [&](const char* device) {
    std::vector<std::string> args = run;
    args.emplace_back(device);
    return ok_json(memsim(args))["service_ms"]["mean"].get<double>();
  };
  EXPECT_LT(with("disk20k"), with("atlas10k"));
}

TEST(MemsimDisks, SetTurnsTheCacheOffAndRejectsUnknownKeys) {
  const json j = ok_json(memsim({"params", "--device", "atlas10k", "--set", "cache_segments=0",
                                 "--set", "write_back=false", "--json"}));
  EXPECT_EQ(j["cache"]["segments"], 0);
  EXPECT_EQ(j["cache"]["write_back"], false);
  EXPECT_EQ(j["rotation_rpm"], 10025.0);
  EXPECT_EQ(j["zones"][0]["sectors_per_track"], 334);
  const Result r = memsim({"run", "--device", "atlas10k", "--set", "cache_segment=3"});
  expect_clean_failure(r, 2);
  EXPECT_NE(r.err.find("unknown key 'cache_segment'"), std::string::npos) << r.err;
}

// Seed 003's Fig. 5 microbenchmark: one CSV row per device, the paper's five by default.
TEST(MemsimDisks, MicrobenchRunsFig5sDevicesInOrder) {
  const Result r = memsim({"microbench", "--requests", "300"});
  ASSERT_EQ(r.status, 0) << r.err;
  std::istringstream lines(r.out);
  std::string line;
  std::getline(lines, line);
  EXPECT_EQ(line.rfind("device,requests,reads,mean_response_ms,sd_response_ms,", 0), 0u) << line;
  std::vector<std::string> devices;
  while (std::getline(lines, line)) {
    devices.push_back(line.substr(0, line.find(',')));
    EXPECT_NE(line.find(",300,"), std::string::npos) << line;
  }
  EXPECT_EQ(devices, (std::vector<std::string>{"cheetah4lp", "superdisk", "asplos99-g1",
                                               "asplos99-g2", "asplos99-g3"}));
  const Result one = memsim({"microbench", "--requests", "100", "--devices", "g2"});
  ASSERT_EQ(one.status, 0) << one.err;
  EXPECT_EQ(std::count(one.out.begin(), one.out.end(), '\n'), 2);
  const Result bad = memsim({"microbench", "--devices", "g2,cheetah"});
  expect_clean_failure(bad, 2);
  EXPECT_EQ(bad.out, "");  // no partial CSV
  EXPECT_NE(bad.err.find("unknown device 'cheetah'"), std::string::npos) << bad.err;
}

}  // namespace
