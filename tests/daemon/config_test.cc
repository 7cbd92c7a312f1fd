// SPDX-License-Identifier: Apache-2.0
#include "target/daemon/config.h"

#include <gmock/gmock.h>
#include <gtest/gtest.h>

#include <filesystem>

#include "target/lunspec/lun_factory.h"

namespace memstore::daemon {
namespace {

using ::testing::HasSubstr;
using ::testing::StartsWith;

std::string error_of(const Expected<Config>& r) {
  return r.ok() ? "" : r.error().message;
}

TEST(DaemonConfig, NoArgumentsServeOneG2LunOnLoopback) {
  const auto r = resolve(CommandLine{});
  ASSERT_TRUE(r.ok()) << error_of(r);
  const Config& c = r.value();
  ASSERT_EQ(c.targets.size(), 1u);
  const TargetSpec& t = c.targets[0];
  EXPECT_EQ(t.name, kDefaultTargetName);
  ASSERT_EQ(t.portals.size(), 1u);
  EXPECT_EQ(t.portals[0], (Portal{"127.0.0.1", 3260}));
  ASSERT_EQ(t.luns.size(), 1u);
  EXPECT_EQ(t.luns[0].id, 0);
  EXPECT_EQ(t.luns[0].config.device.name, "g2");
  EXPECT_EQ(t.luns[0].config.timing.mode, scsi::TimingMode::kRealtime);
  EXPECT_EQ(t.luns[0].backing, "var/iqn.2026-11.org.memstore_g2-lun0.img");
}

TEST(DaemonConfig, FlagsForTheSingleLunCase) {
  CommandLine cli;
  cli.listen = "127.0.0.1:13260";
  cli.backing = "memory";
  cli.device = "g3";
  cli.timing = "off";
  const auto r = resolve(cli);
  ASSERT_TRUE(r.ok()) << error_of(r);
  const TargetSpec& t = r.value().targets[0];
  EXPECT_EQ(t.portals[0].port, 13260);
  EXPECT_EQ(t.luns[0].backing, "memory");
  EXPECT_EQ(t.luns[0].config.device.name, "g3");
  EXPECT_EQ(t.luns[0].config.timing.mode, scsi::TimingMode::kOff);
}

TEST(DaemonConfig, BadFlagsNameTheFlag) {
  CommandLine cli;
  cli.listen = "localhost";
  EXPECT_THAT(error_of(resolve(cli)), HasSubstr("--listen"));
  // Flags the file's parser checks are named as flags, not as the line of
  // the TOML they were written into ("command line:4: target[0].lun[0]...").
  cli = {};
  cli.timing = "fast";
  EXPECT_THAT(error_of(resolve(cli)), StartsWith("--timing: must be"));
  cli = {};
  cli.device = "g7";
  EXPECT_THAT(error_of(resolve(cli)), StartsWith("--device: unknown preset 'g7'"));
  cli = {};
  cli.target_name = "bad";
  EXPECT_THAT(error_of(resolve(cli)), StartsWith("--target-name: must be an iSCSI name"));
  cli = {};
  cli.config_file = "/nonexistent/memstored.toml";
  EXPECT_EQ(error_of(resolve(cli)),
            "--config: cannot read '/nonexistent/memstored.toml': No such file or directory");
}

TEST(DaemonConfig, FullFile) {
  const auto r = parse_config(R"(
[daemon]
log_level = "debug"
nop_in_interval = 15
spin_us = 40
rt_priority = 20
transport_compensation_us = 12
threads = 3
[[target]]
name = "iqn.2026-11.org.example:disk"
alias = "lab"
portals = ["127.0.0.1:3261", "[::1]:3262"]
acl = ["iqn.1994-05.com.redhat:client"]
[target.chap]
user = "alice"
secret = "twelve-chars-at-least"
[[target.lun]]
id = 3
device = "g2"
set = ["active_tips = 1280"]
backing = "memory"
timing = "scaled"
scale = 2.0
scheduler = "sptf"
)",
                              "test.toml");
  ASSERT_TRUE(r.ok()) << error_of(r);
  const Config& c = r.value();
  EXPECT_EQ(c.log_level, "debug");
  EXPECT_EQ(c.nop_in_interval, 15U);
  EXPECT_EQ(c.spin_us, 40U);
  EXPECT_EQ(c.rt_priority, 20U);
  EXPECT_EQ(c.transport_compensation_us, 12U);
  EXPECT_EQ(c.threads, 3U);
  const TargetSpec& t = c.targets[0];
  EXPECT_EQ(t.portals[1], (Portal{"::1", 3262}));
  ASSERT_TRUE(t.chap);
  EXPECT_EQ(t.chap->user, "alice");
  EXPECT_EQ(t.luns[0].id, 3);
  EXPECT_EQ(t.luns[0].config.device.active_tips, 1280);
  EXPECT_EQ(t.luns[0].config.timing.mode, scsi::TimingMode::kScaled);
  EXPECT_DOUBLE_EQ(t.luns[0].config.timing.scale, 2.0);
}

// durability = "volatile": the device's own write cache (docs/crash-consistency.md).
TEST(DaemonConfig, AVolatileCacheTakesItsSizeAndIdleTime) {
  const auto r = parse_config(
      "[[target]]\n[[target.lun]]\nbacking = \"memory\"\ndurability = \"volatile\"\n"
      "cache_mb = 8\ncache_writeback_ms = 250\n",
      "v.toml");
  ASSERT_TRUE(r.ok()) << error_of(r);
  const lunspec::LunSpec& lun = r.value().targets[0].luns[0];
  EXPECT_EQ(lun.durability, lunspec::Durability::kVolatile);
  EXPECT_EQ(lun.cache_mb, 8u);
  EXPECT_EQ(lun.cache_writeback_ms, 250u);
  EXPECT_THAT(error_of(parse_config("[[target]]\n[[target.lun]]\ncache_mb = 8\n", "w.toml")),
              HasSubstr("w.toml:3: target[0].lun[0].cache_mb: applies only to a volatile write "
                        "cache; add durability = \"volatile\" or remove it"));
  EXPECT_THAT(error_of(parse_config("[[target]]\n[[target.lun]]\ndurability = \"volatile\"\n"
                                    "cache_mb = 0\n",
                                    "x.toml")),
              HasSubstr("cache_mb: must be an integer from 1 to 65536 (MiB); it is 0"));
  EXPECT_THAT(
      error_of(parse_config("[[target]]\n[[target.lun]]\ndurability = \"cached\"\n", "y.toml")),
      HasSubstr("durability: must be \"write-back\", \"write-through\" or \"volatile\""));
}

// trace and trace_format: the LUN's requests captured from the start
// (docs/memstored.md, "Traces").
TEST(DaemonConfig, ATraceTakesItsFileAndFormat) {
  const auto r = parse_config(
      "[[target]]\n[[target.lun]]\nbacking = \"memory\"\ntrace = \"/tmp/a.trace\"\n"
      "trace_format = \"spc\"\n",
      "t.toml");
  ASSERT_TRUE(r.ok()) << error_of(r);
  const lunspec::LunSpec& lun = r.value().targets[0].luns[0];
  EXPECT_EQ(lun.trace, "/tmp/a.trace");
  EXPECT_EQ(lun.trace_format, model::TraceFormat::kSpc);
  EXPECT_THAT(
      error_of(parse_config("[[target]]\n[[target.lun]]\ntrace_format = \"spc\"\n", "u.toml")),
      HasSubstr("u.toml:3: target[0].lun[0].trace_format: applies only to a capture; add "
                "trace = \"PATH\" or remove it"));
  EXPECT_THAT(error_of(parse_config("[[target]]\n[[target.lun]]\ntrace = \"/tmp/a\"\n"
                                    "trace_format = \"csv\"\n",
                                    "v.toml")),
              HasSubstr("v.toml:4: target[0].lun[0].trace_format: must be \"disksim\" or \"spc\""));
}

TEST(DaemonConfig, ErrorsNameTheKeyAndLine) {
  EXPECT_THAT(error_of(parse_config("[[target]]\nnmae = \"x\"\n", "a.toml")),
              HasSubstr("a.toml:2: target[0].nmae: unknown key"));
  EXPECT_THAT(error_of(parse_config("[daemon]\nnop_in_interval = 7200\n[[target]]\n", "n.toml")),
              HasSubstr("n.toml:2: daemon.nop_in_interval"));
  EXPECT_THAT(error_of(parse_config("[daemon]\nrt_priority = 100\n[[target]]\n", "r.toml")),
              HasSubstr("r.toml:2: daemon.rt_priority"));
  EXPECT_THAT(error_of(parse_config("[daemon]\nthreads = 1000\n[[target]]\n", "t.toml")),
              HasSubstr("t.toml:2: daemon.threads"));
  EXPECT_THAT(error_of(parse_config("[[target]]\nname = \"disk1\"\n[[target.lun]]\n", "b.toml")),
              HasSubstr("target[0].name: must be an iSCSI name"));
  EXPECT_THAT(error_of(parse_config("[[target]]\n[[target.lun]]\ntiming = \"soon\"\n", "c.toml")),
              HasSubstr("c.toml:3: target[0].lun[0].timing: must be"));
  EXPECT_THAT(error_of(parse_config("[[target]]\n[[target.lun]]\nset = [\"active_tips = 7000\"]\n",
                                    "d.toml")),
              HasSubstr("active_tips"));
  EXPECT_THAT(error_of(parse_config("[[target]]\n[target.chap]\nuser = \"a\"\nsecret = \"short\"\n"
                                    "[[target.lun]]\n",
                                    "e.toml")),
              HasSubstr("target[0].chap.secret"));
  EXPECT_THAT(error_of(parse_config("[[target]]\n[[target.lun]]\nid = 1\n[[target.lun]]\nid = 1\n",
                                    "f.toml")),
              HasSubstr("duplicate LUN id 1"));
  EXPECT_THAT(error_of(parse_config("[[target]]\n", "g.toml")),
              HasSubstr("at least one [[target.lun]]"));
}

// A one-LUN file with `lun` in its [[target.lun]] table.
std::string lun_error(const std::string& lun) {
  return error_of(
      parse_config("[[target]]\n[[target.lun]]\nbacking = \"memory\"\n" + lun, "l.toml"));
}

TEST(DaemonConfigBounds, ScaleIsFiniteAndWithinPage22h) {
  for (const char* bad :
       {"inf", "+inf", "-inf", "nan", "1e300", "-1.0", "0.0", "0.0009", "1000.001", "\"2\""}) {
    EXPECT_THAT(lun_error(std::string("timing = \"scaled\"\nscale = ") + bad + "\n"),
                HasSubstr("l.toml:5: target[0].lun[0].scale: must be a number from 0.001 to 1000"))
        << bad;
  }
  EXPECT_THAT(lun_error("scale = 1e300\n"), HasSubstr("; it is 1e+300"));  // the value shown
  for (const char* good : {"0.001", "1", "2.5", "1000"}) {
    EXPECT_EQ(lun_error(std::string("timing = \"scaled\"\nscale = ") + good + "\n"), "") << good;
  }
}

TEST(DaemonConfigBounds, RotationRateReservedValuesAreRefused) {
  EXPECT_EQ(lun_error("rotation_rate = 1\n"), "");
  EXPECT_EQ(lun_error("rotation_rate = 7200\n"), "");
  EXPECT_THAT(lun_error("rotation_rate = 2\n"),
              HasSubstr("target[0].lun[0].rotation_rate: must be 0 (not reported), 1 "
                        "(non-rotating) or 1025 to 65534 rpm; 2 is reserved"));
  EXPECT_THAT(lun_error("rotation_rate = 65535\n"), HasSubstr("it is 65535"));
  EXPECT_THAT(lun_error("rotation_rate = -1\n"), HasSubstr("rotation_rate: must be an integer"));
  EXPECT_THAT(lun_error("id = 16384\n"),
              HasSubstr("target[0].lun[0].id: must be an integer from 0 to 16383; it is 16384"));
  EXPECT_THAT(lun_error("id = 1.5\n"), HasSubstr("target[0].lun[0].id: must be an integer"));
}

TEST(DaemonConfigBounds, EveryDaemonNumberNamesItsRangeAndUnit) {
  for (const DaemonNumber& n : kDaemonNumbers) {
    const std::string over = "[daemon]\n" + std::string(n.key) + " = " +
                             std::to_string(std::uint64_t{n.max} + 1) + "\n[[target]]\n";
    EXPECT_THAT(error_of(parse_config(over, "d.toml")),
                HasSubstr("d.toml:2: daemon." + std::string(n.key) + ": must be an integer from " +
                          std::to_string(n.min) + " to " + std::to_string(n.max) + " (" + n.unit +
                          "); it is " + std::to_string(std::uint64_t{n.max} + 1)));
    const std::string real = "[daemon]\n" + std::string(n.key) + " = 1.5\n[[target]]\n";
    EXPECT_THAT(error_of(parse_config(real, "d.toml")), HasSubstr("must be an integer"));
  }
  EXPECT_THAT(error_of(parse_config("[daemon]\nsecurity_log_rate = 0\n[[target]]\n", "d.toml")),
              HasSubstr("daemon.security_log_rate: must be an integer from 1 to 1000"));
}

TEST(DaemonConfigBounds, CommandLineNumbersAreCheckedLikeTheFile) {
  CommandLine cli;
  cli.backing = "memory";
  cli.threads = 100000;
  EXPECT_EQ(error_of(resolve(cli)),
            "--threads: must be from 0 to 256 (event-loop threads; 0: one per core); it is 100000");
  cli.threads.reset();
  cli.security_log_rate = 0;
  EXPECT_THAT(error_of(resolve(cli)), HasSubstr("--security-log-rate: must be from 1 to 1000"));
  cli.security_log_rate = 50;
  cli.awake_cpus = 5000;
  EXPECT_THAT(error_of(resolve(cli)), HasSubstr("--awake-cpus: must be from 0 to 4096"));
  cli.awake_cpus = 2;
  const auto r = resolve(cli);
  ASSERT_TRUE(r.ok()) << error_of(r);
  EXPECT_EQ(r.value().security_log_rate, 50u);
  EXPECT_EQ(r.value().awake_cpus, 2u);
}

TEST(DaemonConfigLogLevel, UnknownLevelIsAnErrorNamingTheLevels) {
  const std::string levels = "use one of trace, debug, info, warn, error, critical, off";
  EXPECT_THAT(error_of(parse_config("[daemon]\nlog_level = \"verbose\"\n[[target]]\n", "v.toml")),
              HasSubstr("v.toml:2: daemon.log_level: 'verbose' is not a log level; " + levels));
  CommandLine cli;
  cli.backing = "memory";
  cli.log_level = "loud";
  EXPECT_EQ(error_of(resolve(cli)), "--log-level: 'loud' is not a log level; " + levels);
  for (const char* level : kLogLevels) {
    cli.log_level = level;
    EXPECT_EQ(error_of(resolve(cli)), "") << level;
  }
}

TEST(DaemonConfigControl, ControlInitiatorsReachEveryLun) {
  const auto r = parse_config(R"(
[daemon]
control_initiators = ["iqn.2026-11.org.example:admin"]
[[target]]
name = "iqn.2026-11.org.example:a"
[[target.lun]]
backing = "memory"
[[target.lun]]
backing = "memory"
[[target]]
name = "iqn.2026-11.org.example:b"
[[target.lun]]
backing = "memory"
)",
                              "c.toml");
  ASSERT_TRUE(r.ok()) << error_of(r);
  for (const TargetSpec& t : r.value().targets) {
    for (const LunSpec& lun : t.luns) {
      EXPECT_EQ(lun.config.control_access.initiators,
                std::vector<std::string>{"iqn.2026-11.org.example:admin"});
      EXPECT_FALSE(lun.config.control_access.unnamed);
    }
  }
  // The default: nobody.
  CommandLine cli;
  cli.backing = "memory";
  EXPECT_TRUE((resolve(cli)).value().targets[0].luns[0].config.control_access.initiators.empty());
  // --control-initiator, repeatable.
  cli.control_initiators = {"iqn.2026-11.org.example:x", "iqn.2026-11.org.example:y"};
  EXPECT_EQ(resolve(cli).value().targets[0].luns[0].config.control_access.initiators,
            cli.control_initiators);
  cli.control_initiators = {"admin"};
  EXPECT_THAT(error_of(resolve(cli)), HasSubstr("--control-initiator: must be an iSCSI name"));
  EXPECT_THAT(
      error_of(parse_config("[daemon]\ncontrol_initiators = [\"root\"]\n[[target]]\n", "x.toml")),
      HasSubstr("x.toml:2: daemon.control_initiators: must be an iSCSI name"));
  EXPECT_THAT(error_of(parse_config(
                  "[[target]]\nacl = [\"iqn.x:" + std::string(230, 'a') + "\"]\n[[target.lun]]\n",
                  "y.toml")),
              HasSubstr("y.toml:2: target[0].acl: an iSCSI name is at most 223 bytes"));
}

