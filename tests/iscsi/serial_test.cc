// SPDX-License-Identifier: Apache-2.0
// RFC 1982 serial number arithmetic with SERIAL_BITS = 32, including the
// wrap-around and the undefined comparison at a distance of exactly 2^31.
#include "target/iscsi/serial.h"

#include <gtest/gtest.h>

namespace memstore::iscsi {
namespace {

static_assert(serial_lt(1, 2));
static_assert(serial_in_window(5, 5, 5));

TEST(Serial, OrdinaryOrder) {
  EXPECT_TRUE(serial_lt(1, 2));
  EXPECT_FALSE(serial_lt(2, 1));
  EXPECT_TRUE(serial_gt(2, 1));
  EXPECT_FALSE(serial_gt(1, 2));
  EXPECT_TRUE(serial_le(1, 2));
  EXPECT_TRUE(serial_ge(2, 1));
}

TEST(Serial, EqualIsNeitherLessNorGreater) {
  for (const std::uint32_t a : {0u, 1u, 0x7FFFFFFFu, 0x80000000u, 0xFFFFFFFFu}) {
    EXPECT_FALSE(serial_lt(a, a));
    EXPECT_FALSE(serial_gt(a, a));
    EXPECT_TRUE(serial_le(a, a));
    EXPECT_TRUE(serial_ge(a, a));
  }
}

TEST(Serial, WrapAround) {
  EXPECT_TRUE(serial_lt(0xFFFFFFFF, 0));
  EXPECT_TRUE(serial_gt(0, 0xFFFFFFFF));
  EXPECT_TRUE(serial_lt(0xFFFFFFF0, 0x10));
  EXPECT_FALSE(serial_lt(0x10, 0xFFFFFFF0));
  EXPECT_EQ(serial_add(0xFFFFFFFF, 1), 0u);
  EXPECT_EQ(serial_add(0xFFFFFFFE, 5), 3u);
}

TEST(Serial, LargestDefinedDistance) {
  // 2^31 - 1 ahead is still "greater" (RFC 1982 §3.2).
  EXPECT_TRUE(serial_lt(0, 0x7FFFFFFF));
  EXPECT_TRUE(serial_gt(0x7FFFFFFF, 0));
  EXPECT_TRUE(serial_lt(0x80000000, 0xFFFFFFFF));
  EXPECT_TRUE(serial_lt(0xFFFFFFFF, 0x7FFFFFFE));
  // 2^31 + 1 ahead is 2^31 - 1 behind.
  EXPECT_TRUE(serial_gt(0, 0x80000001));
}

TEST(Serial, DistanceHalfTheSpaceIsUndefinedAndAnswersFalse) {
  for (const std::uint32_t a : {0u, 1u, 0x12345678u, 0x80000000u, 0xFFFFFFFFu}) {
    const std::uint32_t b = a + 0x80000000u;
    EXPECT_FALSE(serial_lt(a, b)) << a;
    EXPECT_FALSE(serial_gt(a, b)) << a;
    EXPECT_FALSE(serial_le(a, b)) << a;
    EXPECT_FALSE(serial_ge(a, b)) << a;
    EXPECT_FALSE(serial_lt(b, a)) << a;
    EXPECT_FALSE(serial_gt(b, a)) << a;
  }
}

TEST(Serial, WindowInclusiveAtBothEnds) {
  EXPECT_TRUE(serial_in_window(10, 10, 20));
  EXPECT_TRUE(serial_in_window(15, 10, 20));
  EXPECT_TRUE(serial_in_window(20, 10, 20));
  EXPECT_FALSE(serial_in_window(9, 10, 20));
  EXPECT_FALSE(serial_in_window(21, 10, 20));
}

TEST(Serial, WindowAcrossTheWrap) {
  EXPECT_TRUE(serial_in_window(0xFFFFFFFE, 0xFFFFFFF0, 0x10));
  EXPECT_TRUE(serial_in_window(0, 0xFFFFFFF0, 0x10));
  EXPECT_TRUE(serial_in_window(0x10, 0xFFFFFFF0, 0x10));
  EXPECT_FALSE(serial_in_window(0x11, 0xFFFFFFF0, 0x10));
  EXPECT_FALSE(serial_in_window(0xFFFFFFEF, 0xFFFFFFF0, 0x10));
}

TEST(Serial, EmptyWindowWhenMaxIsExpMinusOne) {
  // RFC 7143 §4.2.2.1: MaxCmdSN = ExpCmdSN - 1 closes the command window.
  for (const std::uint32_t exp : {0u, 1u, 0x80000000u, 0xFFFFFFFFu}) {
    const std::uint32_t max = exp - 1;
    for (const std::uint32_t x : {exp - 2, exp - 1, exp, exp + 1}) {
      EXPECT_FALSE(serial_in_window(x, exp, max)) << exp << " " << x;
    }
  }
}

TEST(Serial, WindowOfOne) {
  EXPECT_TRUE(serial_in_window(0xFFFFFFFF, 0xFFFFFFFF, 0xFFFFFFFF));
  EXPECT_FALSE(serial_in_window(0, 0xFFFFFFFF, 0xFFFFFFFF));
}

TEST(Serial, PointAtUndefinedDistanceFromWindowIsOutside) {
  EXPECT_FALSE(serial_in_window(0x80000000, 0, 0x100));
  EXPECT_FALSE(serial_in_window(0x80000005, 5, 0x7FFFFFFF));
}

}  // namespace
}  // namespace memstore::iscsi
