// SPDX-License-Identifier: Apache-2.0
// The control socket's commands against a real LUN driver (no socket: the
// dispatch runs the work at once): each command's reply, errors that name
// the key, a rule added at run time firing on the next command, and timing
// changed as page 22h shows it.
#include "target/control/control_commands.h"

#include <gmock/gmock.h>
#include <gtest/gtest.h>
#include <stdlib.h>

#include <boost/asio/io_context.hpp>
#include <filesystem>
#include <fstream>
#include <optional>

#include "target/control/json_rpc.h"
#include "target/control/metrics_families.h"
#include "target/control/metrics_server.h"
#include "tests/iscsi/raw_initiator.h"
#include "tests/scsi/cdb_builders.h"

namespace memstore::control {
namespace {

class ControlCommandsTest : public ::testing::Test {
 protected:
  boost::asio::io_context io;
  driver::TimedLun driver{io, iscsi::testing::memory_lun()};
  ControlCommands commands{
      {{"iqn.2026-11.org.memstore:a", 0, "g2", "memory", &driver, "--device g2"}},
      [](driver::TimedLun& d, std::function<json(driver::TimedLun&)> work,
         ControlCommands::Reply reply) { reply(work(d)); }};

  json ask(const json& request) {
    json out;
    commands.handle(request.dump(), [&](json r) { out = std::move(r); });
    return out;
  }
  scsi::Status read(std::uint64_t lba) {
    scsi::Status status = scsi::Status::kGood;
    const std::vector<std::uint8_t> cdb = scsi::testing::read16(lba, 1);
    driver.submit({.nexus = 1, .tag = next_tag++, .cdb = cdb, .data_out = {}},
                  [&](scsi::ScsiResult r) { status = r.status; });
    io.run();
    io.restart();
    return status;
  }
  std::uint64_t next_tag = 1;
};

TEST_F(ControlCommandsTest, LunsListsEveryLun) {
  const json r = ask({{"cmd", "luns"}});
  EXPECT_TRUE(r["ok"]);
  ASSERT_EQ(r["luns"].size(), 1U);
  EXPECT_EQ(r["luns"][0]["target"], "iqn.2026-11.org.memstore:a");
  EXPECT_EQ(r["luns"][0]["device"], "g2");
}

// trace-start and trace-stop (docs/memstored.md, "Traces"): the LUN's
// media requests from the start to the stop, and the command that replays them.
TEST_F(ControlCommandsTest, TraceStartAndStopCaptureTheLunsRequests) {
  char dir[] = "/tmp/memstore-trace-XXXXXX";
  ASSERT_NE(::mkdtemp(dir), nullptr);
  const std::string file = std::string(dir) + "/lun0.trace";
  EXPECT_THAT(ask({{"cmd", "trace-start"}, {"lun", 0}, {"file", "lun0.trace"}})["error"],
              ::testing::HasSubstr("file: must be an absolute path"));
  EXPECT_THAT(ask({{"cmd", "trace-start"}, {"lun", 0}, {"file", file}, {"format", "csv"}})["error"],
              ::testing::HasSubstr("format: must be \"disksim\" or \"spc\""));
  const json started = ask({{"cmd", "trace-start"}, {"lun", 0}, {"file", file}});
  ASSERT_TRUE(started["ok"]) << started.dump();
  EXPECT_THAT(
      started["replay"].get<std::string>(),
      ::testing::MatchesRegex("memsim replay --device g2 --set power.idle_timeout_ns=[0-9]+ "
                              "--set power.merge_requests=false --set "
                              "power.subsector=false --scheduler fcfs --absolute-times "
                              "--format disksim --trace /tmp/memstore-trace-.*/lun0.trace"));
  EXPECT_THAT(ask({{"cmd", "trace-start"}, {"lun", 0}, {"file", file}})["error"],
              ::testing::HasSubstr("is capturing into '" + file + "' already"));
  ASSERT_EQ(read(8), scsi::Status::kGood);
  ASSERT_EQ(read(16), scsi::Status::kGood);
  const json stopped = ask({{"cmd", "trace-stop"}, {"lun", 0}});
  ASSERT_TRUE(stopped["ok"]) << stopped.dump();
  EXPECT_EQ(stopped["requests"], 2);
  EXPECT_EQ(stopped["file"], file);
  EXPECT_THAT(ask({{"cmd", "trace-stop"}, {"lun", 0}})["error"],
              ::testing::HasSubstr("is not capturing"));
  std::ifstream in(file);
  int requests = 0;
  for (std::string line; std::getline(in, line);) requests += line.rfind('#', 0) == 0 ? 0 : 1;
  EXPECT_EQ(requests, 2);
  std::filesystem::remove_all(dir);
}

TEST_F(ControlCommandsTest, SessionsAreListedByTargetWithWhatTheyNegotiated) {
  EXPECT_FALSE(ask({{"cmd", "sessions"}})["ok"]) << "refused without the daemon's server";
  commands.set_sessions([](std::function<void(std::vector<SessionInfo>)> done) {
    done({{"iqn.2026-11.org.memstore:a",
           "iqn.1994-05.com.example:h1",
           "800000000001",
           3,
           "10.0.0.5:40000",
           "10.0.0.1:3260",
           12,
           75,
           40,
           2,
           {{"ImmediateData", "Yes"}}},
          {"iqn.2026-11.org.memstore:b",
           "iqn.1994-05.com.example:h2",
           "800000000002",
           4,
           "10.0.0.6:40001",
           "10.0.0.1:3260",
           1,
           64,
           1,
           0,
           {}}});
  });
  const json all = ask({{"cmd", "sessions"}});
  ASSERT_TRUE(all["ok"]);
  ASSERT_EQ(all["sessions"].size(), 2U);
  const json& s = all["sessions"][0];
  EXPECT_EQ(s["initiator"], "iqn.1994-05.com.example:h1");
  EXPECT_EQ(s["isid"], "800000000001");
  EXPECT_EQ(s["tsih"], 3);
  EXPECT_EQ(s["exp_cmd_sn"], 12);
  EXPECT_EQ(s["max_cmd_sn"], 75);
  EXPECT_EQ(s["commands_in_flight"], 2);
  EXPECT_EQ(s["negotiated"]["ImmediateData"], "Yes");
  EXPECT_EQ(s["connections"][0]["peer"], "10.0.0.5:40000");
  EXPECT_EQ(s["connections"][0]["portal"], "10.0.0.1:3260");

  const json b = ask({{"cmd", "connections"}, {"target", "iqn.2026-11.org.memstore:b"}});
  ASSERT_TRUE(b["ok"]);
  ASSERT_EQ(b["connections"].size(), 1U);
  EXPECT_EQ(b["connections"][0]["initiator"], "iqn.1994-05.com.example:h2");
  EXPECT_EQ(b["connections"][0]["peer"], "10.0.0.6:40001");

  const json bad = ask({{"cmd", "sessions"}, {"target", 7}});
  EXPECT_FALSE(bad["ok"]);
  EXPECT_NE(bad["error"].get<std::string>().find("target:"), std::string::npos) << bad;
}

TEST_F(ControlCommandsTest, StatsCountReadsAndWritesApart) {
  read(0);
  read(1);
  const json r = ask({{"cmd", "stats"}, {"lun", 0}});
  EXPECT_EQ(r["reads"], 2);
  EXPECT_EQ(r["writes"], 0);
  EXPECT_EQ(r["commands"], 2);
}

TEST_F(ControlCommandsTest, ARuleAddedAtRunTimeFiresAndCanBeRemoved) {
  EXPECT_EQ(read(5), scsi::Status::kGood);
  const json added = ask({{"cmd", "fault-add"},
                          {"lun", 0},
                          {"rule", {{"op", "read"}, {"lba", {5, 5}}, {"action", "busy"}}}});
  ASSERT_TRUE(added["ok"]) << added.dump();
  EXPECT_EQ(read(5), scsi::Status::kBusy);
  EXPECT_EQ(read(6), scsi::Status::kGood);
  const json listed = ask({{"cmd", "faults"}, {"lun", 0}});
  ASSERT_EQ(listed["faults"].size(), 1U);
  EXPECT_EQ(listed["faults"][0]["fired"], 1);
  EXPECT_EQ(listed["faults"][0]["matched"], 1);
  // The listing is the rule's own keys: it can be added back as it is.
  EXPECT_EQ(listed["faults"][0]["rule"],
            (json{{"op", "read"}, {"lba", {5, 5}}, {"action", "busy"}}));
  const json stats = ask({{"cmd", "stats"}, {"lun", 0}});
  EXPECT_EQ(stats["faults_fired"], 1);
  EXPECT_EQ(stats["commands"], 3);
  EXPECT_EQ(stats["bytes_in"], 2 * 512);
  EXPECT_TRUE(ask({{"cmd", "fault-remove"}, {"lun", 0}, {"id", added["id"]}})["ok"]);
  EXPECT_EQ(read(5), scsi::Status::kGood);
  // The count of faults fired only grows: the removed rule's firing stays.
  EXPECT_EQ(ask({{"cmd", "stats"}, {"lun", 0}})["faults_fired"], 1);
}

TEST_F(ControlCommandsTest, ASlowSeekRuleIsListedAsItsOwnKeys) {
  const json rule = {
      {"action", "slow-seek"}, {"x", {100, 200}}, {"y", {0, 26}}, {"factor", 4.0}, {"sled", 0}};
  const json added = ask({{"cmd", "fault-add"}, {"lun", 0}, {"rule", rule}});
  ASSERT_TRUE(added["ok"]) << added.dump();
  EXPECT_EQ(read(5), scsi::Status::kGood);  // timing only
  const json listed = ask({{"cmd", "faults"}, {"lun", 0}});
  ASSERT_EQ(listed["faults"].size(), 1U);
  EXPECT_EQ(listed["faults"][0]["rule"], rule);
  EXPECT_EQ(listed["faults"][0]["fired"], 0);
  // The listing adds back as it is.
  EXPECT_TRUE(ask({{"cmd", "fault-add"}, {"lun", 0}, {"rule", listed["faults"][0]["rule"]}})["ok"]);
}

TEST_F(ControlCommandsTest, TargetsAreAddedAndRemovedThroughTheAdmin) {
  EXPECT_EQ(ask({{"cmd", "target-add"}, {"config", {{"name", "x"}}}})["error"],
            "cmd: this daemon does not add targets at run time");
  std::optional<toml::table> seen;
  driver::TimedLun second{io, iscsi::testing::memory_lun()};
  std::vector<std::string> removed;
  ControlCommands::TargetAdmin admin;
  admin.add = [&](const toml::table& t) -> Expected<std::vector<ControlLun>> {
    seen = t;
    if (t["name"].value_or(std::string()) == "bad") return Error("config.portals: taken");
    return std::vector<ControlLun>{
        {"iqn.2026-11.org.memstore:b", 0, "g2", "memory", &second, "--device g2"}};
  };
  admin.remove = [&](const std::string& target, const std::vector<ControlLun>& luns) {
    removed.push_back(target + ":" + std::to_string(luns.size()));
    return Status();
  };
  commands.set_target_admin(admin);
  EXPECT_EQ(ask({{"cmd", "target-add"}})["error"].get<std::string>().substr(0, 48),
            "config: is missing; give the target as an object");
  EXPECT_EQ(ask({{"cmd", "target-add"}, {"config", {{"name", "bad"}}}})["error"],
            "config.portals: taken");
  // Nested tables reach the admin as TOML: [target.chap] and [[target.lun]].
  const json added = ask({{"cmd", "target-add"},
                          {"config",
                           {{"name", "iqn.2026-11.org.memstore:b"},
                            {"chap", {{"user", "u"}, {"secret", "0123456789abcdef"}}},
                            {"lun", json::array({{{"id", 0}, {"backing", "memory"}}})}}}});
  ASSERT_TRUE(added["ok"]) << added.dump();
  EXPECT_EQ(added["luns"], json::array({0}));
  ASSERT_TRUE(seen);
  EXPECT_EQ((*seen)["chap"]["user"].value_or(std::string()), "u");
  EXPECT_EQ((*seen)["lun"][0]["backing"].value_or(std::string()), "memory");
  EXPECT_EQ(ask({{"cmd", "luns"}})["luns"].size(), 2U);
  // Now there are two targets: a LUN command must name one.
  EXPECT_FALSE(ask({{"cmd", "stats"}, {"lun", 0}})["ok"]);
  EXPECT_TRUE(ask({{"cmd", "stats"}, {"target", "iqn.2026-11.org.memstore:b"}, {"lun", 0}})["ok"]);
  const json gone = ask({{"cmd", "target-remove"}, {"target", "iqn.2026-11.org.memstore:b"}});
  ASSERT_TRUE(gone["ok"]) << gone.dump();
  EXPECT_EQ(removed, std::vector<std::string>{"iqn.2026-11.org.memstore:b:1"});
  EXPECT_EQ(ask({{"cmd", "luns"}})["luns"].size(), 1U);
  EXPECT_EQ(ask({{"cmd", "target-remove"}})["error"],
            "target: is missing; name the target to remove (`luns` lists them)");
}

TEST_F(ControlCommandsTest, ErrorsNameTheKey) {
  auto error = [&](const json& request) { return ask(request).value("error", std::string()); };
  EXPECT_EQ(error({{"cmd", "fault-add"}, {"lun", 0}, {"rule", {{"action", "busy"}, {"tip", 3}}}}),
            "rule.tip: is not a key of action \"busy\"; it takes op, lba, initiator, every, "
            "probability, once, after_ms, action");
  EXPECT_EQ(error({{"cmd", "fault-add"}, {"lun", 0}}).substr(0, 17), "rule: is missing;");
  EXPECT_EQ(error({{"cmd", "stats"}, {"lun", 9}}),
            "lun: no LUN 9 of target 'iqn.2026-11.org.memstore:a' (`luns` lists them)");
  EXPECT_EQ(error({{"cmd", "stats"}}), "lun: must be a LUN number (`luns` lists them)");
  EXPECT_EQ(error({{"cmd", "fault-remove"}, {"lun", 0}, {"id", 4}}),
            "id: the LUN has no rule 4; `faults` lists them");
  EXPECT_EQ(error({{"cmd", "timing"}, {"lun", 0}, {"scale", 0}}),
            "scale: must be a number from 0.001 to 1000 (1.0 = real time)");
  EXPECT_EQ(error({{"cmd", "explode"}}).substr(0, 32), "cmd: unknown command 'explode'; ");
  std::string out;
  commands.handle("not json", [&](json r) { out = r["error"]; });
  EXPECT_EQ(out.substr(0, 34), "a request is one JSON object per l");
}

// JSON-RPC 2.0 (json_rpc.h): the same commands by method and named params,
// results and errors in the specification's form, a notification answered
// with nothing, and the methods listed.
TEST_F(ControlCommandsTest, JsonRpcRequestsGetTheSpecificationsResponses) {
  const json luns = ask({{"jsonrpc", "2.0"}, {"id", 7}, {"method", "luns"}});
  EXPECT_EQ(luns["jsonrpc"], "2.0");
  EXPECT_EQ(luns["id"], 7);
  ASSERT_TRUE(luns.contains("result")) << luns.dump();
  EXPECT_FALSE(luns["result"].contains("ok"));
  EXPECT_EQ(luns["result"]["luns"][0]["device"], "g2");

  const json timing = ask({{"jsonrpc", "2.0"},
                           {"id", "t"},
                           {"method", "timing"},
                           {"params", {{"lun", 0}, {"mode", "scaled"}, {"scale", 2}}}});
  EXPECT_EQ(timing["id"], "t");
  EXPECT_EQ(timing["result"]["timing"], "scaled");

  auto code = [&](const json& request) { return ask(request)["error"]["code"].get<int>(); };
  EXPECT_EQ(code({{"jsonrpc", "2.0"}, {"id", 1}, {"method", "explode"}}), kRpcMethodNotFound);
  EXPECT_EQ(code({{"jsonrpc", "2.0"}, {"id", 1}, {"method", "stats"}, {"params", {1, 2}}}),
            kRpcInvalidParams);
  EXPECT_EQ(code({{"jsonrpc", "1.0"}, {"id", 1}, {"method", "luns"}}), kRpcInvalidRequest);
  EXPECT_EQ(code({{"jsonrpc", "2.0"}, {"id", {1}}, {"method", "luns"}}), kRpcInvalidRequest);
  EXPECT_EQ(code({{"jsonrpc", "2.0"}, {"id", 1}}), kRpcInvalidRequest);
  const json failed =
      ask({{"jsonrpc", "2.0"}, {"id", 2}, {"method", "stats"}, {"params", {{"lun", 9}}}});
  EXPECT_EQ(failed["error"]["code"], kRpcCommandFailed);
  EXPECT_EQ(failed["error"]["message"],
            "lun: no LUN 9 of target 'iqn.2026-11.org.memstore:a' (`luns` lists them)");
  EXPECT_EQ(failed["id"], 2);

  // A notification runs and gets no response: only the log sees its reply.
  const json quiet = ask({{"jsonrpc", "2.0"},
                          {"method", "fault-add"},
                          {"params", {{"lun", 0}, {"rule", {{"action", "busy"}}}}}});
  ASSERT_TRUE(quiet.contains(ControlCommands::kNotificationKey)) << quiet.dump();
  EXPECT_EQ(ask({{"cmd", "faults"}, {"lun", 0}})["faults"].size(), 1U) << "it ran";

  const json methods = ask({{"jsonrpc", "2.0"}, {"id", 3}, {"method", "rpc_get_methods"}});
  const auto& names = methods["result"]["methods"];
  for (const char* m : {"rpc_get_methods", "luns", "lun-add", "save", "stats", "power-cut"}) {
    EXPECT_NE(std::find(names.begin(), names.end(), m), names.end()) << m;
  }
}

TEST_F(ControlCommandsTest, AtMostTwentyFourFailedTips) {
  auto add_tip = [&](int tip) {
    return ask({{"cmd", "fault-add"},
                {"lun", 0},
                {"rule", {{"action", "failed-tip"}, {"tip", tip}, {"spare", true}}}});
  };
  for (int tip = 0; tip < 24; ++tip) ASSERT_TRUE(add_tip(tip)["ok"]) << tip;
  EXPECT_TRUE(add_tip(5)["ok"]);  // a tip already listed adds none
  EXPECT_EQ(add_tip(24).value("error", std::string()),
            "rule.tip: the LUN has 24 failed tips, the most page 20h lists; remove one first");
  const json listed = ask({{"cmd", "faults"}, {"lun", 0}});
  EXPECT_EQ(listed["faults"].size(), 25U);
  EXPECT_EQ(listed["faults"][0]["rule"]["spare"], true);
}

// power-cut: the LUN tells the transport first (here: records how long it
// stays off), then cuts; a LUN without a volatile cache loses nothing and
// says so. While it is off it answers nothing.
TEST_F(ControlCommandsTest, APowerCutTellsTheTransportThenCuts) {
  std::vector<std::chrono::nanoseconds> told;
  driver.lun().set_power_lost([&](std::chrono::nanoseconds off) { told.push_back(off); });
  const json r =
      ask({{"cmd", "power-cut"}, {"lun", 0}, {"policy", "torn"}, {"seed", 5}, {"off_ms", 250}});
  ASSERT_TRUE(r.value("ok", false)) << r.dump();
  ASSERT_EQ(told.size(), 1u);
  EXPECT_EQ(told[0], std::chrono::milliseconds(250));
  EXPECT_EQ(r["policy"], "torn");
  EXPECT_EQ(r["seed"], 5);
  EXPECT_EQ(r["off_ms"], 250.0);
  EXPECT_EQ(r["writes_volatile"], 0);
  EXPECT_EQ(r["blocks_lost"], 0);
  EXPECT_TRUE(driver.lun().powered_off(driver.model_time()));
  auto error = [&](const json& request) { return ask(request).value("error", std::string()); };
  EXPECT_EQ(error({{"cmd", "power-cut"}, {"lun", 0}, {"policy", "some"}}),
            "policy: must be \"drop-all\", \"keep-random\" or \"torn\"");
  EXPECT_EQ(error({{"cmd", "power-cut"}, {"lun", 0}, {"seed", -1}}),
            "seed: must be a number from 0 to 2^64-1");
  EXPECT_EQ(error({{"cmd", "power-cut"}, {"lun", 0}, {"off_ms", -1}}),
            "off_ms: must be a time from 0 to 3600000 ms");
  EXPECT_EQ(error({{"cmd", "power-cut"}, {"lun", 0}, {"off_ms", "long"}}),
            "off_ms: must be a time from 0 to 3600000 ms");
  EXPECT_EQ(told.size(), 1u) << "a refused request cuts nothing";
}

// A command still in the device when its power is cut is never answered,
// though the model decides its result after the cut: the write it would
// acknowledge may be one the cut took. The next command is answered.
TEST(PowerCutDelivery, ACommandInTheDeviceAtTheCutIsNeverAnswered) {
  boost::asio::io_context io;
  driver::TimedLun d{io, iscsi::testing::memory_lun({scsi::TimingMode::kRealtime, 1.0})};
  const std::vector<std::uint8_t> cdb = scsi::testing::read16(100000, 8);
  bool answered = false;
  d.submit({.nexus = 1, .tag = 1, .cdb = cdb, .data_out = {}},
           [&](scsi::ScsiResult) { answered = true; });
  ASSERT_TRUE(d.lun().power_cycle(scsi::CutPolicy::kDropAll, 1, d.model_time(), 0, "a test").ok());
  std::optional<scsi::Status> next;
  d.submit({.nexus = 1, .tag = 2, .cdb = cdb, .data_out = {}},
           [&](scsi::ScsiResult r) { next = r.status; });
  io.run();
  EXPECT_FALSE(answered);
  EXPECT_EQ(next, scsi::Status::kCheckCondition) << "the power-on unit attention";
}

TEST_F(ControlCommandsTest, TimingChangesPage22h) {
  const json r = ask({{"cmd", "timing"}, {"lun", 0}, {"mode", "scaled"}, {"scale", 2.5}});
  ASSERT_TRUE(r["ok"]) << r.dump();
  EXPECT_EQ(driver.lun().control().timing, scsi::TimingMode::kScaled);
  EXPECT_EQ(driver.lun().control().scale_milli, 2500U);
  EXPECT_EQ(driver.lun().timing().scale, 2.5);
  // A delay rule needs a due time: timing off is refused while one is there.
  ASSERT_TRUE(ask(
      {{"cmd", "fault-add"}, {"lun", 0}, {"rule", {{"action", "delay"}, {"delay_ms", 1}}}})["ok"]);
  EXPECT_FALSE(ask({{"cmd", "timing"}, {"lun", 0}, {"mode", "off"}})["ok"]);
}

}  // namespace
}  // namespace memstore::control