std::string chap_error(const std::string& chap) {
  return error_of(
      parse_config("[[target]]\n[target.chap]\n" + chap + "[[target.lun]]\n", "chap.toml"));
}

TEST(DaemonConfigChap, SecretsAndNamesHaveLengthLimits) {
  const std::string ok_secret = "secret = \"" + std::string(12, 's') + "\"\n";
  EXPECT_EQ(chap_error("user = \"alice\"\n" + ok_secret), "");
  EXPECT_EQ(chap_error("user = \"alice\"\nsecret = \"" + std::string(255, 's') + "\"\n"), "");
  EXPECT_THAT(chap_error("user = \"alice\"\nsecret = \"elevenchars\"\n"),
              HasSubstr("chap.toml:2: target[0].chap.secret: is 11 bytes; it must be 12 to 255 "
                        "bytes (RFC 7143 §9.2.1 asks for at least 96 bits"));
  EXPECT_THAT(chap_error("user = \"alice\"\nsecret = \"" + std::string(256, 's') + "\"\n"),
              HasSubstr("target[0].chap.secret: is 256 bytes; it must be 12 to 255 bytes"));
  EXPECT_THAT(chap_error(ok_secret), HasSubstr("target[0].chap.user: is missing"));
  EXPECT_THAT(chap_error("user = \"" + std::string(256, 'u') + "\"\n" + ok_secret),
              HasSubstr("target[0].chap.user: is 256 bytes; it must be 1 to 255 bytes"));
}

