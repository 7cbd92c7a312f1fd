// SPDX-License-Identifier: Apache-2.0
// A configuration written back as TOML (memsctl admin save) reads back to
// the same configuration: every key of the every-key example, CHAP secrets
// as given, and a file only its owner may read.
#include "target/daemon/config_save.h"

#include <gmock/gmock.h>
#include <gtest/gtest.h>
#include <sys/stat.h>

#include <cstdio>
#include <filesystem>
#include <fstream>
#include <sstream>
#include <string>

#include "target/daemon/config.h"
#include "tests/daemon/example_text.h"

namespace memstore::daemon {
namespace {

using ::testing::HasSubstr;

std::string slurp(const std::string& path) {
  std::ifstream in(path);
  std::ostringstream s;
  s << in.rdbuf();
  return s.str();
}

// Everything a LUN is made of, compared key by key.
void expect_same_lun(const LunSpec& a, const LunSpec& b) {
  EXPECT_EQ(a.id, b.id);
  EXPECT_EQ(a.device, b.device);
  EXPECT_EQ(a.device_config, b.device_config);
  EXPECT_EQ(a.set, b.set);
  EXPECT_EQ(a.backing, b.backing);
  EXPECT_EQ(a.durability, b.durability);
  EXPECT_EQ(a.cache_mb, b.cache_mb);
  EXPECT_EQ(a.cache_writeback_ms, b.cache_writeback_ms);
  EXPECT_EQ(a.write_log, b.write_log);
  EXPECT_EQ(a.trace, b.trace);
  EXPECT_EQ(a.trace_format, b.trace_format);
  EXPECT_EQ(a.config.timing.mode, b.config.timing.mode);
  EXPECT_EQ(a.config.timing.scale, b.config.timing.scale);
  EXPECT_EQ(a.config.scheduler, b.config.scheduler);
  EXPECT_EQ(a.config.rotation_rate, b.config.rotation_rate);
  EXPECT_EQ(a.config.fault_seed, b.config.fault_seed);
  EXPECT_TRUE(a.config.faults == b.config.faults);
  EXPECT_EQ(a.model_name(), b.model_name());
}

void expect_same(const Config& a, const Config& b) {
  EXPECT_EQ(a.log_level, b.log_level);
  EXPECT_EQ(a.state_dir, b.state_dir);
  EXPECT_EQ(a.control_socket, b.control_socket);
  EXPECT_EQ(a.metrics, b.metrics);
  for (const DaemonNumber& n : kDaemonNumbers) EXPECT_EQ(a.*n.field, b.*n.field) << n.key;
  EXPECT_TRUE(a.limits == b.limits);
  EXPECT_EQ(a.control_initiators, b.control_initiators);
  EXPECT_EQ(a.discovery_chap, b.discovery_chap);
  ASSERT_EQ(a.targets.size(), b.targets.size());
  for (std::size_t t = 0; t < a.targets.size(); ++t) {
    const TargetSpec& x = a.targets[t];
    const TargetSpec& y = b.targets[t];
    EXPECT_EQ(x.name, y.name);
    EXPECT_EQ(x.alias, y.alias);
    EXPECT_EQ(x.portals, y.portals);
    EXPECT_EQ(x.acl, y.acl);
    EXPECT_EQ(x.chap, y.chap);
    ASSERT_EQ(x.luns.size(), y.luns.size());
    for (std::size_t l = 0; l < x.luns.size(); ++l) expect_same_lun(x.luns[l], y.luns[l]);
  }
}

TEST(ConfigSave, TheEveryKeyExampleReadsBackTheSame) {
  const auto first = parse_config(example_text(), "memstored.toml");
  ASSERT_TRUE(first.ok()) << first.error().message;
  const std::string saved = config_to_toml(*first);
  const auto again = parse_config(saved, "saved");
  ASSERT_TRUE(again.ok()) << again.error().message << "\n" << saved;
  expect_same(*first, *again);
  // Written twice, the same text: nothing is lost or added on the way.
  EXPECT_EQ(config_to_toml(*again), saved);
}

TEST(ConfigSave, SecretsAclsPortalsAndNonDefaultKeysAreKept) {
  const std::string text = R"(
[daemon]
log_level = "debug"
state_dir = "/var/lib/x"
spin_us = 0
threads = 2
control_initiators = ["iqn.2026-11.org.example:admin"]
[limits]
max_connections = 7
buffer_megabytes = 128
[discovery]
chap = { user = "disc", secret = "discovery-secret-16" }
[[target]]
name = "iqn.2026-11.org.example:a"
alias = "first"
portals = ["127.0.0.1:3261", "[::1]:3262"]
acl = ["iqn.2026-11.org.example:h1", "iqn.2026-11.org.example:h2"]
chap = { user = "u", secret = "a-secret-of-16-b", mutual_user = "t", mutual_secret = "another-secret-16" }
[[target.lun]]
id = 3
device = "g3"
set = ["active_tips=1280"]
backing = "memory"
durability = "volatile"
cache_mb = 4
cache_writeback_ms = 250
trace = "/var/tmp/lun3.trace"
trace_format = "spc"
timing = "scaled"
scale = 2.5
scheduler = "sptf"
rotation_rate = 1
fault_seed = 99
[[target.lun.fault]]
op = "read"
lba = [10, 20]
every = 3
probability = 0.5
once = true
after_ms = 1.5
action = "medium-error"
[[target]]
name = "iqn.2026-11.org.example:disk"
[[target.lun]]
device = "atlas10k"
backing = "memory"
durability = "write-through"
)";
  const auto first = parse_config(text, "t.toml");
  ASSERT_TRUE(first.ok()) << first.error().message;
  const std::string saved = config_to_toml(*first);
  EXPECT_THAT(saved, HasSubstr("a-secret-of-16-b"));
  EXPECT_THAT(saved, HasSubstr("another-secret-16"));
  EXPECT_THAT(saved, HasSubstr("discovery-secret-16"));
  EXPECT_THAT(saved, HasSubstr("[::1]:3262"));
  const auto again = parse_config(saved, "saved");
  ASSERT_TRUE(again.ok()) << again.error().message << "\n" << saved;
  expect_same(*first, *again);
}

TEST(ConfigSave, DefaultsAreLeftOutButEachLunSaysWhatItIs) {
  const auto first = parse_config("[[target]]\n[[target.lun]]\nbacking = \"memory\"\n", "min.toml");
  ASSERT_TRUE(first.ok()) << first.error().message;
  const std::string saved = config_to_toml(*first);
  EXPECT_THAT(saved, HasSubstr("device = 'g2'"));
  EXPECT_THAT(saved, HasSubstr("backing = 'memory'"));
  EXPECT_THAT(saved, HasSubstr("id = 0"));
  EXPECT_THAT(saved, ::testing::Not(HasSubstr("scheduler")));
  EXPECT_THAT(saved, ::testing::Not(HasSubstr("[limits]")));
}

TEST(ConfigSave, TheFileIsWholeAndOnlyItsOwnerReadsIt) {
  const std::string path =
      (std::filesystem::temp_directory_path() / ("config_save_test_" + std::to_string(::getpid())))
          .string();
  {
    std::ofstream old(path);
    old << "old";
  }
  ::chmod(path.c_str(), 0644);
  ASSERT_TRUE(write_config_file(path, "[[target]]\n").ok());
  EXPECT_EQ(slurp(path), "[[target]]\n");
  struct stat st {};
  ASSERT_EQ(::stat(path.c_str(), &st), 0);
  EXPECT_EQ(st.st_mode & 0777, 0600U);
  EXPECT_FALSE(std::filesystem::exists(path + ".tmp"));
  std::filesystem::remove(path);
  const Status e = write_config_file("/nonexistent-dir/x.toml", "x");
  ASSERT_FALSE(e.ok());
  EXPECT_THAT(e.error().message, HasSubstr("/nonexistent-dir/x.toml.tmp': No such file"));
}

}  // namespace
}  // namespace memstore::daemon
