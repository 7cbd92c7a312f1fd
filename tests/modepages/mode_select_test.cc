// SPDX-License-Identifier: Apache-2.0
// MODE SELECT(6/10) (SPC-4 MODE SELECT and mode parameters): successful changes, then one
// test per error with its exact FieldError (kind, byte, bit).
#include <gtest/gtest.h>

#include <cstdint>
#include <string>
#include <vector>

#include "model/scheduler.h"
#include "modepages/mode_pages.h"
#include "modepages/mode_sense.h"

namespace memstore::modepages {
namespace {

using Kind = FieldError::Kind;

const std::vector<std::uint8_t> kHeader6 = {0, 0, 0, 0};
const std::vector<std::uint8_t> kHeader6Bd = {0, 0, 0, 8};
const std::vector<std::uint8_t> kHeader10 = {0, 0, 0, 0, 0, 0, 0, 0};
const std::vector<std::uint8_t> kDescriptorG2 = {0x00, 0x66, 0xFF, 0x30, 0x00, 0x00, 0x02, 0x00};

Bytes concat(std::initializer_list<std::vector<std::uint8_t>> parts) {
  Bytes out;
  for (const auto& p : parts) out.insert(out.end(), p.begin(), p.end());
  return out;
}

// "" for success, else what the error says.
std::string error_text(const FieldStatus& s) {
  return s.ok() ? "" : s.error().what;
}

class ModeSelectTest : public ::testing::Test {
 protected:
  FieldStatus select6(const Bytes& list) { return mode_select(state_, false, true, false, list); }
  FieldStatus select10(const Bytes& list) { return mode_select(state_, true, true, false, list); }
  // Expects `s` to fail with exactly (kind, byte, bit) and the state untouched.
  void expect_error(const FieldStatus& s, Kind kind, int byte, int bit) {
    ASSERT_FALSE(s.ok());
    const FieldError& e = s.error();
    EXPECT_EQ(e.kind, kind) << e.what;
    EXPECT_EQ(e.byte, byte) << e.what;
    EXPECT_EQ(e.bit, bit) << e.what;
    for (const ModePage& p : state_.pages()) EXPECT_EQ(p.current, p.defaults);
  }
  Bytes current(std::uint8_t code) const { return state_.find(code, 0)->current; }