TEST(DaemonConfigChap, MutualSecretIsCheckedLikeTheOneWaySecret) {
  const std::string one_way = "user = \"alice\"\nsecret = \"alice-secret-123\"\n";
  EXPECT_EQ(chap_error(one_way + "mutual_user = \"tgt\"\nmutual_secret = \"target-secret-9\"\n"),
            "");
  EXPECT_THAT(chap_error(one_way + "mutual_user = \"tgt\"\nmutual_secret = \"short\"\n"),
              HasSubstr("target[0].chap.mutual_secret: is 5 bytes; it must be 12 to 255 bytes "
                        "(RFC 7143 §9.2.1"));
  EXPECT_THAT(chap_error(one_way + "mutual_user = \"tgt\"\nmutual_secret = \"" +
                         std::string(300, 'm') + "\"\n"),
              HasSubstr("target[0].chap.mutual_secret: is 300 bytes"));
  EXPECT_THAT(chap_error(one_way + "mutual_user = \"tgt\"\n"),
              HasSubstr("target[0].chap.mutual_secret: is missing (mutual CHAP needs both"));
  EXPECT_THAT(chap_error(one_way + "mutual_secret = \"target-secret-9\"\n"),
              HasSubstr("target[0].chap.mutual_user: is missing (mutual CHAP needs both"));
  EXPECT_THAT(chap_error(one_way + "mutual_user = \"tgt\"\nmutual_secret = \"alice-secret-123\"\n"),
              HasSubstr("target[0].chap.mutual_secret: must differ from secret"));
}

