// SPDX-License-Identifier: Apache-2.0
// The TCMU config string: every key, and one test per way it can be wrong,
// each error naming the key.
#include "target/tcmu/config_string.h"

#include <gmock/gmock.h>
#include <gtest/gtest.h>

#include <fstream>

#include "tests/scsi/temp_dir.h"

namespace memstore::tcmu {
namespace {

using scsi::testing::TempDir;
using ::testing::HasSubstr;
using ::testing::StartsWith;

lunspec::LunSpec ok(std::string_view cfg) {
  auto r = parse_config_string(cfg);
  if (!r.ok()) ADD_FAILURE() << cfg << ": " << r.error().message;
  return std::move(r).value();
}

std::string error(std::string_view cfg) {
  auto r = parse_config_string(cfg);
  if (r.ok()) {
    ADD_FAILURE() << cfg << " was accepted";
    return "";
  }
  return r.error().message;
}

TEST(TcmuConfigString, ImageAloneIsAG2LunInRealTime) {
  TempDir dir;
  const std::string image = dir.file("g2.img");
  const lunspec::LunSpec spec = ok("memstore/" + image);
  EXPECT_EQ(spec.backing, image);
  EXPECT_EQ(spec.device, "g2");
  EXPECT_EQ(spec.config.device.name, "g2");
  EXPECT_EQ(spec.config.timing.mode, scsi::TimingMode::kRealtime);
  EXPECT_EQ(spec.config.scheduler, "fcfs");
  EXPECT_EQ(spec.durability, lunspec::Durability::kWriteBack);
  EXPECT_EQ(spec.config.rotation_rate, 0);
}

TEST(TcmuConfigString, SubtypePrefixIsOptional) {
  EXPECT_EQ(ok("memory").backing, "memory");
  EXPECT_EQ(ok("memstore/memory").backing, "memory");
}

TEST(TcmuConfigString, EveryKey) {
  TempDir dir;
  const lunspec::LunSpec spec =
      ok(dir.file("x.img") +
         ";device=g1;timing=scaled;scale=2.5;scheduler=sptf;durability=write-through;"
         "rotation_rate=7200;tcmur_cmd_time_out=30;");
  EXPECT_EQ(spec.device, "g1");
  EXPECT_EQ(spec.config.device.name, "g1");
  EXPECT_EQ(spec.config.timing.mode, scsi::TimingMode::kScaled);
  EXPECT_DOUBLE_EQ(spec.config.timing.scale, 2.5);
  EXPECT_EQ(spec.config.scheduler, "sptf");
  EXPECT_EQ(spec.durability, lunspec::Durability::kWriteThrough);
  EXPECT_EQ(spec.config.rotation_rate, 7200);
  EXPECT_EQ(ok("memory;timing=off").config.timing.mode, scsi::TimingMode::kOff);
  const lunspec::LunSpec cached =
      ok("memory;durability=volatile;cache_mb=4;cache_writeback_ms=100");
  EXPECT_EQ(cached.durability, lunspec::Durability::kVolatile);
  EXPECT_EQ(cached.cache_mb, 4u);
  EXPECT_EQ(cached.cache_writeback_ms, 100u);
  const lunspec::LunSpec traced = ok("memory;trace=/tmp/lun.trace;trace_format=spc");
  EXPECT_EQ(traced.trace, "/tmp/lun.trace");
  EXPECT_EQ(traced.trace_format, model::TraceFormat::kSpc);
}

TEST(TcmuConfigString, DiskDevices) {
  const lunspec::LunSpec atlas = ok("memory;device=atlas10k;timing=off");
  ASSERT_TRUE(atlas.config.disk.has_value());
  EXPECT_EQ(atlas.model_name(), "atlas10k");
  EXPECT_EQ(ok("memory;device=disk20k").config.disk->rotation_rpm, 20000);
  EXPECT_FALSE(ok("memory;device=g3").config.disk.has_value());
  // A disk reports its own rotation rate and takes no MEMStore parameters.
  EXPECT_THAT(
      error("memory;device=atlas10k;rotation_rate=1"),
      StartsWith(
          "rotation_rate: atlas10k is a disk and reports its own rotation rate (10025 rpm)"));
  EXPECT_THAT(error("memory;device=atlas10k;config=/etc/memstore/g2.toml"),
              StartsWith("config: describes a MEMStore"));
}

// TCMU names no initiator: page 22h is closed to all of them unless the
// string opens it to all of them.
TEST(TcmuConfigString, ControlPageClosedUnlessAllowed) {
  EXPECT_FALSE(ok("memory").config.control_access.unnamed);
  EXPECT_FALSE(ok("memory;control=deny").config.control_access.unnamed);
  EXPECT_TRUE(ok("memory;control=allow").config.control_access.unnamed);
  EXPECT_TRUE(ok("memory;control=allow").config.control_access.initiators.empty());
}

TEST(TcmuConfigString, ConfigFileOverridesThePreset) {
  TempDir dir;
  const std::string params = dir.file("p.toml");
  std::ofstream(params) << "active_tips = 1280\n";
  const lunspec::LunSpec spec = ok("memory;device=g2;config=" + params);
  EXPECT_EQ(spec.device_config, params);
  EXPECT_EQ(spec.config.device.active_tips, 1280);
}

TEST(TcmuConfigString, BackingImageErrors) {
  EXPECT_THAT(error(""), StartsWith("backing image: missing"));
  EXPECT_THAT(error("memstore/"), StartsWith("backing image: missing"));
  EXPECT_THAT(error(";device=g2"), StartsWith("backing image: missing"));
  EXPECT_THAT(error("images/g2.img"),
              StartsWith("backing image: 'images/g2.img' is not an absolute path"));
  EXPECT_THAT(error("/nonexistent-memstore-dir/g2.img"),
              StartsWith("backing image: directory '/nonexistent-memstore-dir' does not exist"));
  TempDir dir;
  EXPECT_THAT(error(dir.path().string()), HasSubstr("is not a regular file"));
}

TEST(TcmuConfigString, ValueErrorsNameTheKey) {
  EXPECT_THAT(error("memory;device=g9"),
              StartsWith("device: unknown preset 'g9'; use g1, g2, g3, uysal03, tos05, asplos99-g1, "
                         "asplos99-g2, asplos99-g3, atlas10k, disk20k, cheetah4lp or superdisk"));
  EXPECT_THAT(error("memory;timing=fast"),
              StartsWith("timing: 'fast' is not realtime, scaled or off"));
  EXPECT_THAT(error("memory;timing=scaled;scale=0"),
              StartsWith("scale: '0' is not a number from 0.001 to 1000"));
  for (const char* bad : {"inf", "nan", "1e300", "-2", "0.0009", "1000.5"}) {
    EXPECT_THAT(error(std::string("memory;timing=scaled;scale=") + bad),
                StartsWith(std::string("scale: '") + bad + "' is not a number from 0.001 to 1000"));
  }
  EXPECT_DOUBLE_EQ(ok("memory;timing=scaled;scale=1000").config.timing.scale, 1000);
  EXPECT_DOUBLE_EQ(ok("memory;timing=scaled;scale=0.001").config.timing.scale, 0.001);
  EXPECT_THAT(error("memory;timing=scaled;scale=2x"), StartsWith("scale: '2x'"));
  EXPECT_THAT(error("memory;scale=2"), StartsWith("scale: only meaningful with timing=scaled"));
  EXPECT_THAT(error("memory;scheduler=elevator"),
              StartsWith("scheduler: unknown scheduler 'elevator'"));
  EXPECT_THAT(error("memory;durability=sometimes"),
              StartsWith("durability: 'sometimes' is not write-back, write-through or volatile"));
  EXPECT_THAT(error("memory;durability=volatile;cache_mb=0"),
              StartsWith("cache_mb: '0' is not a size from 1 to 65536 MiB"));
  EXPECT_THAT(error("memory;durability=volatile;cache_writeback_ms=-1"),
              StartsWith("cache_writeback_ms: '-1' is not a time from 0 to 3600000 ms"));
  EXPECT_THAT(error("memory;rotation_rate=65535"), StartsWith("rotation_rate: '65535'"));
  EXPECT_THAT(error("memory;rotation_rate=-1"), StartsWith("rotation_rate: '-1'"));
  EXPECT_THAT(error("memory;rotation_rate=2"),  // 0002h-0400h are reserved (SBC-3 VPD B1h)
              StartsWith("rotation_rate: '2' is not 0 (not reported), 1 (non-rotating) or 1025"));
  EXPECT_THAT(error("memory;control=yes"), StartsWith("control: 'yes' is not allow or deny"));
  EXPECT_THAT(error("memory;trace=lun.trace"),
              StartsWith("trace: 'lun.trace' is not an absolute path"));
  EXPECT_THAT(error("memory;trace=/tmp/t;trace_format=csv"),
              StartsWith("trace_format: 'csv' is not disksim or spc"));
  EXPECT_THAT(error("memory;config=params.toml"),
              StartsWith("config: 'params.toml' is not an absolute path"));
  EXPECT_THAT(error("memory;config=/nonexistent-memstore.toml"),
              StartsWith("config: '/nonexistent-memstore.toml' is not a readable regular file"));
  // Not a regular file: must not hang check_config inside tcmu-runner.
  EXPECT_THAT(error("memory;config=/dev/zero"),
              StartsWith("config: '/dev/zero' is not a readable regular file"));
  EXPECT_THAT(error("memory;config=/tmp"),
              StartsWith("config: '/tmp' is not a readable regular file"));
}

TEST(TcmuConfigString, ConfigFileErrorsNameTheFileAndKey) {
  TempDir dir;
  const std::string params = dir.file("p.toml");
  std::ofstream(params) << "active_tipz = 3\n";
  const std::string e = error("memory;config=" + params);
  EXPECT_THAT(e, StartsWith("config: " + params));
  EXPECT_THAT(e, HasSubstr("active_tipz"));
  std::ofstream(params) << "active_tips = 0\n";
  EXPECT_THAT(error("memory;config=" + params),
              AllOf(StartsWith("config: "), HasSubstr("active_tips")));
}

TEST(TcmuConfigString, SyntaxErrors) {
  EXPECT_THAT(error("memory;colour=blue"),
              StartsWith("colour: unknown key; known keys are device, config, timing, scale"));
  EXPECT_THAT(error("memory;device=g1;device=g2"), StartsWith("device: given twice"));
  EXPECT_THAT(error("memory;timing"), StartsWith("'timing': expected key=value"));
  EXPECT_THAT(error("memory;=g2"), StartsWith("'=g2': expected key=value"));
}

// faults=: memstored's fault rules as [[fault]] tables, parsed by the same
// lunspec code.
TEST(TcmuConfigString, FaultsFileGivesTheRulesAndSeed) {
  TempDir dir;
  const std::string f = dir.file("faults.toml");
  std::ofstream(f) << "fault_seed = 5\n"
                      "[[fault]]\nop = \"read\"\nlba = [1000, 1007]\naction = \"medium-error\"\n"
                      "[[fault]]\nop = \"write\"\nevery = 3\nonce = true\n"
                      "action = \"power-cut\"\npolicy = \"torn\"\nseed = 7\noff_ms = 2000\n";
  const lunspec::LunSpec spec = ok("memory;durability=volatile;faults=" + f);
  EXPECT_EQ(spec.config.fault_seed, 5u);
  ASSERT_EQ(spec.config.faults.size(), 2u);
  EXPECT_EQ(spec.config.faults[0].action, scsi::FaultAction::kMediumError);
  const scsi::FaultRule& cut = spec.config.faults[1];
  EXPECT_EQ(cut.action, scsi::FaultAction::kPowerCut);
  EXPECT_EQ(cut.cut_policy, scsi::CutPolicy::kTorn);
  EXPECT_EQ(cut.cut_seed, 7u);
  EXPECT_DOUBLE_EQ(static_cast<double>(cut.off_ns), 2e9);
  EXPECT_EQ(cut.every, 3u);
  EXPECT_TRUE(cut.once);
  // An empty file is no rules.
  std::ofstream(f) << "";
  EXPECT_TRUE(ok("memory;faults=" + f).config.faults.empty());
}

TEST(TcmuConfigString, FaultsErrorsNameTheKeyFileAndLine) {
  EXPECT_THAT(error("memory;faults=f.toml"),
              StartsWith("faults: 'f.toml' is not an absolute path"));
  EXPECT_THAT(error("memory;faults=/nonexistent-memstore-faults.toml"),
              StartsWith("faults: '/nonexistent-memstore-faults.toml' is not a readable regular "
                         "file"));
  EXPECT_THAT(error("memory;faults=/dev/zero"),
              StartsWith("faults: '/dev/zero' is not a readable regular file"));
  EXPECT_THAT(error("memory;faults=/a.toml;faults=/b.toml"), StartsWith("faults: given twice"));
  TempDir dir;
  const std::string f = dir.file("f.toml");
  auto fails = [&](const std::string& text, const std::string& cfg = "memory") {
    std::ofstream(f) << text;
    return error(cfg + ";faults=" + f);
  };
  EXPECT_THAT(fails("[[fault]\n"), StartsWith("faults: " + f + ":1: "));
  EXPECT_THAT(fails("colour = 1\n"),
              StartsWith("faults: " + f +
                         ":1: colour: unknown key; a faults file has [[fault]] "
                         "tables and fault_seed"));
  EXPECT_THAT(fails("fault_seed = -1\n"),
              StartsWith("faults: " + f + ":1: fault_seed: must be a whole number, 0 or more"));
  EXPECT_THAT(fails("fault = 3\n"),
              StartsWith("faults: " + f + ":1: fault: must be [[fault]] tables"));
  // Each rule's keys as memstored checks them, named fault[i].key.
  EXPECT_THAT(fails("[[fault]]\naction = \"power-cut\"\n\n[[fault]]\naction = \"power-cut\"\n"
                    "policy = \"some\"\n"),
              AllOf(StartsWith("faults: " + f + ":6: fault[1].policy: "), HasSubstr("drop-all")));
  EXPECT_THAT(fails("[[fault]]\nlba = [0, 6750000]\naction = \"busy\"\n"),
              AllOf(StartsWith("faults: " + f + ":2: fault[0].lba: "), HasSubstr("6749999")));
  EXPECT_THAT(fails("[[fault]]\naction = \"delay\"\ndelay_ms = 5\n", "memory;timing=off"),
              AllOf(StartsWith("faults: " + f + ":2: fault[0].action: "),
                    HasSubstr("use timing = \"realtime\" or \"scaled\"")));
  // What LIO's transport owns, or TCMU does not tell: refused, with the fix.
  for (const char* action : {"timeout", "drop-connection", "corrupt-digest", "withhold-r2t"}) {
    EXPECT_THAT(fails(std::string("[[fault]]\naction = \"") + action + "\"\n"),
                AllOf(StartsWith("faults: " + f + ":1: fault[0].action: '" + action +
                                 "' is an iSCSI transport fault"),
                      HasSubstr("use memstored for it")));
  }
  EXPECT_THAT(fails("[[fault]]\ninitiator = \"iqn.1993-08.org.debian:01:a\"\naction = \"busy\"\n"),
              StartsWith("faults: " + f +
                         ":2: fault[0].initiator: TCMU does not say which "
                         "initiator sent a command; leave the key out"));
}

TEST(TcmuConfigString, HelpNamesEveryKey) {
  for (const char* key : {"device=", "config=", "timing=", "scale=", "scheduler=", "durability=",
                          "rotation_rate=", "control=", "faults="}) {
    EXPECT_THAT(kConfigHelp, HasSubstr(key));
  }
}

}  // namespace
}  // namespace memstore::tcmu
