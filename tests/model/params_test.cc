// SPDX-License-Identifier: Apache-2.0
#include "model/params.h"

#include <gmock/gmock.h>
#include <gtest/gtest.h>

#include <limits>

#include "model/geometry.h"
#include "model/mems_mechanism.h"
#include "model/params_toml.h"

namespace memstore::model {
namespace {

using ::testing::HasSubstr;

std::vector<std::string> keys_of(const std::vector<ParamError>& errors) {
  std::vector<std::string> keys;
  for (const ParamError& e : errors) keys.push_back(e.key);
  return keys;
}

TEST(Params, PresetsAreValid) {
  for (const std::string& name : preset_names()) {
    const auto p = preset(name);
    ASSERT_TRUE(p) << name;
    EXPECT_EQ(p->name, name);
    EXPECT_TRUE(validate(*p).empty()) << name;
  }
  EXPECT_FALSE(preset("g4"));
}

// The disk-array study's chip (Uysal, Merchant and Alvarez, FAST '03, Table 1), checked
// figure by figure against the table, the derived ones from the model itself.
TEST(Params, Uysal03HasTheArrayStudysTable1) {
  const DeviceParams p = *preset("uysal03");
  EXPECT_DOUBLE_EQ(p.bit_width_nm, 50);
  EXPECT_NEAR(p.sled_accel_m_s2 / 9.81, 70, 0.5);  // 70 g
  EXPECT_DOUBLE_EQ(p.per_tip_rate_bit_s, 400'000);
  EXPECT_EQ(p.tips, 6400);
  EXPECT_EQ(p.active_tips, 640);
  EXPECT_EQ(p.sleds, 1);
  EXPECT_FALSE(p.bidirectional);  // §2: no bidirectional reads
  // Settling time on x: settle_time_constants time constants of the sled (Eq. 3.5).
  const double settle_s =
      p.settle_time_constants / (2 * 3.141592653589793 * p.resonant_frequency_hz);
  EXPECT_NEAR(settle_s, 0.431e-3, 0.0005e-3);
  const MemsMechanism m(p);
  const Geometry g(p);
  EXPECT_EQ(g.blocks() * p.block_bytes, 2'560'000'000);  // per-sled capacity 2.56 GB
  // Max throughput: one row of p blocks per row time, 25.6 MB/s.
  const double bytes_per_s = g.p() * p.block_bytes / m.row_s();
  EXPECT_NEAR(bytes_per_s, 25.6e6, 1e3);
}

TEST(Params, G2FollowsTheThesisAndSecondPaper) {
  const DeviceParams p = *preset("g2");
  EXPECT_EQ(p.tips, 6400);
  EXPECT_EQ(p.active_tips, 640);
  EXPECT_EQ(p.tips_per_block, 64);
  EXPECT_DOUBLE_EQ(p.bit_width_nm, 40);
  EXPECT_DOUBLE_EQ(p.sled_accel_m_s2, 803.6);
  EXPECT_DOUBLE_EQ(p.per_tip_rate_bit_s * p.bit_width_nm * 1e-9, 0.028);  // 28 mm/s
  EXPECT_DOUBLE_EQ(p.resonant_frequency_hz, 739);
  EXPECT_DOUBLE_EQ(p.spring_factor, 0.75);
  EXPECT_TRUE(p.bidirectional);
  EXPECT_FALSE(preset("g1")->bidirectional);
}

TEST(Params, RejectsMoreActiveTipsThanTips) {
  DeviceParams p = *preset("g2");
  p.active_tips = 7040;
  const auto errors = validate(p);
  ASSERT_EQ(keys_of(errors), std::vector<std::string>{"active_tips"});
  EXPECT_THAT(errors[0].message, HasSubstr("only 6400 tips"));
}

TEST(Params, RejectsParallelismThatDoesNotDivideSquares) {
  DeviceParams p = *preset("g2");
  p.active_tips = 64 * 3;  // p = 3, N = 100
  const auto errors = validate(p);
  ASSERT_EQ(keys_of(errors), std::vector<std::string>{"active_tips"});
  EXPECT_THAT(errors[0].message, HasSubstr("does not divide N = 100"));
}

TEST(Params, RejectsImpossibleValuesByKey) {
  DeviceParams p = *preset("g2");
  p.spring_factor = 1.0;
  p.sleds = 0;
  p.micropositioning = -1;
  EXPECT_THAT(keys_of(validate(p)),
              ::testing::UnorderedElementsAre("spring_factor", "sleds", "micropositioning"));
}

TEST(Params, RejectsNonFiniteFiguresByKey) {
  DeviceParams p = *preset("g2");
  p.settle_time_constants = std::numeric_limits<double>::infinity();
  EXPECT_THAT(keys_of(validate(p)), ::testing::ElementsAre("settle_time_constants"));
  p = *preset("g2");
  p.power.tip_active_w = std::numeric_limits<double>::quiet_NaN();
  p.power.startup_j = -1;
  EXPECT_THAT(keys_of(validate(p)),
              ::testing::UnorderedElementsAre("power.tip_active_w", "power.startup_j"));
}

TEST(ParamsToml, OverridesAndPreset) {
  const ParamsResult r = params_from_toml(
      "preset = \"g3\"\nactive_tips = 640\ncylinder_switch = \"min_turnaround\"\n"
      "[power]\nidle_timeout_ns = 0\n",
      *preset("g2"));
  ASSERT_TRUE(r.params) << (r.errors.empty() ? "" : r.errors[0].message);
  EXPECT_EQ(r.params->name, "g3");
  EXPECT_DOUBLE_EQ(r.params->bit_width_nm, 30);
  EXPECT_EQ(r.params->active_tips, 640);
  EXPECT_EQ(r.params->cylinder_switch, CylinderSwitch::kMinTurnaround);
  EXPECT_EQ(r.params->power.idle_timeout_ns, 0);
}

TEST(ParamsToml, UnknownKeyIsNamedWithItsLine) {
  const ParamsResult r =
      params_from_toml("tips = 6400\nactive_tip = 10\n", *preset("g2"), "dev.toml");
  ASSERT_FALSE(r.params);
  ASSERT_EQ(r.errors.size(), 1u);
  EXPECT_EQ(r.errors[0].key, "active_tip");
  EXPECT_THAT(r.errors[0].message, HasSubstr("dev.toml:2"));
  EXPECT_THAT(r.errors[0].message, HasSubstr("unknown key 'active_tip'"));
}

TEST(ParamsToml, WrongTypeIsNamed) {
  const ParamsResult r = params_from_toml("active_tips = \"many\"\n", *preset("g2"));
  ASSERT_FALSE(r.params);
  EXPECT_EQ(r.errors[0].key, "active_tips");
  EXPECT_THAT(r.errors[0].message, HasSubstr("must be an integer"));
}

TEST(ParamsToml, ImpossibleCombinationIsNamed) {
  const ParamsResult r = params_from_toml("active_tips = 12800\n", *preset("g2"), "x.toml");
  ASSERT_FALSE(r.params);
  EXPECT_EQ(r.errors[0].key, "active_tips");
  EXPECT_THAT(r.errors[0].message, HasSubstr("x.toml: active_tips is 12800"));
}

TEST(ParamsToml, SyntaxErrorCarriesTheLine) {
  const ParamsResult r =
      params_from_toml("tips = 1\nactive_tips = = 3\n", *preset("g2"), "bad.toml");
  ASSERT_FALSE(r.params);
  EXPECT_THAT(r.errors[0].message, HasSubstr("bad.toml:2"));
}

TEST(ParamsToml, UnknownPresetAndPowerKeys) {
  EXPECT_EQ(params_from_toml("preset = \"g9\"\n", *preset("g2")).errors[0].key, "preset");
  EXPECT_EQ(params_from_toml("[power]\nwatts = 3\n", *preset("g2")).errors[0].key, "power.watts");
  EXPECT_EQ(params_from_toml("cylinder_switch = \"jump\"\n", *preset("g2")).errors[0].key,
            "cylinder_switch");
}

TEST(ParamsToml, EveryKeyInTheTableIsAccepted) {
  // The help text and docs list param_keys(); each must round-trip.
  for (const std::string& key : param_keys()) {
    if (key == "preset" || key == "cylinder_switch" || key == "bidirectional") continue;
    const std::string table = key.rfind("power.", 0) == 0 ? "[power]\n" + key.substr(6) : key;
    const auto r = params_from_toml(table + " = 1\n", *preset("g2"));
    for (const ParamError& e : r.errors) EXPECT_NE(e.message.find("unknown key"), 0u) << key;
    for (const ParamError& e : r.errors)
      EXPECT_THAT(e.message, ::testing::Not(HasSubstr("unknown key"))) << key;
  }
}

TEST(ParamsToml, WrittenSetReadsBackToTheSameValues) {
  DeviceParams odd = *preset("g3");
  odd.sled_accel_m_s2 = 803.6123456789012;  // needs all 17 digits
  odd.spring_factor = 0.1;
  odd.bit_width_nm = 30.5;
  odd.power.tip_active_w = 1e-30;  // written with an exponent
  odd.bidirectional = false;
  odd.cylinder_switch = CylinderSwitch::kMinTurnaround;
  odd.power.idle_timeout_ns = -1;
  odd.power.startup_j = 5e-5;
  for (const DeviceParams& p : {*preset("g1"), *preset("g2"), *preset("g3"), odd}) {
    const std::string text = params_to_toml(p);
    // Read on top of another preset: every key is written, so nothing of the base remains.
    const ParamsResult r = params_from_toml(text, *preset(p.name == "g1" ? "g2" : "g1"));
    ASSERT_TRUE(r.params) << text << (r.errors.empty() ? "" : r.errors[0].message);
    EXPECT_EQ(params_to_toml(*r.params), text);
    EXPECT_EQ(r.params->sled_accel_m_s2, p.sled_accel_m_s2);
  }
}

TEST(ParamsToml, WritesEveryKeyWithPlainNumbers) {
  const std::string text = "\n" + params_to_toml(*preset("g2"));
  for (const std::string& key : param_keys()) {
    if (key == "preset") continue;
    const std::string leaf = key.rfind("power.", 0) == 0 ? key.substr(6) : key;
    EXPECT_THAT(text, HasSubstr("\n" + leaf + " = ")) << key;
  }
  EXPECT_THAT(text, HasSubstr("\nper_tip_rate_bit_s = 700000.0\n"));
  EXPECT_THAT(text, HasSubstr("\nsled_accel_m_s2 = 803.6\n"));
  EXPECT_THAT(text, HasSubstr("\n[power]\n"));
  EXPECT_THAT(text, HasSubstr("\nstartup_j = 0.00005\n"));
  EXPECT_THAT(text, HasSubstr("\ncylinder_switch = \"seek\"\n"));
  const std::string json = params_to_json(*preset("g2"));
  EXPECT_THAT(json, HasSubstr("\"active_tips\": 640,"));
  EXPECT_THAT(json, HasSubstr("\"power\": {"));
}

}  // namespace
}  // namespace memstore::model