TEST(DaemonConfigChap, DiscoveryChapIsReadAndCheckedLikeATargets) {
  const auto parsed = parse_config(
      "[discovery.chap]\nuser = \"finder\"\nsecret = \"finder-secret-1\"\n"
      "[[target]]\n[[target.lun]]\n",
      "d.toml");
  ASSERT_EQ(error_of(parsed), "");
  const Config& c = parsed.value();
  ASSERT_TRUE(c.discovery_chap);
  EXPECT_EQ(c.discovery_chap->user, "finder");
  EXPECT_EQ(c.discovery_chap->secret, "finder-secret-1");
  EXPECT_FALSE((parse_config("[[target]]\n[[target.lun]]\n", "e.toml")).value().discovery_chap);
  EXPECT_THAT(error_of(parse_config("[discovery.chap]\nuser = \"finder\"\nsecret = \"x\"\n"
                                    "[[target]]\n[[target.lun]]\n",
                                    "d.toml")),
              HasSubstr("d.toml:1: discovery.chap.secret: is 1 bytes; it must be 12 to 255"));
  EXPECT_THAT(error_of(parse_config("[discovery]\nchap = 3\n[[target]]\n", "d.toml")),
              HasSubstr("discovery.chap: must be a table"));
  EXPECT_THAT(error_of(parse_config("[discovery]\nacl = []\n[[target]]\n", "d.toml")),
              HasSubstr("discovery.acl"));
}

