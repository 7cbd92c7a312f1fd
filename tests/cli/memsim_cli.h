// SPDX-License-Identifier: Apache-2.0
// Shared by the memsim command-line tests (docs/memsim.md): run the real
// executable (MEMSIM_PATH) with posix_spawn and look at its stdout, stderr and
// exit status. Test traces and configs live in MEMSIM_TEST_DATA.
#pragma once

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

namespace memsim_cli {

using nlohmann::json;

struct Result {
  int status = -1;        // exit status; 128 + signal if killed by a signal
  bool signaled = false;  // true if memsim crashed
  std::string out;
  std::string err;
};

inline std::string data(const std::string& name) {
  return std::string(MEMSIM_TEST_DATA) + "/" + name;
}

inline std::string slurp(const std::string& path) {
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
inline Result memsim(const std::vector<std::string>& args) {
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

inline Result memsim(std::initializer_list<std::string> args) {
  return memsim(std::vector<std::string>(args));
}

// memsim succeeded and printed JSON; returns it.
inline json ok_json(const Result& r) {
  EXPECT_EQ(r.status, 0) << r.err;
  EXPECT_FALSE(r.signaled);
  return json::parse(r.out, nullptr, /*allow_exceptions=*/false);
}

// memsim failed cleanly (no crash, non-zero status, nothing on stdout, a
// "memsim:"-style message on stderr).
inline void expect_clean_failure(const Result& r, int status) {
  EXPECT_FALSE(r.signaled) << r.err;
  EXPECT_EQ(r.status, status) << r.err;
  EXPECT_FALSE(r.err.empty());
}

inline std::vector<std::string> lines(const std::string& text) {
  std::vector<std::string> out;
  std::istringstream in(text);
  for (std::string l; std::getline(in, l);) out.push_back(l);
  return out;
}

inline constexpr const char* kMetricKeys[] = {"response_ms", "queue_ms",      "service_ms",
                                              "seek_ms",     "seek_x_ms",     "seek_y_ms",
                                              "settle_ms",   "turnaround_ms", "transfer_ms"};

inline void expect_run_shape(const json& j) {
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

}  // namespace memsim_cli