namespace memstore::control {
namespace {

TEST(MetricsText, EveryLunInTheExpositionFormat) {
  LunSample a{"iqn.a\"b", 0, {}, {}, 2};
  a.counters = {.commands = 7,
                .check_conditions = 1,
                .reads = 4,
                .writes = 2,
                .bytes_in = 4096,
                .bytes_out = 512};
  for (const std::int64_t late_ns : {500, 1'500, 4'000, 3'000'000}) a.lateness.add(late_ns);
  const LunSample c{"iqn.c", 3, {}, {}, 0};
  const std::string text = metrics_text(metric_families({a, c}, 3));
  auto has = [&](const std::string& line) {
    EXPECT_NE(text.find(line + "\n"), std::string::npos) << line << "\nnot in:\n" << text;
  };
  has("# TYPE memstore_commands_total counter");
  has("memstore_commands_total{target=\"iqn.a\\\"b\",lun=\"0\"} 7");
  has("memstore_reads_total{target=\"iqn.a\\\"b\",lun=\"0\"} 4");
  has("memstore_writes_total{target=\"iqn.a\\\"b\",lun=\"0\"} 2");
  has("memstore_faults_fired_total{target=\"iqn.a\\\"b\",lun=\"0\"} 2");
  has("memstore_bytes_total{target=\"iqn.a\\\"b\",lun=\"0\",direction=\"in\"} 4096");
  // A histogram: cumulative counts at each bound, every delivery under +Inf.
  has("# TYPE memstore_delivery_lateness_seconds histogram");
  has("memstore_delivery_lateness_seconds_bucket{target=\"iqn.a\\\"b\",lun=\"0\",le=\"1e-06\"} 1");
  has("memstore_delivery_lateness_seconds_bucket{target=\"iqn.a\\\"b\",lun=\"0\",le=\"2e-06\"} 2");
  has("memstore_delivery_lateness_seconds_bucket{target=\"iqn.a\\\"b\",lun=\"0\",le=\"5e-06\"} 3");
  has("memstore_delivery_lateness_seconds_bucket{target=\"iqn.a\\\"b\",lun=\"0\",le=\"0.002\"} 3");
  has("memstore_delivery_lateness_seconds_bucket{target=\"iqn.a\\\"b\",lun=\"0\",le=\"0.005\"} 4");
  has("memstore_delivery_lateness_seconds_bucket{target=\"iqn.a\\\"b\",lun=\"0\",le=\"+Inf\"} 4");
  has("memstore_delivery_lateness_seconds_count{target=\"iqn.a\\\"b\",lun=\"0\"} 4");
  has("memstore_delivery_lateness_seconds_count{target=\"iqn.c\",lun=\"3\"} 0");
  has("memstore_connections 3");
  EXPECT_NE(text.find("memstore_build_info{version=\""), std::string::npos);
  EXPECT_NE(text.find("\nprocess_resident_memory_bytes "), std::string::npos);
  EXPECT_NE(text.find("\nprocess_open_fds "), std::string::npos);
}

// lun-add and lun-remove: the request checked here, the LUN opened by the
// daemon's LunAdmin (a stand-in that records what it was given), and the
// list that `luns`, `stats` and the metrics use changed by both.
TEST_F(ControlCommandsTest, LunAddAndRemoveChangeTheListTheOtherCommandsUse) {
  EXPECT_FALSE(ask({{"cmd", "lun-add"}, {"config", {{"id", 1}}}})["ok"]);  // no admin given
  driver::TimedLun added{io, iscsi::testing::memory_lun()};
  std::string given_target;
  std::vector<std::string> removed;
  commands.set_lun_admin(
      {[&](const std::string& target, const toml::table& spec) -> Expected<ControlLun> {
         given_target = target;
         if (spec["backing"].value_or(std::string()) == "nowhere")
           return Error("config.backing: refused");
         return ControlLun{target, static_cast<std::uint16_t>(spec["id"].value_or(0)),
                           "g2",   "memory",
                           &added, "--device g2"};
       },
       [&](const ControlLun& l) {
         removed.push_back(l.target + "/" + std::to_string(l.id));
         return Status();
       }});
  const json no_config = ask({{"cmd", "lun-add"}});
  EXPECT_FALSE(no_config["ok"]);
  EXPECT_NE(no_config["error"].get<std::string>().find("config:"), std::string::npos);
  const json refused = ask({{"cmd", "lun-add"}, {"config", {{"id", 1}, {"backing", "nowhere"}}}});
  EXPECT_EQ(refused["error"], "config.backing: refused");

  const json ok = ask({{"cmd", "lun-add"}, {"config", {{"id", 1}, {"backing", "memory"}}}});
  ASSERT_TRUE(ok["ok"]) << ok.dump();
  EXPECT_EQ(given_target, "iqn.2026-11.org.memstore:a");  // the only target
  EXPECT_EQ(ask({{"cmd", "luns"}})["luns"].size(), 2U);
  EXPECT_TRUE(ask({{"cmd", "stats"}, {"lun", 1}})["ok"]);  // served by the new driver

  EXPECT_TRUE(ask({{"cmd", "lun-remove"}, {"lun", 1}})["ok"]);
  EXPECT_EQ(removed, std::vector<std::string>{"iqn.2026-11.org.memstore:a/1"});
  EXPECT_EQ(ask({{"cmd", "luns"}})["luns"].size(), 1U);
  const json again = ask({{"cmd", "lun-remove"}, {"lun", 1}});
  EXPECT_FALSE(again["ok"]);
  EXPECT_NE(again["error"].get<std::string>().find("no LUN 1"), std::string::npos);
  EXPECT_FALSE(ask({{"cmd", "stats"}, {"lun", 1}})["ok"]);
}

}  // namespace
}  // namespace memstore::control

