// SPDX-License-Identifier: Apache-2.0
// MODE SENSE(6/10) full responses for G2 (SPC-4 MODE SENSE and mode
// parameter header; SBC-3 block descriptors) and the page table they are generated from.
#include "modepages/mode_sense.h"

#include <gmock/gmock.h>
#include <gtest/gtest.h>

#include <algorithm>
#include <cstdint>
#include <utility>
#include <vector>

#include "modepages/mode_pages.h"

namespace memstore::modepages {
namespace {

using ::testing::ElementsAre;
using ::testing::ElementsAreArray;
using ::testing::Pair;

constexpr std::uint64_t kG2Blocks = 6'750'000;  // 0x0066FF30

class ModeSenseTest : public ::testing::Test {
 protected:
  ModeSenseRequest request(bool ten, std::uint8_t page) const {
    return {.ten = ten, .page = page, .blocks = kG2Blocks, .block_size = 512, .alloc_len = 0xFF};
  }
  Bytes sense(const ModeSenseRequest& r) const {
    auto result = mode_sense(state_, r);
    EXPECT_TRUE(result.ok()) << result.error().what;
    return result.ok() ? std::move(result).value() : Bytes{};
  }
  FieldError sense_error(const ModeSenseRequest& r) const {
    auto result = mode_sense(state_, r);
    EXPECT_FALSE(result.ok());
    return result.ok() ? FieldError{} : std::move(result.error());
  }
  // The page codes of a response, walking page headers from `from`.
  static std::vector<int> codes(const Bytes& b, std::size_t from) {
    std::vector<int> out;
    for (std::size_t at = from; at < b.size(); at += b[at + 1] + 2u) out.push_back(b[at] & 0x3F);
    return out;
  }

