// SPDX-License-Identifier: Apache-2.0
// The trace reader's number parsers and its one-pass DiskSim line parser,
// against the standard library's definitions (std::from_chars, llround) on
// edge cases and on random tokens and lines.
#include <gtest/gtest.h>

#include <bit>
#include <charconv>
#include <cmath>
#include <limits>
#include <random>
#include <string>
#include <vector>

#include "sim/trace.h"
#include "tests/sim/trace_reading.h"

namespace memstore::sim {
namespace {

using namespace std::string_view_literals;
using namespace testing;

// --- Number parsers ---------------------------------------------------------
// trace_detail::parse_int and parse_finite replace std::from_chars on the
// common shapes; they must agree with it on every token, bit for bit.

std::optional<std::int64_t> from_chars_int(std::string_view s) {
  std::int64_t v = 0;
  const auto [end, ec] = std::from_chars(s.data(), s.data() + s.size(), v);
  if (ec != std::errc() || end != s.data() + s.size() || s.empty()) return std::nullopt;
  return v;
}

std::optional<double> from_chars_finite(std::string_view s) {
  double v = 0.0;
  const auto [end, ec] = std::from_chars(s.data(), s.data() + s.size(), v);
  if (ec != std::errc() || end != s.data() + s.size() || s.empty() || !std::isfinite(v)) {
    return std::nullopt;
  }
  return v;
}

void expect_parsed_like_from_chars(std::string_view token) {
  SCOPED_TRACE(std::string(token));
  EXPECT_EQ(trace_detail::parse_int(token), from_chars_int(token));
  const std::optional<double> got = trace_detail::parse_finite(token);
  const std::optional<double> want = from_chars_finite(token);
  ASSERT_EQ(got.has_value(), want.has_value());
  if (got) {
    EXPECT_EQ(std::bit_cast<std::uint64_t>(*got), std::bit_cast<std::uint64_t>(*want));
  }
}

TEST(TraceNumbers, EdgeTokensMatchFromChars) {
  static constexpr std::string_view kTokens[] = {"",
                                                 "-",
                                                 "+1",
                                                 "0",
                                                 "-0",
                                                 "00",
                                                 "007",
                                                 "-007",
                                                 "1a",
                                                 "a1",
                                                 "--1",
                                                 " 1",
                                                 "1 ",
                                                 "1\0"sv,
                                                 "123456789012345678",
                                                 "-123456789012345678",
                                                 "1234567890123456789",
                                                 "9223372036854775807",
                                                 "9223372036854775808",
                                                 "-9223372036854775808",
                                                 "-9223372036854775809",
                                                 "99999999999999999999",
                                                 "0000000000000000000000001",
                                                 "1.5",
                                                 "-1.5",
                                                 ".5",
                                                 "-.5",
                                                 "5.",
                                                 "-5.",
                                                 ".",
                                                 "-.",
                                                 "..5",
                                                 "1.2.3",
                                                 "1.-2",
                                                 "1e5",
                                                 "1E5",
                                                 "1e",
                                                 "1e+",
                                                 "1.5e-3",
                                                 "inf",
                                                 "-inf",
                                                 "INF",
                                                 "nan",
                                                 "-nan",
                                                 "nan(1)",
                                                 "infinity",
                                                 "0x10",
                                                 "9007199254740992",
                                                 "9007199254740993",
                                                 "9007199254740993.0",
                                                 "900719925474099.3",
                                                 "18446744073709551615",
                                                 "18446744073709551616",
                                                 "1844674407370955161.6",
                                                 "0.1",
                                                 "0.2",
                                                 "0.3",
                                                 "-0.0",
                                                 "123456789.012345",
                                                 "49999953.123456",
                                                 "0.0000000000000000000001",
                                                 "0.00000000000000000000001",
                                                 "1234567890123456789.5",
                                                 "1.7976931348623157e308",
                                                 "1e999",
                                                 "1e-400",
                                                 "4.9e-324",
                                                 "\xff",
                                                 "\x01\xff\x00"sv};
  for (const std::string_view t : kTokens) expect_parsed_like_from_chars(t);
}

TEST(TraceNumbers, RandomTokensMatchFromChars) {
  std::mt19937_64 rng(7);
  const auto pick = [&rng](std::size_t n) { return static_cast<std::size_t>(rng() % n); };
  static constexpr std::string_view kDigits = "0123456789";
  static constexpr std::string_view kMixed = "0123456789012345678901234567890123456789.-eE+xn ";
  std::string t;
  for (int i = 0; i < 200'000; ++i) {
    t.clear();
    if (i % 2 == 0) {  // [-]digits[.digits], the shapes the fast paths take, and a bit beyond
      if (pick(4) == 0) t += '-';
      for (std::size_t n = pick(21); n > 0; --n) t += kDigits[pick(10)];
      if (pick(3) != 0) {
        t += '.';
        for (std::size_t n = pick(25); n > 0; --n) t += kDigits[pick(10)];
      }
    } else {
      for (std::size_t n = pick(25); n > 0; --n) t += kMixed[pick(kMixed.size())];
    }
    expect_parsed_like_from_chars(t);
    if (HasFailure()) return;  // one token is enough to debug
  }
}

// The reader parses DiskSim lines of the plain shape in one pass, eight
// bytes at a time (trace.cc, parse_disksim_plain), and every other line as
// before. Random lines of many shapes, after a first line at time 0, must give
// what the per-field definition gives: from_chars on each blank-separated
// field, the arrival rounded with llround, the block folded.
TEST(DiskSimTrace, RandomLinesParseLikeFromChars) {
  std::mt19937_64 rng(11);
  const auto pick = [&rng](std::size_t n) { return static_cast<std::size_t>(rng() % n); };
  static constexpr std::string_view kDigits = "0123456789";
  static constexpr std::string_view kBlanks = " \t \v\f ";
  static constexpr std::string_view kOdd = "-+.eEx,a\x80\xff";
  const std::int64_t capacity = 4'000'000'000'000'000'000;
  const auto digits = [&](std::size_t max) {
    std::string d;
    for (std::size_t n = 1 + pick(max); n > 0; --n) d += kDigits[pick(10)];
    return d;
  };
  int valid_lines = 0;
  for (int i = 0; i < 100'000; ++i) {
    std::vector<std::string> fields;
    std::string time = digits(pick(3) == 0 ? 21 : 7);
    if (pick(4) != 0) time += "." + (pick(5) == 0 ? std::string() : digits(pick(3) == 0 ? 21 : 6));
    fields.push_back(time);
    for (int f = 0; f < 4; ++f) fields.push_back(digits(pick(3) == 0 ? 20 : 8));
    if (pick(8) == 0) fields.erase(fields.begin() + static_cast<std::ptrdiff_t>(pick(5)));
    if (pick(8) == 0) fields.push_back(digits(3));
    if (pick(6) == 0) {  // a sign, a point, an exponent or garbage somewhere
      std::string& f = fields[pick(fields.size())];
      f.insert(pick(f.size() + 1), 1, kOdd[pick(kOdd.size())]);
    }
    std::string line;
    for (std::size_t f = 0; f < fields.size(); ++f) {
      if (f > 0 || pick(4) == 0) {
        for (std::size_t n = 1 + pick(3); n > 0; --n) line += kBlanks[pick(kBlanks.size())];
      }
      line += fields[f];
    }
    if (pick(4) == 0) line += kBlanks[pick(kBlanks.size())];
    SCOPED_TRACE(line);
    const Result got =
        read_all("0 0 0 1 1\n" + line + "\n", TraceFormat::kDiskSim, options(capacity));
    // The definition, field by field.
    std::optional<double> t;
    std::optional<std::int64_t> dev, block, size, flags;
    if (fields.size() == 5) {
      t = from_chars_finite(fields[0]);
      dev = from_chars_int(fields[1]);
      block = from_chars_int(fields[2]);
      size = from_chars_int(fields[3]);
      flags = from_chars_int(fields[4]);
    }
    const bool valid = t && dev && block && *block >= 0 && size && *size > 0 && flags &&
                       *flags >= 0 && *t >= 0 && *t * 1e6 < 0x1.0p62;
    if (!valid) {
      EXPECT_EQ(got.last.kind, Kind::kError);
      EXPECT_EQ(got.requests.size(), 1u);
    } else {
      ++valid_lines;
      ASSERT_EQ(got.last.kind, Kind::kEnd) << got.last.error;
      ASSERT_EQ(got.requests.size(), 2u);
      const model::Request& r = got.requests[1];
      EXPECT_EQ(r.arrival_ns, std::llround(*t * 1e6));
      EXPECT_EQ(r.lbn, *block % capacity);
      EXPECT_EQ(r.blocks, std::min({*size, capacity - *block % capacity,
                                    std::int64_t{std::numeric_limits<std::int32_t>::max()}}));
      EXPECT_EQ(r.op, (*flags & 1) != 0 ? model::Op::kRead : model::Op::kWrite);
    }
    if (HasFailure()) return;  // one line is enough to debug
  }
  EXPECT_GT(valid_lines, 30'000);  // both outcomes are well represented
}

// --- SPC -------------------------------------------------------------------

}  // namespace
}  // namespace memstore::sim