namespace memstore::control {
namespace {

// A disk LUN (docs/memstored.md, "Disk LUNs"): rules by LBA work up to its
// own capacity; the rules that name a MEMStore's tips or media do not.
TEST(ControlCommandsDisk, GeometryRulesAreRefusedOnADisk) {
  boost::asio::io_context io;
  scsi::LunConfig config;
  config.disk = model::disk_preset("atlas10k");
  config.timing = {scsi::TimingMode::kOff, 1.0};
  driver::TimedLun driver{io, scsi::testing::make_lun(std::move(config))};
  ControlCommands commands{
      {{"iqn.2026-11.org.memstore:d", 0, "atlas10k", "memory", &driver, "--device atlas10k"}},
      [](driver::TimedLun& d, std::function<json(driver::TimedLun&)> work,
         ControlCommands::Reply reply) { reply(work(d)); }};
  auto ask = [&](const json& rule) {
    json out;
    commands.handle(json{{"cmd", "fault-add"}, {"lun", 0}, {"rule", rule}}.dump(),
                    [&](json r) { out = std::move(r); });
    return out;
  };
  EXPECT_EQ(ask({{"action", "failed-tip"}, {"tip", 3}}).value("error", std::string()),
            "rule.action: \"failed-tip\" needs a MEMStore's probe tips, media and sled; this "
            "LUN is a disk (use \"medium-error\" with lba instead)");
  EXPECT_EQ(ask({{"action", "media-region"}, {"x", {0, 9}}, {"y", {0, 9}}})
                .value("error", std::string())
                .substr(0, 36),
            "rule.action: \"media-region\" needs a ");
  // The disk's last LBA, beyond any MEMStore's.
  EXPECT_TRUE(ask({{"action", "medium-error"}, {"lba", {17966952, 17966952}}})["ok"]);
  EXPECT_FALSE(ask({{"action", "medium-error"}, {"lba", {0, 17966953}}})["ok"]);
}

}  // namespace
}  // namespace memstore::control