TEST(DaemonConfig, OpensMemoryAndFileLuns) {
  CommandLine cli;
  cli.backing = "memory";
  const Config mem = (resolve(cli)).value();
  auto lun = open_lun(mem.targets[0].luns[0], mem.targets[0].name, "target[0].lun[0].");
  ASSERT_TRUE(lun.ok()) << lun.error().message;

  const std::string dir = ::testing::TempDir() + "memstore-config-test";
  std::filesystem::create_directories(dir);
  cli.backing = dir + "/g2.img";
  const Config file = (resolve(cli)).value();
  {
    auto opened = open_lun(file.targets[0].luns[0], file.targets[0].name, "target[0].lun[0].");
    ASSERT_TRUE(opened.ok()) << opened.error().message;
  }
  EXPECT_TRUE(std::filesystem::exists(dir + "/g2.img.identity"));
  // A missing directory: the error names the key.
  cli.backing = dir + "/missing/g2.img";
  const Config bad = (resolve(cli)).value();
  auto failed = open_lun(bad.targets[0].luns[0], bad.targets[0].name, "target[0].lun[0].");
  ASSERT_TRUE(!failed.ok());
  EXPECT_THAT(failed.error().message, HasSubstr("target[0].lun[0].backing"));
  std::filesystem::remove_all(dir);
}

}  // namespace
}  // namespace memstore::daemon

