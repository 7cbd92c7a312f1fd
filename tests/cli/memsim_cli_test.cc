// End-to-end tests of the memsim command line (docs/memsim.md): each test runs
// the real executable (MEMSIM_PATH) with posix_spawn and checks stdout, stderr
// and the exit status. Test traces and configs live in MEMSIM_TEST_DATA.
#include <fcntl.h>
#include <gtest/gtest.h>
#include <spawn.h>
#include <sys/wait.h>
#include <unistd.h>

#include <algorithm>
#include <cerrno>
#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <initializer_list>
#include <iterator>
#include <nlohmann/json.hpp>
#include <sstream>
#include <string>
#include <utility>
#include <vector>

extern char** environ;

namespace {

using nlohmann::json;

struct Result {
  int status = -1;        // exit status; 128 + signal if killed by a signal
  bool signaled = false;  // true if memsim crashed
  std::string out;
  std::string err;
};

std::string data(const std::string& name) {
  return std::string(MEMSIM_TEST_DATA) + "/" + name;
}

std::string slurp(const std::string& path) {
  std::ifstream in(path, std::ios::binary);
  std::ostringstream s;
  s << in.rdbuf();
  return s.str();
}

// A temporary file removed when the object goes out of scope.
class TempFile {
 public:
  TempFile() {
    const char* dir = std::getenv("TMPDIR");
    path_ = std::string(dir != nullptr && *dir != '\0' ? dir : "/tmp") + "/memsim_cli_XXXXXX";
    const int fd = mkstemp(path_.data());
    if (fd >= 0) close(fd);
  }
  ~TempFile() { std::remove(path_.c_str()); }
  TempFile(const TempFile&) = delete;
  TempFile& operator=(const TempFile&) = delete;
  const std::string& path() const { return path_; }

 private:
  std::string path_;
};

// Runs memsim with `args`; stdout and stderr go to temporary files.
Result memsim(const std::vector<std::string>& args) {
  std::vector<std::string> argv_s{MEMSIM_PATH};
  argv_s.insert(argv_s.end(), args.begin(), args.end());
  std::vector<char*> argv;
  for (std::string& a : argv_s) argv.push_back(a.data());
  argv.push_back(nullptr);

  TempFile out;
  TempFile err;
  posix_spawn_file_actions_t actions;
  posix_spawn_file_actions_init(&actions);
  posix_spawn_file_actions_addopen(&actions, STDIN_FILENO, "/dev/null", O_RDONLY, 0);
  posix_spawn_file_actions_addopen(&actions, STDOUT_FILENO, out.path().c_str(), O_WRONLY | O_TRUNC,
                                   0);
  posix_spawn_file_actions_addopen(&actions, STDERR_FILENO, err.path().c_str(), O_WRONLY | O_TRUNC,
                                   0);
  Result r;
  pid_t pid = 0;
  const int rc = posix_spawn(&pid, argv[0], &actions, nullptr, argv.data(), environ);
  posix_spawn_file_actions_destroy(&actions);
  if (rc != 0) {
    ADD_FAILURE() << "cannot run " << MEMSIM_PATH << ": error " << rc;
    return r;
  }
  int wstatus = 0;
  while (waitpid(pid, &wstatus, 0) < 0 && errno == EINTR) {
  }
  if (WIFEXITED(wstatus)) {
    r.status = WEXITSTATUS(wstatus);
  } else if (WIFSIGNALED(wstatus)) {
    r.signaled = true;
    r.status = 128 + WTERMSIG(wstatus);
  }
  r.out = slurp(out.path());
  r.err = slurp(err.path());
  return r;
}

Result memsim(std::initializer_list<std::string> args) {
  return memsim(std::vector<std::string>(args));
}

// memsim succeeded and printed JSON; returns it.
json ok_json(const Result& r) {
  EXPECT_EQ(r.status, 0) << r.err;
  EXPECT_FALSE(r.signaled);
  return json::parse(r.out, nullptr, /*allow_exceptions=*/false);
}

// memsim failed cleanly (no crash, non-zero status, nothing on stdout, a
// "memsim:"-style message on stderr).
void expect_clean_failure(const Result& r, int status) {
  EXPECT_FALSE(r.signaled) << r.err;
  EXPECT_EQ(r.status, status) << r.err;
  EXPECT_FALSE(r.err.empty());
}

std::vector<std::string> lines(const std::string& text) {
  std::vector<std::string> out;
  std::istringstream in(text);
  for (std::string l; std::getline(in, l);) out.push_back(l);
  return out;
}

constexpr const char* kMetricKeys[] = {"response_ms", "queue_ms",      "service_ms",
                                       "seek_ms",     "seek_x_ms",     "seek_y_ms",
                                       "settle_ms",   "turnaround_ms", "transfer_ms"};

void expect_run_shape(const json& j) {
  ASSERT_TRUE(j.is_object());
  for (const char* key : kMetricKeys) {
    ASSERT_TRUE(j.contains(key)) << key;
    for (const char* field : {"mean", "sd", "p50", "p99", "max"}) {
      EXPECT_TRUE(j[key].contains(field) && j[key][field].is_number()) << key << "." << field;
    }
  }
  EXPECT_GT(j.value("throughput_iops", 0.0), 0.0);
  ASSERT_TRUE(j.contains("energy_j"));
  for (const char* state : {"inactive", "idle", "seek", "access", "startup", "total"}) {
    EXPECT_TRUE(j["energy_j"].contains(state) && j["energy_j"][state].is_number()) << state;
  }
}

// --- geometry ---------------------------------------------------------------

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
  EXPECT_EQ(j["power"].size(), 7u);
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

// --- sweep ------------------------------------------------------------------

TEST(MemsimSweep, OneCsvRowPerSchedulerAndRateInOrder) {
  const Result r = memsim({"sweep", "--device", "g2", "--workload", "random", "--rates", "100,200",
                           "--schedulers", "fcfs,sptf", "--requests", "200"});
  ASSERT_EQ(r.status, 0) << r.err;
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

TEST(MemsimLayout, SubregionMapHasTwentyFiveCellsAndAFastCentre) {
  const Result r = memsim({"subregions", "--requests", "300"});
  ASSERT_EQ(r.status, 0) << r.err;
  const std::vector<std::string> l = lines(r.out);
  ASSERT_EQ(l.size(), 26u) << r.out;
  EXPECT_EQ(l[0].rfind("cx,cy,x_begin,x_end,y_begin,y_end,requests,mean_seek_ms", 0), 0u);
  const auto seek = [&l](int cx, int cy) {
    std::istringstream row(l[1 + cy * 5 + cx]);
    std::string field;
    for (int i = 0; i < 8; ++i) std::getline(row, field, ',');
    return std::stod(field);
  };
  EXPECT_LT(seek(2, 2), seek(0, 0));
  EXPECT_LT(seek(2, 2), seek(4, 4));
  expect_clean_failure(memsim({"subregions", "--size-kb", "100"}), 2);
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
  EXPECT_NE(r.err.find("bad_type.toml:2"), std::string::npos) << r.err;
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
