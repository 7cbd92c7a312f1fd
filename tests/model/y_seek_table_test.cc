// SPDX-License-Identifier: Apache-2.0
#include "model/y_seek_table.h"

#include <gtest/gtest.h>

#include <cstring>
#include <string>

#include "model/mems_mechanism.h"
#include "model/params.h"
#include "model/seek_piecewise.h"

namespace memstore::model {
namespace {

// Bit for bit, not within a tolerance: the table must change no result.
bool same_bits(double a, double b) {
  return std::memcmp(&a, &b, sizeof a) == 0;
}

// The table's key for a parameter set, as MemsMechanism builds it.
YSeekTable::Key key_of(const DeviceParams& p) {
  const double bit_m = p.bit_width_nm * 1e-9;
  const std::int32_t pitch = p.servo_bits_per_sector + p.data_bits_per_sector;
  const std::int32_t rows = (p.region_bits_y - p.servo_bits_per_sector) / pitch;
  return {Axis::make(p.sled_accel_m_s2, p.spring_factor, p.region_bits_y * bit_m / 2),
          bit_m,
          p.per_tip_rate_bit_s * bit_m,
          (rows * pitch + p.servo_bits_per_sector) / 2,
          pitch,
          p.servo_bits_per_sector,
          rows};
}

DeviceParams variant(const std::string& name) {
  if (name == "no-servo") {
    DeviceParams p = *preset("g2");
    p.servo_bits_per_sector = 0;
    p.region_bits_y = 2000;
    return p;
  }
  return *preset(name);
}

class YSeekTableTest : public ::testing::TestWithParam<std::string> {};

TEST_P(YSeekTableTest, EveryEntryIsTheDirectComputation) {
  const YSeekTable::Key key = key_of(variant(GetParam()));
  const auto table = YSeekTable::shared(key);
  ASSERT_NE(table, nullptr);
  for (std::int32_t i = 0; i < table->points(); ++i) {
    for (std::int32_t j = 0; j < table->points(); ++j) {
      const std::int32_t y0 = table->point_bits(i), y1 = table->point_bits(j);
      const double* t = table->find(y0, y1);
      ASSERT_NE(t, nullptr) << y0 << " " << y1;
      const double direct =
          base_seek_s(key.axis, y0 * key.bit_m, y1 * key.bit_m, key.v_m_s, key.v_m_s);
      ASSERT_TRUE(same_bits(*t, direct)) << y0 << " -> " << y1 << ": " << *t << " " << direct;
    }
  }
}

TEST_P(YSeekTableTest, HoldsEveryAccessPointAndNothingElse) {
  const DeviceParams p = variant(GetParam());
  const MemsMechanism m(p);
  const auto table = YSeekTable::shared(key_of(p));
  ASSERT_NE(table, nullptr);
  const std::int32_t rest = m.state().y_bits;
  for (std::int32_t y = 0; y < m.geometry().sy(); ++y) {
    for (std::int32_t dir : {+1, -1}) {
      EXPECT_NE(table->find(m.access_start_y(y, dir), rest), nullptr) << y << " " << dir;
      EXPECT_NE(table->find(rest, m.access_end_y(y, dir)), nullptr) << y << " " << dir;
    }
  }
  // Off the combs (between points, beyond the band): computed, not looked up.
  const std::int32_t lowest = m.access_start_y(0, +1);
  EXPECT_EQ(table->find(lowest + 1, rest), nullptr);
  EXPECT_EQ(table->find(rest, lowest - 1), nullptr);
  EXPECT_EQ(table->find(m.access_start_y(m.geometry().sy() - 1, -1) + 1, rest), nullptr);
}

TEST_P(YSeekTableTest, MechanismYSeeksEqualTheFormula) {
  // Every Y positioning the mechanism computes from every access point (both
  // directions of travel) to every row start, against y_seek itself.
  const DeviceParams p = variant(GetParam());
  const MemsMechanism m(p);
  const YSeekTable::Key key = key_of(p);
  const std::int32_t sy = m.geometry().sy();
  for (std::int32_t from_row = 0; from_row < sy; ++from_row) {
    for (std::int32_t from_dir : {+1, -1}) {
      const SledState from{0, m.access_end_y(from_row, from_dir), from_dir};
      for (std::int32_t row = 0; row < sy; ++row) {
        for (std::int32_t dir : {+1, -1}) {
          const Positioning got = m.position_in(from, 0, row, dir);
          const std::int32_t to_y = m.access_start_y(row, dir);
          YSeek want;
          if (to_y != from.y_bits || dir != from.y_dir) {
            want = y_seek(key.axis, from.y_bits * key.bit_m, from_dir * key.v_m_s, to_y * key.bit_m,
                          dir * key.v_m_s);
          }
          ASSERT_TRUE(same_bits(got.y.base_s, want.base_s)) << from_row << " " << row;
          ASSERT_TRUE(same_bits(got.y.turnaround_s, want.turnaround_s));
          ASSERT_EQ(got.y.turnarounds, want.turnarounds);
        }
      }
    }
  }
}

INSTANTIATE_TEST_SUITE_P(Presets, YSeekTableTest,
                         ::testing::Values("g1", "g2", "g3", "uysal03", "no-servo"),
                         [](const auto& param_info) {
                           std::string name = param_info.param;
                           std::erase(name, '-');
                           return name;
                         });

TEST(YSeekTable, G2IsSmallAndShared) {
  const DeviceParams p = *preset("g2");
  const auto a = YSeekTable::shared(key_of(p));
  ASSERT_NE(a, nullptr);
  EXPECT_EQ(a->points(), 56);  // Sy = 27: 28 row starts and 28 servo-shifted ones
  EXPECT_EQ(a->bytes(), 56u * 56u * sizeof(double));
  EXPECT_EQ(YSeekTable::shared(key_of(p)), a);
  // Too many rows: no table, every seek computed.
  DeviceParams tall = p;
  tall.region_bits_y = 100'000;
  EXPECT_EQ(YSeekTable::shared(key_of(tall)), nullptr);
}

}  // namespace
}  // namespace memstore::model