namespace memstore::daemon {
namespace {

TEST(DaemonConfigLimits, DefaultsAreSafeAndTheTableSetsThem) {
  const Config d = (parse_config("[[target]]\n[[target.lun]]\n", "d.toml")).value();
  EXPECT_EQ(d.limits.max_connections, 1024U);
  EXPECT_EQ(d.nop_in_interval, 5U);  // keepalive on by default
  EXPECT_EQ(d.nop_in_timeout, 10U);
  const Config c =
      (parse_config(
           "[daemon]\nnop_in_timeout = 3\n[limits]\nmax_connections = 10\n"
           "max_sessions_per_initiator = 2\nlogin_timeout = 4\nmax_outstanding_commands = 32\n"
           "max_text_bytes = 16384\nmax_output_bytes = 2097152\nbuffer_megabytes = 128\n"
           "batch_result_megabytes = 32\n[[target]]\n[[target.lun]]\n",
           "l.toml"))
          .value();
  EXPECT_EQ(c.nop_in_timeout, 3U);
  EXPECT_EQ(c.limits.max_connections, 10U);
  EXPECT_EQ(c.limits.max_sessions_per_initiator, 2U);
  EXPECT_EQ(c.limits.login_timeout, 4U);
  EXPECT_EQ(c.limits.max_outstanding_commands, 32U);
  EXPECT_EQ(c.limits.max_text_bytes, 16384U);
  EXPECT_EQ(c.limits.max_output_bytes, 2097152U);
  EXPECT_EQ(c.limits.buffer_megabytes, 128U);
  EXPECT_EQ(c.limits.batch_result_megabytes, 32U);
}

TEST(DaemonConfigLimits, OutOfRangeAndUnknownKeysNameTheKey) {
  EXPECT_THAT(error_of(parse_config("[limits]\nmax_connections = 0\n[[target]]\n", "a.toml")),
              ::testing::HasSubstr("a.toml:2: limits.max_connections"));
  EXPECT_THAT(error_of(parse_config("[limits]\nmax_text_bytes = 10\n[[target]]\n", "b.toml")),
              ::testing::HasSubstr("b.toml:2: limits.max_text_bytes"));
  // Below two of the largest transfers, a READ of 32 MiB could never run.
  EXPECT_THAT(error_of(parse_config("[limits]\nbuffer_megabytes = 32\n[[target]]\n", "d.toml")),
              ::testing::HasSubstr("d.toml:2: limits.buffer_megabytes"));
  EXPECT_THAT(error_of(parse_config("[limits]\nmax_conections = 5\n[[target]]\n", "c.toml")),
              ::testing::HasSubstr("limits.max_conections: unknown key"));
}

}  // namespace
}  // namespace memstore::daemon