  model::DeviceParams params_ = *model::preset("g2");
  ModeState state_{params_, ModeOptions{}};
};

const std::vector<std::uint8_t> kCachingWce = {0x08, 0x12, 0x05, 0, 0, 0, 0, 0, 0, 0,
                                               0,    0,    0,    0, 0, 0, 0, 0, 0, 0};
const std::vector<std::uint8_t> kShortDescriptorG2 = {0x00, 0x66, 0xFF, 0x30,
                                                      0x00, 0x00, 0x02, 0x00};

// Bytes [from, from + n) of a response (to its end by default).
Bytes slice(const Bytes& b, std::size_t from, std::size_t n = SIZE_MAX) {
  const std::size_t end = n == SIZE_MAX ? b.size() : std::min(b.size(), from + n);
  return from <= end ? Bytes(b.begin() + from, b.begin() + end) : Bytes{};
}

Bytes concat(std::initializer_list<std::vector<std::uint8_t>> parts) {
  Bytes out;
  for (const auto& p : parts) out.insert(out.end(), p.begin(), p.end());
  return out;
}

TEST_F(ModeSenseTest, SupportedPagesComeFromTheTableInAscendingOrder) {
  EXPECT_THAT(state_.supported_pages(),
              ElementsAre(Pair(0x08, 0), Pair(0x0A, 0), Pair(0x1A, 0), Pair(0x1C, 0), Pair(0x20, 0),
                          Pair(0x21, 0), Pair(0x22, 0)));
  EXPECT_FALSE(state_.find(0x08, 0)->read_only());
  EXPECT_TRUE(state_.find(0x20, 0)->read_only());
  EXPECT_TRUE(state_.find(0x1C, 0)->read_only());
}

TEST_F(ModeSenseTest, Sense6CachingPage) {
  EXPECT_THAT(sense(request(false, 0x08)),
              ElementsAreArray(concat({{31, 0x00, 0x10, 8}, kShortDescriptorG2, kCachingWce})));
}

TEST_F(ModeSenseTest, Sense10CachingPage) {
  EXPECT_THAT(sense(request(true, 0x08)),
              ElementsAreArray(concat(
                  {{0x00, 34, 0x00, 0x10, 0x00, 0x00, 0x00, 8}, kShortDescriptorG2, kCachingWce})));
}

TEST_F(ModeSenseTest, Sense10AllPagesInAscendingOrder) {
  const Bytes b = sense(request(true, kAllPages));
  const std::size_t want = 8 + 8 + 20 + 12 + 40 + 12 + 60 + 100 + 16;
  ASSERT_EQ(b.size(), want);
  EXPECT_EQ((b[0] << 8) | b[1], static_cast<int>(want - 2));
  EXPECT_EQ(b[2], 0x00);  // medium type
  EXPECT_EQ(b[3], 0x10);  // DPOFUA
  EXPECT_EQ(b[7], 8);     // block descriptor length
  EXPECT_THAT(std::span(b).subspan(8, 8), ElementsAreArray(kShortDescriptorG2));
  EXPECT_THAT(codes(b, 16), ElementsAre(0x08, 0x0A, 0x1A, 0x1C, 0x20, 0x21, 0x22));
  std::size_t at = 16;
  for (const ModePage& p : state_.pages()) {
    EXPECT_THAT(std::span(b).subspan(at, p.current.size()), ElementsAreArray(p.current));
    at += p.current.size();
  }
  ModeSenseRequest all_subpages = request(true, kAllPages);
  all_subpages.subpage = kAllSubpages;
  EXPECT_EQ(sense(all_subpages), b);
}

TEST_F(ModeSenseTest, Sense6AllPagesStopsAtTheOneByteLengthLimit) {
  const Bytes b = sense(request(false, kAllPages));
  // Page 21h (100 bytes) would take the response to 256 bytes, beyond what a
  // one-byte ALLOCATION LENGTH can fetch: the list stops before it.
  ASSERT_EQ(b.size(), 156u);  // 4 + 8 + 20 + 12 + 40 + 12 + 60
  EXPECT_EQ(b[0], 155);
  EXPECT_EQ(b[3], 8);
  EXPECT_THAT(codes(b, 12), ElementsAre(0x08, 0x0A, 0x1A, 0x1C, 0x20));
  ModeSenseRequest r = request(false, kAllPages);
  r.dbd = true;
  const Bytes no_bd = sense(r);
  EXPECT_EQ(no_bd.size(), 248u);
  EXPECT_EQ(no_bd[0], 247);
  EXPECT_EQ(no_bd[3], 0);
  EXPECT_THAT(codes(no_bd, 4), ElementsAre(0x08, 0x0A, 0x1A, 0x1C, 0x20, 0x21));
}

TEST_F(ModeSenseTest, ChangeableAndDefaultPageControls) {
  ModeSenseRequest r = request(false, 0x08);
  r.pc = PageControl::kChangeable;
  r.dbd = true;
  EXPECT_THAT(sense(r), ElementsAreArray(
                            concat({{23, 0x00, 0x10, 0}, {0x08, 0x12, 0x04, 0, 0, 0, 0, 0, 0, 0, 0,
                                                          0,    0,    0,    0, 0, 0, 0, 0, 0}})));
  r.page = 0x22;
  EXPECT_THAT(slice(sense(r), 4), ElementsAreArray(control_page_changeable()));
  r.page = 0x20;
  EXPECT_THAT(slice(sense(r), 4), ElementsAreArray(page_frame(0x20, 60)));
  r.pc = PageControl::kDefault;
  EXPECT_THAT(slice(sense(r), 4), ElementsAreArray(state_.find(0x20, 0)->defaults));
}

TEST_F(ModeSenseTest, WceNotChangeableWhenTheLunSaysSo) {
  ModeState fixed(params_, {.write_cache = false, .write_cache_changeable = false});
  ModeSenseRequest r = request(false, 0x08);
  r.dbd = true;
  r.pc = PageControl::kChangeable;
  EXPECT_EQ((*mode_sense(fixed, r))[4 + 2], 0x00);
  r.pc = PageControl::kCurrent;
  EXPECT_EQ((*mode_sense(fixed, r))[4 + 2], 0x01);  // RCD only
  EXPECT_FALSE(fixed.wce());
}

TEST_F(ModeSenseTest, DbdOmitsTheBlockDescriptor) {
  ModeSenseRequest r = request(true, 0x08);
  r.dbd = true;
  EXPECT_THAT(sense(r),
              ElementsAreArray(concat({{0x00, 26, 0x00, 0x10, 0x00, 0x00, 0x00, 0}, kCachingWce})));
}

TEST_F(ModeSenseTest, LlbaaGivesALongDescriptorInSense10Only) {
  ModeSenseRequest r = request(true, 0x08);
  r.llbaa = true;
  EXPECT_THAT(sense(r), ElementsAreArray(concat({{0x00, 42, 0x00, 0x10, 0x01, 0x00, 0x00, 16},
                                                 {0, 0, 0, 0, 0x00, 0x66, 0xFF, 0x30, 0, 0, 0, 0,
                                                  0x00, 0x00, 0x02, 0x00},
                                                 kCachingWce})));
  r.ten = false;  // MODE SENSE(6) has no LLBAA bit
  EXPECT_EQ(sense(r), sense(request(false, 0x08)));
}

TEST_F(ModeSenseTest, LargeCapacitySaturatesTheShortDescriptor) {
  ModeSenseRequest r = request(false, 0x0A);
  r.blocks = 0x1'2345'6789;
  r.block_size = 4096;
  const Bytes b = sense(r);
  EXPECT_THAT(std::span(b).subspan(4, 8),
              ElementsAre(0xFF, 0xFF, 0xFF, 0xFF, 0x00, 0x00, 0x10, 0x00));
  r.ten = true;
  r.llbaa = true;
  EXPECT_THAT(slice(sense(r), 8, 16),
              ElementsAre(0, 0, 0, 0x01, 0x23, 0x45, 0x67, 0x89, 0, 0, 0, 0, 0, 0, 0x10, 0x00));
}

TEST_F(ModeSenseTest, WriteProtectedSetsWp) {
  ModeSenseRequest r = request(false, 0x1C);
  r.write_protected = true;
  EXPECT_EQ(sense(r)[2], 0x90);
  r.ten = true;
  EXPECT_EQ(sense(r)[3], 0x90);
}

TEST_F(ModeSenseTest, SubpageFfOfOnePageIsThatPage) {
  ModeSenseRequest r = request(true, 0x1A);
  r.subpage = kAllSubpages;
  EXPECT_EQ(sense(r), sense(request(true, 0x1A)));
}

TEST_F(ModeSenseTest, UnsupportedPageIsInvalidFieldInCdbByte2Bit5) {
  const FieldError e = sense_error(request(false, 0x05));
  EXPECT_EQ(e.kind, FieldError::Kind::kInvalidFieldInCdb);
  EXPECT_EQ(e.byte, 2);
  EXPECT_EQ(e.bit, 5);
}

TEST_F(ModeSenseTest, UnsupportedSubpageIsInvalidFieldInCdbByte3) {
  for (std::uint8_t page : {std::uint8_t{0x08}, kAllPages}) {
    ModeSenseRequest r = request(true, page);
    r.subpage = 0x01;
    const FieldError e = sense_error(r);
    EXPECT_EQ(e.kind, FieldError::Kind::kInvalidFieldInCdb);
    EXPECT_EQ(e.byte, 3);
    EXPECT_EQ(e.bit, -1);
  }
}

TEST_F(ModeSenseTest, SavedValuesAreNotSupported) {
  ModeSenseRequest r = request(false, 0x08);
  r.pc = PageControl::kSaved;
  const FieldError e = sense_error(r);
  EXPECT_EQ(e.kind, FieldError::Kind::kSavingNotSupported);
  EXPECT_EQ(e.byte, 2);
  EXPECT_EQ(e.bit, 7);
}

TEST_F(ModeSenseTest, GettersReflectTheConfiguration) {
  EXPECT_TRUE(state_.wce());
  EXPECT_FALSE(state_.d_sense());
  EXPECT_EQ(state_.idle_timeout_ns(), 100'000'000);
  EXPECT_EQ(state_.control(), ControlPage{});
  EXPECT_EQ(state_.blocks(), kG2Blocks);
  EXPECT_EQ(state_.block_size(), 512u);
  model::DeviceParams p = params_;
  p.power.idle_timeout_ns = 150'000'000;  // page says 2 x 100 ms; the getter stays exact
  EXPECT_EQ(ModeState(p, {}).idle_timeout_ns(), 150'000'000);
}

TEST_F(ModeSenseTest, InvalidConfiguredControlPageFallsBackToDefaults) {
  const ModeState bad(params_, {.control = {.scheduler = 200, .scale_milli = 0}});
  EXPECT_EQ(bad.control(), ControlPage{});
  const ModeState good(params_, {.control = {.scheduler = 3, .timing = TimingMode::kOff}});
  EXPECT_EQ(good.control(), (ControlPage{.scheduler = 3, .timing = TimingMode::kOff}));
}

}  // namespace
}  // namespace memstore::modepages
