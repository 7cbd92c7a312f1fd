// SPDX-License-Identifier: Apache-2.0
// LOG SENSE pages 00h, 30h and 31h byte for byte, and the host decoders
// (SPC-4 §7.3; docs/vendor-interface.md).
#include <gtest/gtest.h>

#include "modepages/log_pages.h"

namespace memstore::modepages {
namespace {

using model::PowerState;

// One vendor parameter: code, control 23h (TSD, binary list), length 8.
Bytes param(std::uint16_t code, std::uint64_t value) {
  Bytes b;
  append_be(b, 2, code);
  b.push_back(0x23);
  b.push_back(0x08);
  append_be(b, 8, value);
  return b;
}

LogInputs inputs() {
  LogInputs in;
  in.power.time_ms = {1, 2, 3, 4, 5};
  in.power.energy_uj = {10, 20, 30, 40, 50};
  in.power.startups = 7;
  for (int m = 0; m < kPositioningMetrics; ++m) {
    const auto u = static_cast<std::uint64_t>(m);
    in.positioning.metrics[m] = {100 + u, 1000 * (u + 1), 0x0102030405060708 + u};
  }
  return in;
}

TEST(LogPages, SupportedPagesComeFromTheTable) {
  EXPECT_EQ(log_page(0x00, {}), (Bytes{0x80, 0x00, 0x00, 0x03, 0x00, 0x30, 0x31}));
  EXPECT_EQ(supported_log_pages(), (std::vector<std::uint8_t>{0x00, 0x30, 0x31}));
  for (std::uint8_t code : supported_log_pages()) EXPECT_TRUE(log_page(code, {}));
}

TEST(LogPages, UnsupportedPagesAreNullopt) {
  for (const std::uint8_t code :
       std::initializer_list<std::uint8_t>{0x02, 0x0D, 0x2F, 0x32, 0x3F}) {
    EXPECT_FALSE(log_page(code, {})) << int{code};
  }
}

TEST(LogPages, PowerPageExactBytes) {
  Bytes expected = {0xB0, 0x00, 0x00, 11 * 12};
  const std::uint64_t time[] = {1, 2, 3, 4, 5};
  for (std::uint16_t s = 0; s < 5; ++s) {
    const Bytes p = param(s, time[s]);
    expected.insert(expected.end(), p.begin(), p.end());
  }
  for (std::uint16_t s = 0; s < 5; ++s) {
    const Bytes p = param(static_cast<std::uint16_t>(0x10 + s), std::uint64_t{10} * (s + 1u));
    expected.insert(expected.end(), p.begin(), p.end());
  }
  const Bytes startups = param(0x20, 7);
  expected.insert(expected.end(), startups.begin(), startups.end());
  EXPECT_EQ(log_page(0x30, inputs()), expected);
  // One parameter spelled out, to pin the helper down as well.
  EXPECT_EQ(Bytes(expected.begin() + 4, expected.begin() + 16),
            (Bytes{0x00, 0x00, 0x23, 0x08, 0, 0, 0, 0, 0, 0, 0, 1}));
}

TEST(LogPages, PowerParameterCodes) {
  EXPECT_EQ(power_time_code(PowerState::kInactive), 0x00);
  EXPECT_EQ(power_time_code(PowerState::kStartup), 0x04);
  EXPECT_EQ(power_energy_code(PowerState::kIdle), 0x11);
  EXPECT_EQ(power_energy_code(PowerState::kAccess), 0x13);
  EXPECT_EQ(kPowerStartupsCode, 0x20);
}

TEST(LogPages, PositioningPageExactBytes) {
  Bytes expected = {0xB1, 0x00, 0x00, 21 * 12};
  for (std::uint16_t m = 0; m < 7; ++m) {
    for (const Bytes& p :
         {param(static_cast<std::uint16_t>(m << 4), 100u + m),
          param(static_cast<std::uint16_t>((m << 4) | 1), std::uint64_t{1000} * (m + 1u)),
          param(static_cast<std::uint16_t>((m << 4) | 2), 0x0102030405060708u + m)}) {
      expected.insert(expected.end(), p.begin(), p.end());
    }
  }
  EXPECT_EQ(log_page(0x31, inputs()), expected);
  EXPECT_EQ(positioning_code(PositioningMetric::kQueueDepth, Statistic::kMax), 0x52);
  EXPECT_EQ(positioning_code(PositioningMetric::kDeliveryLateness, Statistic::kMax), 0x62);
  EXPECT_EQ(positioning_code(PositioningMetric::kSettle, Statistic::kMean), 0x21);
}

TEST(LogPages, PowerLogFromEnergyReport) {
  model::EnergyReport r;
  r.time_ns[0] = 1'999'999;
  r.time_ns[1] = 5'000'000;
  r.time_ns[2] = -1;
  r.energy_j[0] = 0.001234567;  // 1234.567 µJ
  r.energy_j[3] = 2.0;
  r.energy_j[4] = -1e-9;
  r.startups = 3;
  const PowerLog log = power_log_from(r);
  EXPECT_EQ(log.time_ms, (std::array<std::uint64_t, 5>{1, 5, 0, 0, 0}));
  EXPECT_EQ(log.energy_uj, (std::array<std::uint64_t, 5>{1235, 0, 0, 2'000'000, 0}));
  EXPECT_EQ(log.startups, 3u);
}

TEST(LogDecode, PowerRoundTrip) {
  const LogInputs in = inputs();
  EXPECT_EQ(decode_power_log(*log_page(0x30, in)), in.power);
}

TEST(LogDecode, PositioningRoundTrip) {
  const LogInputs in = inputs();
  EXPECT_EQ(decode_positioning_log(*log_page(0x31, in)), in.positioning);
}

TEST(LogDecode, SupportedPages) {
  EXPECT_EQ(decode_supported_log_pages(*log_page(0x00, {})), supported_log_pages());
  EXPECT_FALSE(decode_supported_log_pages(*log_page(0x30, {})));
  EXPECT_FALSE(decode_supported_log_pages(Bytes{0x00, 0x00, 0x00, 0x04, 0x00}));
}

TEST(LogDecode, WrongPageCode) {
  EXPECT_FALSE(decode_power_log(*log_page(0x31, inputs())));
  EXPECT_FALSE(decode_positioning_log(*log_page(0x30, inputs())));
}

TEST(LogDecode, ShorterThanHeader) {
  EXPECT_FALSE(decode_log_page(Bytes{0x30, 0x00, 0x00}));
}

TEST(LogDecode, PageLengthBeyondBuffer) {
  Bytes page = *log_page(0x30, inputs());
  page.pop_back();  // as if cut by the allocation length
  EXPECT_FALSE(decode_power_log(page));
}

TEST(LogDecode, ParameterBeyondPage) {
  // Page length 6 holds a parameter header announcing 8 bytes of value.
  const Bytes page = {0xB0, 0x00, 0x00, 0x06, 0x00, 0x00, 0x23, 0x08, 0x00, 0x01};
  EXPECT_FALSE(decode_log_page(page));
  EXPECT_FALSE(decode_log_page(Bytes{0xB0, 0x00, 0x00, 0x02, 0x00, 0x00}));
}

TEST(LogDecode, ValueLongerThanEightBytes) {
  Bytes page = {0xB0, 0x00, 0x00, 13, 0x00, 0x20, 0x23, 9};
  page.resize(4 + 13, 0x01);
  EXPECT_FALSE(decode_power_log(page));
}

TEST(LogDecode, ShortValuesMissingAndUnknownParameters) {
  // Startups in 2 bytes, an unknown parameter 0x0F, nothing else.
  const Bytes page = {0xB0, 0x00, 0x00, 14,   0x00, 0x20, 0x23, 0x02, 0x01,
                      0x02, 0x00, 0x0F, 0x23, 0x04, 0xFF, 0xFF, 0xFF, 0xFF};
  const auto log = decode_power_log(page);
  ASSERT_TRUE(log);
  EXPECT_EQ(log->startups, 0x0102u);
  EXPECT_EQ(log->time_ms, (std::array<std::uint64_t, 5>{}));
  const auto decoded = decode_log_page(page);
  ASSERT_TRUE(decoded);
  ASSERT_EQ(decoded->parameters.size(), 2u);
  EXPECT_EQ(decoded->parameters[1].code, 0x0F);
  EXPECT_EQ(decoded->parameters[1].control, 0x23);
  EXPECT_EQ(decoded->parameters[1].value.size(), 4u);
}

TEST(LogDecode, ArbitraryBytesNeverCrash) {
  std::uint64_t x = 0x2545F4914F6CDD1D;
  for (int round = 0; round < 2000; ++round) {
    Bytes b(x % 64);
    for (auto& v : b) {
      x ^= x << 13;
      x ^= x >> 7;
      x ^= x << 17;
      v = static_cast<std::uint8_t>(x);
    }
    if (b.size() >= 4) {  // a vendor page header
      b[0] = round % 2 == 0 ? 0x30 : 0x31;
      b[1] = 0;
    }
    (void)decode_power_log(b);
    (void)decode_positioning_log(b);
    (void)decode_supported_log_pages(b);
  }
}

}  // namespace
}  // namespace memstore::modepages
