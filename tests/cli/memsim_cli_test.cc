// SPDX-License-Identifier: Apache-2.0
// End-to-end tests of the memsim command line (docs/memsim.md): each test runs
// the real executable (MEMSIM_PATH) with posix_spawn and checks stdout, stderr
// and the exit status. Test traces and configs live in MEMSIM_TEST_DATA.
#include "tests/cli/memsim_cli.h"

namespace {

using namespace memsim_cli;
// --- geometry ---------------------------------------------------------------

// Every subcommand that prints takes --json (README, docs/memsim.md).
TEST(MemsimJson, EverySubcommandTakesJson) {
  for (const char* cmd : {"geometry", "params", "equiv", "seek", "seek-profile", "run",
                          "subregions", "replay", "sweep", "wbuffer", "array", "paper-array",
                          "power", "merge", "microbench", "large-reads", "tip-rate",
                          "turnarounds"}) {
    const Result r = memsim({cmd, "--help"});
    EXPECT_EQ(r.status, 0) << cmd;
    EXPECT_NE(r.out.find("--json"), std::string::npos) << cmd << " has no --json";
  }
  const json rows = ok_json(memsim({"seek-profile", "--x-step", "1000", "--json"}));
  ASSERT_TRUE(rows.is_array() && !rows.empty()) << rows.dump();
  EXPECT_EQ(rows[0]["from"], "corner");
  EXPECT_TRUE(rows[0]["seek_ms"].is_number());
}

TEST(MemsimGeometry, G2JsonHasThesisValues) {
  json j = ok_json(memsim({"geometry", "--device", "g2", "--json"}));
  EXPECT_EQ(j["p"], 10);
  EXPECT_EQ(j["N"], 100);
  EXPECT_EQ(j["Sx"], 2500);
  EXPECT_EQ(j["Sy"], 27);
  EXPECT_EQ(j["M"], 0);
  EXPECT_EQ(j["Nx"], 10);
  EXPECT_EQ(j["Ny"], 10);
  EXPECT_EQ(j["ST"], 270);
  EXPECT_EQ(j["SC"], 2700);
  EXPECT_EQ(j["sleds"], 1);
  EXPECT_EQ(j["blocks"], 6750000);
  EXPECT_EQ(j["block_size"], 512);
}

TEST(MemsimGeometry, SetActiveTipsDoublesParallelism) {
  json j = ok_json(memsim({"geometry", "--device", "g2", "--set", "active_tips=1280", "--json"}));
  EXPECT_EQ(j["p"], 20);
  EXPECT_EQ(j["Nx"], 20);
  EXPECT_EQ(j["Ny"], 5);
  EXPECT_EQ(j["ST"], 540);
  EXPECT_EQ(j["SC"], 2700);
}

TEST(MemsimGeometry, Fig610ConfigLoads) {
  json j = ok_json(memsim({"geometry", "--config", data("fig610.toml"), "--json"}));
  EXPECT_EQ(j["p"], 3);
  EXPECT_EQ(j["N"], 9);
  EXPECT_EQ(j["Sx"], 3);
  EXPECT_EQ(j["Sy"], 3);
  EXPECT_EQ(j["blocks"], 81);
}

// --- params -----------------------------------------------------------------

TEST(MemsimParams, TomlReadsBackThroughConfig) {
  const Result written =
      memsim({"params", "--set", "active_tips=1280", "--set", "power.idle_timeout_ns=-1"});
  ASSERT_EQ(written.status, 0) << written.err;
  EXPECT_NE(written.out.find("\nactive_tips = 1280\n"), std::string::npos) << written.out;
  TempFile file;
  std::ofstream(file.path()) << written.out;
  // Every key is in the file, so the other preset underneath leaves no trace.
  const Result read = memsim({"params", "--device", "g1", "--config", file.path()});
  ASSERT_EQ(read.status, 0) << read.err;
  EXPECT_EQ(read.out, written.out);
}

TEST(MemsimParams, JsonHasEveryKey) {
  json j = ok_json(memsim({"params", "--device", "g2", "--json"}));
  ASSERT_TRUE(j.is_object());
  EXPECT_EQ(j["active_tips"], 640);
  EXPECT_EQ(j["sled_accel_m_s2"], 803.6);
  EXPECT_EQ(j["bidirectional"], true);
  EXPECT_EQ(j["cylinder_switch"], "seek");
  EXPECT_EQ(j["power"]["idle_timeout_ns"], 100000000);
  EXPECT_EQ(j.size(), 22u);  // 21 keys and the power table
  EXPECT_EQ(j["power"]["merge_requests"], false);
  EXPECT_EQ(j["power"]["subsector"], false);
  EXPECT_EQ(j["power"]["access_all_tips"], false);
  EXPECT_EQ(j["power"].size(), 10u);
}

TEST(MemsimParams, ComparisonDiskIsRejected) {
  const Result r = memsim({"params", "--device", "uberdisk"});
  expect_clean_failure(r, 2);
  EXPECT_TRUE(r.out.empty());
}

// --- equiv ------------------------------------------------------------------

TEST(MemsimEquiv, Fig610Lbn33) {
  json j = ok_json(memsim({"equiv", "--config", data("fig610.toml"), "--lbn", "33", "--json"}));
  EXPECT_EQ(j["lbn"], 33);
  EXPECT_EQ(j["equivalence_class"], json({33, 34, 35, 36, 37, 38, 51, 52, 53}));
  EXPECT_EQ(j["ensemble"], json({27, 35}));
}

TEST(MemsimEquiv, MicropositioningOneSpansThreeCylinders) {
  json j = ok_json(memsim({"equiv", "--config", data("fig610.toml"), "--lbn", "33",
                           "--micropositioning", "1", "--json"}));
  ASSERT_TRUE(j["equivalence_class"].is_array());
  EXPECT_EQ(j["equivalence_class"].size(), 27u);
  EXPECT_EQ(j["ensemble"], json({27, 35}));
}

TEST(MemsimEquiv, HugeMicropositioningDoesNotCrash) {
  const Result r = memsim({"equiv", "--config", data("fig610.toml"), "--lbn", "33",
                           "--micropositioning", "2147483647", "--json"});
  EXPECT_FALSE(r.signaled) << r.err;
  EXPECT_NE(r.status, 0);
  EXPECT_NE(r.err.find("--micropositioning"), std::string::npos) << r.err;
}

// --- usage errors ------------------------------------------------------------

TEST(MemsimUsage, AnUnknownCommandIsNamedWithTheCommandsThereAre) {
  const Result r = memsim({"frob"});
  EXPECT_EQ(r.status, 2);
  EXPECT_NE(r.err.find("memsim: unknown command 'frob'; use one of geometry, "), std::string::npos)
      << r.err;
  EXPECT_NE(r.err.find("wbuffer"), std::string::npos) << r.err;
}

TEST(MemsimUsage, AFileThatCannotBeReadSaysWhy) {
  const Result r = memsim({"merge", "/nonexistent/shard.csv"});
  EXPECT_NE(r.status, 0);
  EXPECT_NE(r.err.find("merge: cannot read '/nonexistent/shard.csv': No such file or directory"),
            std::string::npos)
      << r.err;
}

// --- seek -------------------------------------------------------------------

TEST(MemsimSeek, PositioningIsMaxOfXAndY) {
  for (const auto& [from, to] : {std::pair{"0", "6749999"}, std::pair{"1000", "1000"},
                                 std::pair{"5000000", "12345"}, std::pair{"0", "270"}}) {
    json j =
        ok_json(memsim({"seek", "--device", "g2", "--from-lbn", from, "--to-lbn", to, "--json"}));
    for (const char* key : {"seek_ms", "seek_x_ms", "settle_ms", "seek_y_ms", "turnaround_ms"}) {
      ASSERT_TRUE(j.contains(key) && j[key].is_number()) << key;
    }
    const double x = j["seek_x_ms"].get<double>() + j["settle_ms"].get<double>();
    const double y = j["seek_y_ms"].get<double>() + j["turnaround_ms"].get<double>();
    EXPECT_NEAR(j["seek_ms"].get<double>(), std::max(x, y), 1e-9) << from << " -> " << to;
  }
}

// --- run --------------------------------------------------------------------

TEST(MemsimRun, JsonHasEveryMetric) {
  json j = ok_json(memsim({"run", "--device", "g2", "--workload", "random", "--requests", "500",
                           "--interarrival-ms", "5", "--mean-size-kb", "4", "--read-fraction",
                           "0.67", "--scheduler", "sptf", "--seed", "7", "--json"}));
  expect_run_shape(j);
  EXPECT_EQ(j["requests"], 500);
}

TEST(MemsimRun, SameSeedSameBytes) {
  const auto run = [] {
    return memsim({"run", "--requests", "300", "--scheduler", "clook", "--seed", "42", "--json"});
  };
  const Result a = run();
  const Result b = run();
  ASSERT_EQ(a.status, 0) << a.err;
  ASSERT_EQ(b.status, 0) << b.err;
  EXPECT_EQ(a.out, b.out);
}

TEST(MemsimRun, DifferentSeedDiffers) {
  const Result a = memsim({"run", "--requests", "300", "--seed", "1", "--json"});
  const Result b = memsim({"run", "--requests", "300", "--seed", "2", "--json"});
  ASSERT_EQ(a.status, 0) << a.err;
  ASSERT_EQ(b.status, 0) << b.err;
  EXPECT_NE(a.out, b.out);
}

TEST(MemsimRun, CsvHasHeaderAndOneRowPerMetric) {
  const Result r = memsim({"run", "--requests", "200", "--seed", "3", "--csv"});
  ASSERT_EQ(r.status, 0) << r.err;
  const std::vector<std::string> l = lines(r.out);
  ASSERT_EQ(l.size(), 1 + std::size(kMetricKeys));
  EXPECT_EQ(l[0], "metric,mean,sd,p50,p99,max");
  for (std::size_t i = 0; i < std::size(kMetricKeys); ++i) {
    EXPECT_EQ(l[i + 1].rfind(std::string(kMetricKeys[i]) + ",", 0), 0u) << l[i + 1];
  }
}

TEST(MemsimRun, WrittenTraceReplaysToTheSameResults) {
  TempFile trace;
  json run = ok_json(memsim({"run", "--requests", "300", "--interarrival-ms", "2", "--seed", "5",
                             "--write-trace", trace.path(), "--json"}));
  const std::vector<std::string> l = lines(slurp(trace.path()));
  ASSERT_EQ(l.size(), 300u);
  EXPECT_EQ(l[0].rfind("0.000000 0 ", 0), 0u) << l[0];
  json replay = ok_json(memsim({"replay", "--trace", trace.path(), "--json"}));
  EXPECT_EQ(run["workload"], "random");
  EXPECT_EQ(replay["workload"], trace.path());
  run.erase("workload");
  replay.erase("workload");
  EXPECT_EQ(run, replay);
}

TEST(MemsimRun, ThreadsGiveTheSameOutputAndTrace) {
  // Each kind of workload: Random (with the trace it writes), shaped, files.
  const std::vector<std::vector<std::string>> runs = {
      {"run", "--requests", "5000", "--interarrival-ms", "1", "--json"},
      {"run", "--workload", "mobile", "--scale", "4", "--requests", "3000", "--json"},
      {"run", "--layout", "organ-pipe", "--requests", "3000", "--csv"}};
  for (const std::vector<std::string>& args : runs) {
    std::vector<std::string> one = args;
    one.insert(one.end(), {"--threads", "1"});
    const Result plain = memsim(one);
    ASSERT_EQ(plain.status, 0) << plain.err;
    for (const char* threads : {"2", "3"}) {
      std::vector<std::string> more = args;
      more.insert(more.end(), {"--threads", threads});
      EXPECT_EQ(memsim(more).out, plain.out) << args[2] << " " << threads;
    }
    EXPECT_EQ(memsim(args).out, plain.out) << args[2];
  }
  TempFile one, two;
  ok_json(memsim(
      {"run", "--requests", "3000", "--threads", "1", "--write-trace", one.path(), "--json"}));
  ok_json(memsim({"run", "--requests", "3000", "--write-trace", two.path(), "--json"}));
  EXPECT_EQ(slurp(one.path()), slurp(two.path()));
  expect_clean_failure(memsim({"run", "--requests", "10", "--threads", "4"}), 2);
}

TEST(MemsimRun, UnwritableTraceIsARuntimeError) {
  const Result r =
      memsim({"run", "--requests", "10", "--write-trace", "/nonexistent-memsim-dir/t", "--json"});
  expect_clean_failure(r, 1);
  EXPECT_TRUE(r.out.empty());
  EXPECT_NE(r.err.find("--write-trace"), std::string::npos) << r.err;
}

TEST(MemsimRun, BadArgumentsLeaveNoTraceFile) {
  // Checked before the file is opened: no empty file is left behind...
  std::string path;
  {
    const TempFile t;
    path = t.path() + ".trace";  // a fresh name in the temporary directory
  }
  const std::vector<std::string> bad[] = {{"--interarrival-ms", "-1"}, {"--mean-size-kb", "0"},
                                          {"--scheduler", "elevator"}, {"--device", "g9"},
                                          {"--set", "tips=-1"},        {"--workload", "zipf"}};
  for (const auto& args : bad) {
    std::vector<std::string> argv{"run", "--requests", "10", "--write-trace", path};
    argv.insert(argv.end(), args.begin(), args.end());
    SCOPED_TRACE(args.front());
    const Result r = memsim(argv);
    expect_clean_failure(r, 2);
    EXPECT_TRUE(r.out.empty());
    std::FILE* f = std::fopen(path.c_str(), "rb");
    EXPECT_EQ(f, nullptr) << "memsim left " << path << " behind";
    if (f != nullptr) {
      std::fclose(f);
      std::remove(path.c_str());
    }
  }
  // ... and an existing file is not truncated.
  const TempFile existing;
  {
    std::ofstream out(existing.path(), std::ios::binary);
    out << "keep me\n";
  }
  const Result r = memsim(
      {"run", "--requests", "10", "--interarrival-ms", "0", "--write-trace", existing.path()});
  expect_clean_failure(r, 2);
  EXPECT_EQ(slurp(existing.path()), "keep me\n");
}

// --- sweep: memsim_sweep_cli_test.cc --------------------------------------

// --- layouts (issue 20) ---------------------------------------------------------

TEST(MemsimLayout, EveryLayoutRunsTheSameFilesAndTheCentreLayoutsPositionFaster) {
  double random_seek = 0;
  for (const char* layout : {"random", "organ-pipe", "subregioned", "columnar", "bipartite"}) {
    json j = ok_json(memsim({"run", "--layout", layout, "--requests", "2000", "--set",
                             "power.idle_timeout_ns=-1", "--json"}));
    expect_run_shape(j);
    EXPECT_EQ(j["requests"], 2000);
    EXPECT_EQ(j["reads"], 2000);
    const double seek = j["seek_ms"]["mean"].get<double>();
    if (std::string(layout) == "random") {
      random_seek = seek;
    } else {
      EXPECT_LT(seek, 0.9 * random_seek) << layout;
    }
  }
  expect_clean_failure(memsim({"run", "--layout", "spiral"}), 2);
  expect_clean_failure(memsim({"run", "--layout", "organ-pipe", "--popularity-mean", "2"}), 2);
  expect_clean_failure(memsim({"run", "--layout", "columnar", "--workload", "random"}), 2);
  expect_clean_failure(memsim({"run", "--layout", "columnar", "--device", "uberdisk"}), 2);
}

// Fig. 6.7 is a map of service time: the command's figure column is
// mean_service_ms, and it carries each request's media transfer on top of
// positioning (a 4 KB request is at least one 0.129 ms media step, thesis
// §2.2), which a map of positioning time would not.
TEST(MemsimLayout, SubregionMapReportsServiceTimeWithAFastCentre) {
  const Result r = memsim({"subregions", "--requests", "300"});
  ASSERT_EQ(r.status, 0) << r.err;
  const std::vector<std::string> l = lines(r.out);
  ASSERT_EQ(l.size(), 26u) << r.out;
  EXPECT_EQ(l[0],
            "cx,cy,x_begin,x_end,y_begin,y_end,requests,mean_blocks,mean_service_ms,mean_seek_ms,"
            "mean_seek_x_ms,mean_seek_y_ms,mean_transfer_ms");
  const auto field = [&l](int cx, int cy, int column) {
    std::istringstream row(l[1 + cy * 5 + cx]);
    std::string f;
    for (int i = 0; i <= column; ++i) std::getline(row, f, ',');
    return std::stod(f);
  };
  constexpr int kService = 8, kSeek = 9;
  for (int cy = 0; cy < 5; ++cy) {
    for (int cx = 0; cx < 5; ++cx) {
      EXPECT_GE(field(cx, cy, kService), field(cx, cy, kSeek) + 0.129) << cx << "," << cy;
    }
  }
  EXPECT_LT(field(2, 2, kService), field(0, 0, kService));
  EXPECT_LT(field(2, 2, kService), field(4, 4, kService));
  expect_clean_failure(memsim({"subregions", "--mean-size-kb", "100"}), 2);
}

// A row of the seek profile is the seek `memsim seek` reports for the same
// LBNs: from the corner (LBN 0) to cylinder 1250's first row (LBN 1250 * SC).
TEST(MemsimSeekProfile, RowsAgreeWithMemsimSeek) {
  const Result profile = memsim({"seek-profile", "--from", "corner", "--x-step", "250"});
  ASSERT_EQ(profile.status, 0) << profile.err;
  const std::vector<std::string> l = lines(profile.out);
  ASSERT_EQ(l.size(), 1u + 10 * 27) << profile.out;
  const std::string prefix = "corner,1250,0,";
  const auto row = std::find_if(l.begin(), l.end(),
                                [&](const std::string& s) { return s.rfind(prefix, 0) == 0; });
  ASSERT_NE(row, l.end());
  json seek = ok_json(
      memsim({"seek", "--from-lbn", "0", "--to-lbn", std::to_string(1250 * 2700), "--json"}));
  EXPECT_NEAR(std::stod(row->substr(prefix.size())), seek["seek_ms"].get<double>(), 1e-6);
  expect_clean_failure(memsim({"seek-profile", "--from", "edge"}), 2);
}

// Thesis Fig. 6.8 (sim/large_reads.h): one row per 256 KB read, its service
// time the sum of positioning and media time, the X distance on the media.
TEST(MemsimLargeReads, OneRowPerReadServiceIsSeekPlusMedia) {
  const json rows = ok_json(memsim({"large-reads", "--requests", "100", "--json"}));
  ASSERT_TRUE(rows.is_array());
  ASSERT_EQ(rows.size(), 100u);
  for (const json& r : rows) {
    EXPECT_NEAR(r["service_ms"].get<double>(),
                r["seek_ms"].get<double>() + r["media_ms"].get<double>(), 1e-5);
    EXPECT_GE(r["x_distance_cylinders"].get<int>(), 0);
    EXPECT_LT(r["x_distance_cylinders"].get<int>(), 2500);
  }
  expect_clean_failure(memsim({"large-reads", "--size-kb", "0"}), 2);
  expect_clean_failure(memsim({"large-reads", "--device", "uberdisk"}), 2);
  expect_clean_failure(
      memsim({"large-reads", "--device", "atlas10k", "--set", "spring_factor=0"}), 2);
}

// Fig. 6.8's disk half: the same reads on the Atlas 10K, X distance in its cylinders.
TEST(MemsimLargeReads, DiskRowsCountTheArmsCylinders) {
  const json rows =
      ok_json(memsim({"large-reads", "--device", "atlas10k", "--requests", "50", "--json"}));
  ASSERT_EQ(rows.size(), 50u);
  int beyond_g2 = 0;
  for (const json& r : rows) {
    EXPECT_NEAR(r["service_ms"].get<double>(),
                r["seek_ms"].get<double>() + r["media_ms"].get<double>(), 1e-5);
    beyond_g2 += r["x_distance_cylinders"].get<int>() >= 2500;
  }
  EXPECT_GT(beyond_g2, 0);  // the Atlas 10K has about 10,000 cylinders
}

// Fig. 5.1: "Requests were issued every 50 ms": with --arrivals constant no G2
// request waits (each is served in under 3 ms); with Poisson arrivals some do.
TEST(MemsimRun, ConstantArrivalsNeverQueueAtFiftyMs) {
  const json constant = ok_json(memsim({"run", "--requests", "2000", "--arrivals", "constant",
                                        "--interarrival-ms", "50", "--json"}));
  EXPECT_EQ(constant["queue_ms"]["max"].get<double>(), 0.0);
  const json poisson = ok_json(memsim({"run", "--requests", "2000", "--json"}));
  EXPECT_GT(poisson["queue_ms"]["max"].get<double>(), 0.0);
  expect_clean_failure(memsim({"run", "--arrivals", "uniform"}), 2);
}

// --- replay -----------------------------------------------------------------

TEST(MemsimReplay, DiskSimTrace) {
  json j = ok_json(
      memsim({"replay", "--trace", data("small.disksim"), "--format", "disksim", "--json"}));
  expect_run_shape(j);
  EXPECT_EQ(j["requests"], 5);
  EXPECT_EQ(j["reads"], 3);
}

TEST(MemsimReplay, SpcTrace) {
  json j = ok_json(memsim({"replay", "--trace", data("small.spc"), "--format", "spc", "--json"}));
  expect_run_shape(j);
  EXPECT_EQ(j["requests"], 4);
  EXPECT_EQ(j["reads"], 2);
}

TEST(MemsimReplay, ThreadsGiveTheSameOutput) {
  // 5000 requests: several of the pipeline's batches of 1024, and a partial one.
  TempFile trace;
  ok_json(memsim({"run", "--requests", "5000", "--interarrival-ms", "1", "--seed", "3",
                  "--write-trace", trace.path(), "--json"}));
  const Result one = memsim({"replay", "--trace", trace.path(), "--threads", "1", "--json"});
  ASSERT_EQ(one.status, 0) << one.err;
  for (const char* threads : {"2", "3"}) {
    const Result r = memsim({"replay", "--trace", trace.path(), "--threads", threads, "--json"});
    EXPECT_EQ(r.out, one.out) << threads;
  }
  EXPECT_EQ(memsim({"replay", "--trace", trace.path(), "--json"}).out, one.out);
  EXPECT_EQ(memsim({"replay", "--trace", trace.path(), "--threads", "2", "--csv"}).out,
            memsim({"replay", "--trace", trace.path(), "--threads", "1", "--csv"}).out);
  EXPECT_EQ(memsim({"replay", "--trace", trace.path(), "--threads", "2"}).out,
            memsim({"replay", "--trace", trace.path(), "--threads", "1"}).out);
  expect_clean_failure(memsim({"replay", "--trace", trace.path(), "--threads", "0"}), 2);
}

TEST(MemsimReplay, ScaleKeepsRequestCount) {
  json j = ok_json(memsim({"replay", "--trace", data("small.disksim"), "--format", "disksim",
                           "--scale", "4", "--json"}));
  EXPECT_EQ(j["requests"], 5);
}

// --- errors -----------------------------------------------------------------

TEST(MemsimErrors, UnknownDevice) {
  const Result r = memsim({"geometry", "--device", "g9"});
  expect_clean_failure(r, 2);
  EXPECT_NE(r.err.find("g9"), std::string::npos) << r.err;
  EXPECT_NE(r.err.find("--device"), std::string::npos) << r.err;
}

TEST(MemsimErrors, UnknownScheduler) {
  const Result r = memsim({"run", "--requests", "10", "--scheduler", "elevator"});
  expect_clean_failure(r, 2);
  EXPECT_NE(r.err.find("elevator"), std::string::npos) << r.err;
  EXPECT_NE(r.err.find("--scheduler"), std::string::npos) << r.err;
}

TEST(MemsimErrors, SetUnknownKeyNamesTheKey) {
  const Result r = memsim({"geometry", "--set", "warp_factor=9"});
  expect_clean_failure(r, 2);
  EXPECT_NE(r.err.find("warp_factor"), std::string::npos) << r.err;
}

TEST(MemsimErrors, SetActiveTipsAboveTipsNamesActiveTips) {
  const Result r = memsim({"geometry", "--set", "active_tips=7000"});
  expect_clean_failure(r, 2);
  EXPECT_NE(r.err.find("active_tips"), std::string::npos) << r.err;
}

TEST(MemsimErrors, ConfigWithBadValueType) {
  const Result r = memsim({"geometry", "--config", data("bad_type.toml")});
  expect_clean_failure(r, 2);
  EXPECT_NE(r.err.find("active_tips"), std::string::npos) << r.err;
  // Line 3: after the SPDX line and the comment.
  EXPECT_NE(r.err.find("bad_type.toml:3"), std::string::npos) << r.err;
}

TEST(MemsimErrors, ReadFractionAboveOne) {
  const Result r = memsim({"run", "--requests", "10", "--read-fraction", "2"});
  expect_clean_failure(r, 2);
  EXPECT_NE(r.err.find("--read-fraction"), std::string::npos) << r.err;
}

TEST(MemsimErrors, LbnBeyondCapacity) {
  const Result r = memsim({"equiv", "--device", "g2", "--lbn", "6750000"});
  expect_clean_failure(r, 2);
  EXPECT_NE(r.err.find("--lbn"), std::string::npos) << r.err;
  EXPECT_NE(r.err.find("6749999"), std::string::npos) << r.err;
}

TEST(MemsimErrors, SeekLbnBeyondCapacity) {
  const Result r = memsim({"seek", "--from-lbn", "0", "--to-lbn", "-1"});
  expect_clean_failure(r, 2);
  EXPECT_NE(r.err.find("--to-lbn"), std::string::npos) << r.err;
}

TEST(MemsimErrors, ReplayMissingFile) {
  const Result r = memsim({"replay", "--trace", data("no_such_trace.disksim")});
  expect_clean_failure(r, 1);
  EXPECT_NE(r.err.find("no_such_trace.disksim"), std::string::npos) << r.err;
}

TEST(MemsimErrors, ReplayDirectoryIsRefusedCleanly) {
  // A directory opens as a stream; reading it used to abort with an
  // uncaught std::ios_failure.
  const std::string dir = std::filesystem::temp_directory_path().string();
  const Result r = memsim({"replay", "--trace", dir});
  expect_clean_failure(r, 2);
  EXPECT_NE(r.err.find("is a directory"), std::string::npos) << r.err;
}

TEST(MemsimErrors, ReplayMalformedLineNamesTheLine) {
  const Result r = memsim({"replay", "--trace", data("malformed_line3.disksim")});
  expect_clean_failure(r, 1);
  EXPECT_NE(r.err.find("line 3"), std::string::npos) << r.err;
  EXPECT_TRUE(r.out.empty()) << r.out;
}

TEST(MemsimErrors, ReplayMalformedLineIsTheSameOnEveryThreadCount) {
  for (const char* threads : {"1", "2", "3"}) {
    const Result r =
        memsim({"replay", "--trace", data("malformed_line3.disksim"), "--threads", threads});
    expect_clean_failure(r, 1);
    EXPECT_EQ(r.err, memsim({"replay", "--trace", data("malformed_line3.disksim")}).err);
    EXPECT_TRUE(r.out.empty()) << r.out;
  }
}

TEST(MemsimErrors, ReplayUnknownFormat) {
  const Result r = memsim({"replay", "--trace", data("small.spc"), "--format", "csv"});
  expect_clean_failure(r, 2);
  EXPECT_NE(r.err.find("--format"), std::string::npos) << r.err;
}

TEST(MemsimErrors, SweepUnknownSchedulerPrintsNoCsv) {
  const Result r =
      memsim({"sweep", "--rates", "100", "--schedulers", "fcfs,elevator", "--requests", "10"});
  expect_clean_failure(r, 2);
  EXPECT_NE(r.err.find("elevator"), std::string::npos) << r.err;
  EXPECT_TRUE(r.out.empty()) << r.out;
}

TEST(MemsimErrors, ZeroRequestsSaysPositive) {
  const Result r = memsim({"run", "--requests", "0"});
  expect_clean_failure(r, 2);
  EXPECT_NE(r.err.find("--requests"), std::string::npos) << r.err;
  EXPECT_NE(r.err.find("positive"), std::string::npos) << r.err;
}

TEST(MemsimErrors, GeometryOfComparisonDisk) {
  const Result r = memsim({"geometry", "--device", "uberdisk"});
  expect_clean_failure(r, 2);
  EXPECT_NE(r.err.find("comparison disk"), std::string::npos) << r.err;
}

TEST(MemsimErrors, MissingConfigFile) {
  const Result r = memsim({"geometry", "--config", data("no_such_config.toml")});
  expect_clean_failure(r, 2);
  EXPECT_NE(r.err.find("--config"), std::string::npos) << r.err;
}

TEST(MemsimErrors, MissingSubcommand) {
  const Result r = memsim({});
  expect_clean_failure(r, 2);
}

}  // namespace
