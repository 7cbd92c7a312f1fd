// SPDX-License-Identifier: Apache-2.0
// Vendor pages 20h-22h and the standard pages 08h, 0Ah, 1Ah, 1Ch, byte for
// byte (docs/vendor-interface.md, "Vendor page 20h").
#include "modepages/mode_pages.h"

#include <gmock/gmock.h>
#include <gtest/gtest.h>

#include <cstdint>
#include <tuple>
#include <vector>

#include "model/geometry.h"
#include "model/params.h"
#include "model/scheduler.h"
#include "modepages/mode_vendor.h"

namespace memstore::modepages {
namespace {

using ::testing::ElementsAreArray;

model::DeviceParams g2() {
  return *model::preset("g2");
}

// M = 5, G = 4, two sleds.
model::DeviceParams custom() {
  model::DeviceParams p = g2();
  p.micropositioning = 5;
  p.conflict_group = 4;
  p.sleds = 2;
  return p;
}

// --- An independent reader of page 20h, from vendor-interface.md's table ---

std::uint64_t be(const Bytes& b, std::size_t at, std::size_t n) {
  std::uint64_t v = 0;
  for (std::size_t i = 0; i < n; ++i) v = (v << 8) | b.at(at + i);
  return v;
}

struct HandDecoded {
  std::uint64_t p, n, sx, sy, m, nx, ny, st, sc, blocks_per_sled, g, sleds;
  bool bidirectional, conflicts;
};

HandDecoded read_by_hand(const Bytes& b) {
  return {be(b, 6, 4),  be(b, 10, 4), be(b, 14, 4),       be(b, 18, 4),      be(b, 22, 4),
          be(b, 26, 4), be(b, 30, 4), be(b, 34, 4),       be(b, 38, 4),      be(b, 42, 8),
          be(b, 50, 4), b.at(5),      (b.at(4) & 1) != 0, (b.at(4) & 2) != 0};
}

TEST(GeometryPage, G2BytesFollowTheDesignTable) {
  const Bytes page = encode(geometry_page_from(g2()));
  const std::vector<std::uint8_t> want = {
      0x20, 58,   0x00, 0x01, 0x01, 0x01,              // code, length, version, flags, sleds
      0x00, 0x00, 0x00, 0x0A, 0x00, 0x00, 0x00, 0x64,  // p = 10, N = 100
      0x00, 0x00, 0x09, 0xC4, 0x00, 0x00, 0x00, 0x1B,  // Sx = 2500, Sy = 27
      0x00, 0x00, 0x00, 0x00,                          // M = 0
      0x00, 0x00, 0x00, 0x0A, 0x00, 0x00, 0x00, 0x0A,  // Nx = 10, Ny = 10
      0x00, 0x00, 0x01, 0x0E, 0x00, 0x00, 0x0A, 0x8C,  // ST = 270, SC = 2700
      0x00, 0x00, 0x00, 0x00, 0x00, 0x66, 0xFF, 0x30,  // 6 750 000 blocks per sled
      0x00, 0x00, 0x00, 0x00,                          // G = 0
      0x01, 0x00, 0x00, 0x00, 0x10, 0x00};             // 256 descriptors, 4096 blocks
  EXPECT_THAT(page, ElementsAreArray(want));
}

TEST(GeometryPage, IndependentReaderRecoversG2Geometry) {
  const HandDecoded d = read_by_hand(encode(geometry_page_from(g2())));
  EXPECT_EQ(d.p, 10u);
  EXPECT_EQ(d.n, 100u);
  EXPECT_EQ(d.sx, 2500u);
  EXPECT_EQ(d.sy, 27u);
  EXPECT_EQ(d.m, 0u);
  EXPECT_EQ(d.nx, 10u);
  EXPECT_EQ(d.ny, 10u);
  EXPECT_EQ(d.st, 270u);
  EXPECT_EQ(d.sc, 2700u);
  EXPECT_EQ(d.blocks_per_sled, 6'750'000u);
  EXPECT_EQ(d.g, 0u);
  EXPECT_EQ(d.sleds, 1u);
  EXPECT_TRUE(d.bidirectional);
  EXPECT_FALSE(d.conflicts);
}

TEST(GeometryPage, IndependentReaderRecoversCustomGeometry) {
  const model::DeviceParams params = custom();
  const model::Geometry geo(params);
  const HandDecoded d = read_by_hand(encode(geometry_page_from(params)));
  EXPECT_EQ(d.p, static_cast<std::uint64_t>(geo.p()));
  EXPECT_EQ(d.n, static_cast<std::uint64_t>(geo.n()));
  EXPECT_EQ(d.sx, static_cast<std::uint64_t>(geo.sx()));
  EXPECT_EQ(d.sy, static_cast<std::uint64_t>(geo.sy()));
  EXPECT_EQ(d.m, 5u);
  EXPECT_EQ(d.nx, static_cast<std::uint64_t>(geo.nx()));
  EXPECT_EQ(d.ny, static_cast<std::uint64_t>(geo.ny()));
  EXPECT_EQ(d.st, static_cast<std::uint64_t>(geo.st()));
  EXPECT_EQ(d.sc, static_cast<std::uint64_t>(geo.sc()));
  EXPECT_EQ(d.blocks_per_sled, 6'750'000u);
  EXPECT_EQ(d.g, 4u);
  EXPECT_EQ(d.sleds, 2u);
  EXPECT_TRUE(d.conflicts);
}

TEST(GeometryPage, RoundTrips) {
  for (const model::DeviceParams& params : {g2(), custom(), *model::preset("g1")}) {
    const GeometryPage page = geometry_page_from(params);
    EXPECT_EQ(decode_geometry_page(encode(page)), page) << params.name;
  }
}

TEST(GeometryPage, DecodeRejectsWrongCodeShortLengthOrVersion) {
  const Bytes good = encode(geometry_page_from(g2()));
  Bytes b = good;
  b[0] = 0x21;
  EXPECT_FALSE(decode_geometry_page(b));
  b = good;
  b[0] |= 0x40;  // SPF: a sub_page, not this page
  EXPECT_FALSE(decode_geometry_page(b));
  b = good;
  b[1] = 57;
  EXPECT_FALSE(decode_geometry_page(b));
  b = good;
  b[3] = 2;
  EXPECT_FALSE(decode_geometry_page(b));
  EXPECT_FALSE(decode_geometry_page(std::span(good).first(59)));
}

TEST(GeometryPage, DecodeAcceptsALongerPageAndPsBit) {
  Bytes b = encode(geometry_page_from(custom()));
  b[0] |= 0x80;
  b[1] = 66;
  // An empty failed-tip list (bytes 60-63), then fields a later version appends.
  b.insert(b.end(), {0, 0, 0, 0, 1, 2, 3, 4});
  EXPECT_EQ(decode_geometry_page(b), geometry_page_from(custom()));
  b[1] = 67;  // announces more bytes than there are
  EXPECT_FALSE(decode_geometry_page(b));
}

TEST(GeometryPage, FailedTipsAreAppendedOnlyWhenThereAreAny) {
  GeometryPage page = geometry_page_from(g2());
  EXPECT_EQ(encode(page).size(), kGeometryPageSize);  // a healthy device: version 1 as it was
  page.failed_tips = {{0, false, 7}, {0, true, 99}};
  const Bytes b = encode(page);
  ASSERT_EQ(b.size(), 60u + 4 + 2 * 8);
  EXPECT_EQ(b[1], 78);
  EXPECT_EQ(std::vector<std::uint8_t>(b.begin() + 60, b.end()),
            (std::vector<std::uint8_t>{0, 2, 0, 0,                  // two tips
                                       0, 0, 0, 0, 0, 0, 0, 7,      // sled 0, failing, tip 7
                                       0, 1, 0, 0, 0, 0, 0, 99}));  // sled 0, spared, tip 99
  EXPECT_EQ(decode_geometry_page(b), page);
}

TEST(GeometryPage, DecodeRejectsAFailedTipListLongerThanThePage) {
  GeometryPage page = geometry_page_from(g2());
  page.failed_tips = {{0, false, 7}};
  Bytes b = encode(page);
  b[61] = 2;  // two tips announced, one present
  EXPECT_FALSE(decode_geometry_page(b));
  b[61] = 25;  // more than a page_0 page can hold
  EXPECT_FALSE(decode_geometry_page(b));
}

TEST(PhysicsPage, G2BytesFollowTheDocumentedTable) {
  const Bytes page = encode(physics_page_from(g2()));
  const std::vector<std::uint8_t> want = {
      0x21, 98,   0x00, 0x01, 0x01, 0x00, 0x00, 0x0A, 0x00, 0x50, 0x00, 0x00,  // 0-11
      0x00, 0x00, 0x9C, 0x40,  // 12 bit width 40 000 pm
      0x00, 0x00, 0x09, 0xC4,  // 16 region bits x 2500
      0x00, 0x00, 0x09, 0xC4,  // 20 region bits y 2500
      0x00, 0x00, 0x19, 0x00,  // 24 tips 6400
      0x00, 0x00, 0x02, 0x80,  // 28 active tips 640
      0x00, 0x00, 0x00, 0x40,  // 32 tips per block 64
      0x2F, 0xE5, 0xF6, 0x80,  // 36 acceleration 803 600 000 um/s2
      0x00, 0x0A, 0xAE, 0x60,  // 40 per-tip rate 700 000 bit/s
      0x00, 0x00, 0x6D, 0x60,  // 44 access velocity 28 000 um/s
      0x00, 0x0B, 0x71, 0xB0,  // 48 spring factor 750 000 ppm
      0x00, 0x0B, 0x46, 0xB8,  // 52 resonance 739 000 mHz
      0x00, 0x0F, 0x42, 0x40,  // 56 settle time constants 1 000 000 ppm
      0x00, 0x01, 0xF6, 0x3B,  // 60 row 128 571 ns
      0x00, 0x03, 0x49, 0x45,  // 64 settle 215 365 ns
      0x00, 0x01, 0x10, 0x36,  // 68 turnaround at the centre 69 686 ns
      0x00, 0x00, 0x03, 0xE8,  // 72 tip active 1000 uW
      0x00, 0x01, 0x86, 0xA0,  // 76 sled motion 100 000 uW
      0x00, 0x00, 0xC3, 0x50,  // 80 inactive 50 000 uW
      0x00, 0x07, 0xA1, 0x20,  // 84 startup 500 000 ns
      0x00, 0x00, 0x00, 0x64,  // 88 idle timeout 100 ms
      0x00, 0x00, 0xC3, 0x50,  // 92 startup energy 50 000 nJ
      0x00, 0x00, 0x00, 0x00,  // 96 idle tips 0
  };
  EXPECT_THAT(page, ElementsAreArray(want));
}

TEST(PhysicsPage, FlagsAndIdleTimeoutEncodings) {
  model::DeviceParams p = *model::preset("g1");
  p.cylinder_switch = model::CylinderSwitch::kMinTurnaround;
  p.power.idle_timeout_ns = -1;
  PhysicsPage h = physics_page_from(p);
  EXPECT_FALSE(h.bidirectional);
  EXPECT_TRUE(h.min_turnaround_cylinder_switch);
  EXPECT_EQ(h.idle_timeout_ms, kNeverIdleTimeout);
  EXPECT_EQ(encode(h)[4], 0x02);
  p.power.idle_timeout_ns = 1'500'001;  // rounds up to whole ms
  EXPECT_EQ(physics_page_from(p).idle_timeout_ms, 2u);
  p.power.idle_timeout_ns = 0;
  EXPECT_EQ(physics_page_from(p).idle_timeout_ms, 0u);
}

TEST(PhysicsPage, RoundTripsAndRejectsOtherVersions) {
  for (const char* name : {"g1", "g2", "g3"}) {
    const PhysicsPage h = physics_page_from(*model::preset(name));
    EXPECT_EQ(decode_physics_page(encode(h)), h) << name;
  }
  Bytes b = encode(physics_page_from(g2()));
  b[3] = 0;
  EXPECT_FALSE(decode_physics_page(b));
  b[3] = 1;
  EXPECT_FALSE(decode_physics_page(std::span(b).first(99)));
}

TEST(ControlPage, BytesAndRoundTrip) {
  const ControlPage c{
      .scheduler = *scheduler_index("sptf"), .timing = TimingMode::kScaled, .scale_milli = 2500};
  const Bytes b = encode(c);
  EXPECT_THAT(b, ElementsAreArray<std::uint8_t>(
                     {0x22, 14, 0x00, 0x01, 3, 1, 0, 0, 0x00, 0x00, 0x09, 0xC4, 0, 0, 0, 0}));
  EXPECT_EQ(*decode_control_page(b), c);
  EXPECT_THAT(control_page_changeable(),
              ElementsAreArray<std::uint8_t>(
                  {0x22, 14, 0, 0, 0xFF, 0xFF, 0x03, 0, 0xFF, 0xFF, 0xFF, 0xFF, 0, 0, 0, 0}));
}

// Byte 6: bit 0 request merging, bit 1 subsector accesses (power paper §5.2);
// the other bits are reserved.
TEST(ControlPage, PowerStrategiesInByteSix) {
  for (const auto& [merge, subsector, byte6] :
       {std::tuple{true, false, 0x01}, {false, true, 0x02}, {true, true, 0x03}}) {
    const ControlPage c{.merge_requests = merge, .subsector = subsector};
    const Bytes b = encode(c);
    EXPECT_EQ(b[6], byte6);
    EXPECT_EQ(*decode_control_page(b), c);
  }
  for (const int reserved : {0x04, 0x80, 0xFF}) {
    Bytes b = encode(ControlPage{});
    b[6] = static_cast<std::uint8_t>(reserved);
    const FieldError e = decode_control_page(b, 100).error();
    EXPECT_EQ(e.kind, FieldError::Kind::kInvalidFieldInParamList);
    EXPECT_EQ(e.byte, 106);
  }
}

TEST(ControlPage, SchedulerIndexFollowsTheModelsTable) {
  const std::vector<std::string> names = model::scheduler_names();
  for (std::size_t i = 0; i < names.size(); ++i) {
    EXPECT_EQ(scheduler_index(names[i]), i);
    EXPECT_EQ(scheduler_name(static_cast<std::uint8_t>(i)), names[i]);
  }
  EXPECT_FALSE(scheduler_index("elevator"));
  EXPECT_FALSE(scheduler_name(static_cast<std::uint8_t>(names.size())));
}

FieldError control_error(std::size_t byte, std::uint8_t value, std::uint16_t at = 100) {
  Bytes b = encode(ControlPage{});
  b[byte] = value;
  return decode_control_page(b, at).error();
}

TEST(ControlPage, DecodeNamesTheInvalidField) {
  const auto kind = FieldError::Kind::kInvalidFieldInParamList;
  FieldError e = control_error(4, static_cast<std::uint8_t>(model::scheduler_names().size()));
  EXPECT_EQ(e.kind, kind);
  EXPECT_EQ(e.byte, 104);
  EXPECT_EQ(e.bit, -1);
  e = control_error(5, 3);
  EXPECT_EQ(e.kind, kind);
  EXPECT_EQ(e.byte, 105);
  e = control_error(3, 2);
  EXPECT_EQ(e.byte, 102);
  Bytes zero_scale = encode(ControlPage{.scale_milli = 0});
  e = decode_control_page(zero_scale, 4).error();
  EXPECT_EQ(e.kind, kind);
  EXPECT_EQ(e.byte, 12);
  e = decode_control_page(std::span(zero_scale).first(15), 4).error();
  EXPECT_EQ(e.kind, FieldError::Kind::kParamListLengthError);
}

TEST(StandardPages, CachingBytesAndMask) {
  EXPECT_THAT(encode(CachingPage{.wce = true}),
              ElementsAreArray<std::uint8_t>(
                  {0x08, 0x12, 0x05, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0}));
  EXPECT_EQ(caching_changeable(true)[2], 0x04);
  EXPECT_EQ(caching_changeable(false)[2], 0x00);
  EXPECT_EQ(decode_caching_page(encode(CachingPage{.wce = true, .rcd = false})),
            (CachingPage{.wce = true, .rcd = false}));
}

TEST(StandardPages, ControlBytesAndMask) {
  EXPECT_THAT(encode(ControlModePage{}),
              ElementsAreArray<std::uint8_t>({0x0A, 0x0A, 0x02, 0, 0, 0, 0, 0, 0, 0, 0, 0}));
  EXPECT_THAT(control_mode_changeable(),
              ElementsAreArray<std::uint8_t>({0x0A, 0x0A, 0x04, 0, 0, 0, 0, 0, 0, 0, 0, 0}));
  EXPECT_TRUE(decode_control_mode_page(encode(ControlModePage{.d_sense = true})).d_sense);
}

TEST(StandardPages, PowerConditionBytesAndMask) {
  const Bytes b = encode(power_condition_from_idle_timeout(100'000'000));
  ASSERT_EQ(b.size(), 40u);
  std::vector<std::uint8_t> want(40, 0);
  want[0] = 0x1A;
  want[1] = 0x26;
  want[3] = 0x01;   // STANDBY_Z
  want[11] = 1;     // standby_z condition timer: 1 x 100 ms
  want[39] = 0x54;  // CCF IDLE / STANDBY / STOPPED = 01b
  EXPECT_THAT(b, ElementsAreArray(want));
  const Bytes mask = power_condition_changeable(true);
  EXPECT_EQ(mask[3], 0x01);
  EXPECT_THAT(std::span(mask).subspan(8, 4),
              ElementsAreArray<std::uint8_t>({0xFF, 0xFF, 0xFF, 0xFF}));
  EXPECT_EQ(power_condition_changeable(false), page_frame(0x1A, 40));
}

TEST(StandardPages, IdleTimeoutConversions) {
  EXPECT_EQ(power_condition_from_idle_timeout(-1), (PowerConditionPage{}));
  EXPECT_EQ(power_condition_from_idle_timeout(0), (PowerConditionPage{true, 0}));
  EXPECT_EQ(power_condition_from_idle_timeout(150'000'000), (PowerConditionPage{true, 2}));
  EXPECT_EQ(power_condition_from_idle_timeout(std::int64_t{1} << 62), (PowerConditionPage{}));
  EXPECT_EQ(idle_timeout_ns_of({true, 5}), 500'000'000);
  EXPECT_EQ(idle_timeout_ns_of({false, 5}), -1);
}

TEST(StandardPages, InformationalExceptionsBytesNothingChangeable) {
  EXPECT_THAT(info_exceptions_page(),
              ElementsAreArray<std::uint8_t>({0x1C, 0x0A, 0x08, 0, 0, 0, 0, 0, 0, 0, 0, 0}));
  EXPECT_EQ(info_exceptions_changeable(), page_frame(0x1C, 12));
}

}  // namespace
}  // namespace memstore::modepages