  model::DeviceParams params_ = *model::preset("g2");
  ModeState state_{params_, ModeOptions{}};
};

TEST_F(ModeSelectTest, ClearsWceWithABlockDescriptor) {
  Bytes caching = current(0x08);
  caching[2] &= static_cast<std::uint8_t>(~0x04);
  EXPECT_EQ(error_text(select6(concat({kHeader6Bd, kDescriptorG2, caching}))), "");
  EXPECT_FALSE(state_.wce());
  EXPECT_EQ(current(0x08), caching);
  EXPECT_EQ(state_.find(0x08, 0)->defaults[2], 0x05);  // defaults stay
}

TEST_F(ModeSelectTest, SetsDSenseWithSelect10) {
  Bytes control = current(0x0A);
  control[2] |= 0x04;
  EXPECT_EQ(error_text(select10(concat({kHeader10, control}))), "");
  EXPECT_TRUE(state_.d_sense());
}

TEST_F(ModeSelectTest, ChangesTheVendorControlPage) {
  const ControlPage want{
      .scheduler = *scheduler_index("zsptf"), .timing = TimingMode::kScaled, .scale_milli = 250};
  EXPECT_EQ(error_text(select6(concat({kHeader6, encode(want)}))), "");
  EXPECT_EQ(state_.control(), want);
}

TEST_F(ModeSelectTest, ChangesTheStandbyTimer) {
  EXPECT_EQ(error_text(select6(concat({kHeader6, encode(PowerConditionPage{true, 5})}))), "");
  EXPECT_EQ(state_.idle_timeout_ns(), 500'000'000);
  EXPECT_EQ(error_text(select6(concat({kHeader6, encode(PowerConditionPage{false, 0})}))), "");
  EXPECT_EQ(state_.idle_timeout_ns(), -1);
}

TEST_F(ModeSelectTest, EchoingEveryPageBackChangesNothing) {
  ModeSenseRequest r{.ten = true, .page = kAllPages, .blocks = state_.blocks(), .block_size = 512};
  Bytes all = *mode_sense(state_, r);
  EXPECT_EQ(error_text(select10(all)), "");
  for (const ModePage& p : state_.pages()) EXPECT_EQ(p.current, p.defaults);
  r.llbaa = true;  // long descriptor, zero blocks = "no change"
  all = *mode_sense(state_, r);
  for (int i = 8; i < 16; ++i) all[static_cast<std::size_t>(i)] = 0;
  EXPECT_EQ(error_text(select10(all)), "");
}

TEST_F(ModeSelectTest, EmptyListIsNotAnError) {
  EXPECT_EQ(error_text(select6({})), "");
}

TEST_F(ModeSelectTest, SpIsInvalidFieldInCdbByte1Bit0) {
  expect_error(mode_select(state_, false, true, true, concat({kHeader6, current(0x08)})),
               Kind::kInvalidFieldInCdb, 1, 0);
}

TEST_F(ModeSelectTest, PfZeroIsInvalidFieldInCdbByte1Bit4) {
  expect_error(mode_select(state_, false, false, false, concat({kHeader6, current(0x08)})),
               Kind::kInvalidFieldInCdb, 1, 4);
}

TEST_F(ModeSelectTest, TruncatedHeaderIsAListLengthError) {
  expect_error(select10({0, 0, 0, 0}), Kind::kParamListLengthError, 0, -1);
}

TEST_F(ModeSelectTest, TruncatedBlockDescriptorIsAListLengthError) {
  expect_error(select6(concat({kHeader6Bd, {0, 0, 0}})), Kind::kParamListLengthError, 4, -1);
}

TEST_F(ModeSelectTest, TruncatedPageIsAListLengthError) {
  Bytes list = concat({kHeader6, current(0x0A), current(0x08)});
  list.pop_back();
  expect_error(select6(list), Kind::kParamListLengthError, 16, -1);
}

TEST_F(ModeSelectTest, NonZeroMediumTypeIsInvalid) {
  expect_error(select6({0, 0x01, 0, 0}), Kind::kInvalidFieldInParamList, 1, -1);
}

TEST_F(ModeSelectTest, BadBlockDescriptorLengthIsInvalid) {
  expect_error(select6(concat({{0, 0, 0, 7}, kDescriptorG2})), Kind::kInvalidFieldInParamList, 3,
               -1);
  expect_error(select10(concat({{0, 0, 0, 0, 0, 0, 0, 16}, kDescriptorG2, kDescriptorG2})),
               Kind::kInvalidFieldInParamList, 6, -1);  // 16 bytes without LONGLBA
}

TEST_F(ModeSelectTest, OtherNumberOfBlocksIsInvalid) {
  Bytes bd = kDescriptorG2;
  bd[3] = 0x31;
  expect_error(select6(concat({kHeader6Bd, bd})), Kind::kInvalidFieldInParamList, 4, -1);
}

TEST_F(ModeSelectTest, OtherBlockLengthIsInvalid) {
  Bytes bd = {0, 0, 0, 0, 0, 0, 0x10, 0x00};  // 0 blocks (no change), 4096-byte blocks
  expect_error(select6(concat({kHeader6Bd, bd})), Kind::kInvalidFieldInParamList, 9, -1);
  Bytes long_bd(16, 0);
  long_bd[14] = 0x10;
  expect_error(select10(concat({{0, 0, 0, 0, 1, 0, 0, 16}, long_bd})),
               Kind::kInvalidFieldInParamList, 20, -1);
}

TEST_F(ModeSelectTest, PsBitIsInvalid) {
  Bytes page = current(0x08);
  page[0] |= 0x80;
  expect_error(select6(concat({kHeader6, page})), Kind::kInvalidFieldInParamList, 4, 7);
}

TEST_F(ModeSelectTest, UnsupportedPageIsInvalidAtItsCode) {
  expect_error(select6(concat({kHeader6, current(0x0A), {0x05, 0x02, 0, 0}})),
               Kind::kInvalidFieldInParamList, 16, 5);
}

TEST_F(ModeSelectTest, UnsupportedSubpageIsInvalidAtItsSubpageCode) {
  expect_error(select6(concat({kHeader6, {0x48, 0x01, 0x00, 0x10}})),
               Kind::kInvalidFieldInParamList, 5, -1);
}

TEST_F(ModeSelectTest, WrongPageLengthIsInvalidAtTheLengthByte) {
  Bytes page = current(0x0A);
  page[1] = 0x0B;
  page.push_back(0);
  expect_error(select6(concat({kHeader6, page})), Kind::kInvalidFieldInParamList, 5, -1);
}

TEST_F(ModeSelectTest, ChangingANonChangeableBitNamesByteAndBit) {
  Bytes caching = current(0x08);
  caching[2] &= static_cast<std::uint8_t>(~0x01);  // RCD
  expect_error(select6(concat({kHeader6Bd, kDescriptorG2, caching})),
               Kind::kInvalidFieldInParamList, 14, 0);
  Bytes geometry = current(0x20);
  geometry[9] = 20;  // p: 10 -> 20, highest changed bit is bit 4
  expect_error(select10(concat({kHeader10, geometry})), Kind::kInvalidFieldInParamList, 17, 4);
}

TEST_F(ModeSelectTest, WceIsFixedWhenTheLunSaysSo) {
  state_ = ModeState(params_, {.write_cache = true, .write_cache_changeable = false});
  Bytes caching = current(0x08);
  caching[2] = 0x01;
  expect_error(select6(concat({kHeader6, caching})), Kind::kInvalidFieldInParamList, 6, 2);
}

TEST_F(ModeSelectTest, UnknownSchedulerIsInvalid) {
  Bytes page = encode(ControlPage{});
  page[4] = static_cast<std::uint8_t>(model::scheduler_names().size());
  expect_error(select6(concat({kHeader6, page})), Kind::kInvalidFieldInParamList, 8, -1);
}

TEST_F(ModeSelectTest, UnknownTimingModeIsInvalid) {
  Bytes page = encode(ControlPage{});
  page[5] = 3;
  expect_error(select6(concat({kHeader6, page})), Kind::kInvalidFieldInParamList, 9, -1);
}

TEST_F(ModeSelectTest, ZeroScaleFactorIsInvalid) {
  expect_error(select6(concat({kHeader6, encode(ControlPage{.scale_milli = 0})})),
               Kind::kInvalidFieldInParamList, 12, -1);
}

TEST_F(ModeSelectTest, ScaleFactorAboveItsBoundIsInvalid) {
  expect_error(select6(concat({kHeader6, encode(ControlPage{.scale_milli = kMaxScaleMilli + 1})})),
               Kind::kInvalidFieldInParamList, 12, -1);
  expect_error(select6(concat({kHeader6, encode(ControlPage{.scale_milli = 0xFFFF'FFFF})})),
               Kind::kInvalidFieldInParamList, 12, -1);
  const ControlPage slowest{.timing = TimingMode::kScaled, .scale_milli = kMaxScaleMilli};
  EXPECT_EQ(error_text(select6(concat({kHeader6, encode(slowest)}))), "");
  EXPECT_EQ(state_.control(), slowest);
}

// Without the right to change control pages: page 22h is refused at its
// page code (byte 0 bit 5 of the page) if it changes anything, whatever its
// fields say; sent back unchanged it is accepted, and other pages still change.
TEST_F(ModeSelectTest, ControlPageChangeNeedsTheRight) {
  const auto denied = [this](const Bytes& list) {
    return mode_select(state_, false, true, false, list, /*may_change_control=*/false);
  };
  const ControlPage scaled{.timing = TimingMode::kScaled, .scale_milli = 4000};
  expect_error(denied(concat({kHeader6, encode(scaled)})), Kind::kAccessDenied, 4, 5);
  expect_error(denied(concat({kHeader6, encode(ControlPage{.scale_milli = 0})})),
               Kind::kAccessDenied, 4, 5);
  // After another page: the pointer names this page's code, nothing applies.
  Bytes caching = current(0x08);
  caching[2] &= static_cast<std::uint8_t>(~0x04);
  expect_error(denied(concat({kHeader6, caching, encode(scaled)})), Kind::kAccessDenied, 4 + 20, 5);
  EXPECT_EQ(error_text(denied(concat({kHeader6, current(0x22), current(0x1A)}))), "");
  EXPECT_EQ(error_text(denied(concat({kHeader6, caching}))), "");
  EXPECT_FALSE(state_.wce());
  Bytes caching_back = caching;
  caching_back[2] |= 0x04;  // restore the default for expect_error below
  ASSERT_EQ(error_text(denied(concat({kHeader6, caching_back}))), "");
  // Power Condition 1Ah decides when the sled spins down: a control page too.
  expect_error(denied(concat({kHeader6, encode(PowerConditionPage{true, 0})})), Kind::kAccessDenied,
               4, 5);
  for (const ModePage& p : state_.pages()) {
    EXPECT_EQ(p.control, p.code == 0x22 || p.code == 0x1A) << int(p.code);
  }
}

TEST_F(ModeSelectTest, AnErrorInALaterPageAppliesNothing) {
  Bytes caching = current(0x08);
  caching[2] = 0x01;  // valid: clear WCE
  Bytes control = encode(ControlPage{.timing = TimingMode::kScaled, .scale_milli = 0});
  expect_error(select6(concat({kHeader6, caching, control})), Kind::kInvalidFieldInParamList,
               4 + 20 + 8, -1);
  EXPECT_TRUE(state_.wce());
}

}  // namespace
}  // namespace memstore::modepages
