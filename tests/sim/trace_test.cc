// SPDX-License-Identifier: Apache-2.0
#include "sim/trace.h"

#include <gtest/gtest.h>
#include <unistd.h>

#include <algorithm>
#include <bit>
#include <charconv>
#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <fstream>
#include <limits>
#include <random>
#include <sstream>
#include <streambuf>
#include <string>
#include <vector>

#include "tests/sim/trace_reading.h"

namespace memstore::sim {
namespace {

using namespace std::string_view_literals;
using namespace testing;  // tests/sim/trace_reading.h

// Every field of every request, and the final item, are equal.
void expect_same(const Result& a, const Result& b) {
  EXPECT_EQ(a.last.kind, b.last.kind);
  EXPECT_EQ(a.last.error, b.last.error);
  ASSERT_EQ(a.requests.size(), b.requests.size());
  for (std::size_t i = 0; i < a.requests.size(); ++i) {
    SCOPED_TRACE(i);
    EXPECT_EQ(a.requests[i].id, b.requests[i].id);
    EXPECT_EQ(a.requests[i].arrival_ns, b.requests[i].arrival_ns);
    EXPECT_EQ(a.requests[i].lbn, b.requests[i].lbn);
    EXPECT_EQ(a.requests[i].blocks, b.requests[i].blocks);
    EXPECT_EQ(a.requests[i].op, b.requests[i].op);
  }
}

std::string error_of(const std::string& text, TraceFormat format,
                     const TraceOptions& o = options()) {
  const Result r = read_all(text, format, o);
  EXPECT_EQ(r.last.kind, Kind::kError);
  return r.last.error;
}

TEST(TraceFormatName, ParsesKnownNames) {
  EXPECT_EQ(parse_trace_format("disksim"), TraceFormat::kDiskSim);
  EXPECT_EQ(parse_trace_format("spc"), TraceFormat::kSpc);
  EXPECT_EQ(parse_trace_format("SPC"), std::nullopt);
  EXPECT_EQ(parse_trace_format(""), std::nullopt);
}

// --- DiskSim ---------------------------------------------------------------

TEST(DiskSimLine, WritesWholeNanosecondsAndReadsBackTheSameRequest) {
  std::vector<model::Request> written(3);
  written[0] = {0, 0, 0, 1, model::Op::kRead};
  written[1] = {1, 1'062'419, 3'013'587, 4, model::Op::kWrite};
  written[2] = {2, 123'456'789'012'345, 999'999, 70, model::Op::kRead};
  EXPECT_EQ(disksim_line(written[0]), "0.000000 0 0 1 1\n");
  EXPECT_EQ(disksim_line(written[1]), "1.062419 0 3013587 4 0\n");
  EXPECT_EQ(disksim_line(written[2]), "123456789.012345 0 999999 70 1\n");
  std::string text;
  for (const model::Request& r : written) text += disksim_line(r);
  const Result back = read_all(text, TraceFormat::kDiskSim, options(10'000'000));
  EXPECT_EQ(back.last.kind, Kind::kEnd);
  ASSERT_EQ(back.requests.size(), written.size());
  for (std::size_t i = 0; i < written.size(); ++i) {
    EXPECT_EQ(back.requests[i].id, written[i].id);
    EXPECT_EQ(back.requests[i].arrival_ns, written[i].arrival_ns);
    EXPECT_EQ(back.requests[i].lbn, written[i].lbn);
    EXPECT_EQ(back.requests[i].blocks, written[i].blocks);
    EXPECT_EQ(back.requests[i].op, written[i].op);
  }
}

// A live LUN's capture (target/scsi/request_trace.h): both formats read back
// with --absolute-times give the requests on the clock they were dated on.
TEST(TraceLines, AbsoluteTimesGiveBackTheCapturedRequests) {
  std::vector<model::Request> written(3);
  written[0] = {0, 7'000'123'456, 4096, 8, model::Op::kWrite};
  written[1] = {1, 7'000'123'456, 4096, 8, model::Op::kRead};  // a second access, same arrival
  written[2] = {2, 9'999'999'999'999, 0, 1, model::Op::kRead};
  TraceOptions o = options(10'000'000);
  o.absolute_times = true;
  for (const TraceFormat f : {TraceFormat::kDiskSim, TraceFormat::kSpc}) {
    std::string text = "# a comment line, as the capture's header\n";
    for (const model::Request& r : written) text += model::trace_line(f, r, 512);
    const Result back = read_all(text, f, o);
    EXPECT_EQ(back.last.kind, Kind::kEnd) << back.last.error;
    ASSERT_EQ(back.requests.size(), written.size());
    for (std::size_t i = 0; i < written.size(); ++i) {
      EXPECT_EQ(back.requests[i].arrival_ns, written[i].arrival_ns) << i;
      EXPECT_EQ(back.requests[i].lbn, written[i].lbn) << i;
      EXPECT_EQ(back.requests[i].blocks, written[i].blocks) << i;
      EXPECT_EQ(back.requests[i].op, written[i].op) << i;
    }
  }
  // Without the option the same trace starts at its first request.
  const Result rebased = read_all(disksim_line(written[0]) + disksim_line(written[2]),
                                  TraceFormat::kDiskSim, options(10'000'000));
  ASSERT_EQ(rebased.requests.size(), 2u);
  EXPECT_EQ(rebased.requests[0].arrival_ns, 0);
  EXPECT_EQ(rebased.requests[1].arrival_ns, written[2].arrival_ns - written[0].arrival_ns);
  EXPECT_NE(error_of("-1.5 0 0 1 1\n", TraceFormat::kDiskSim, o)
                .find("is before 0, which --absolute-times cannot replay"),
            std::string::npos);
}

TEST(DiskSimTrace, ParsesGoodLines) {
  const Result r = read_all(
      "# comment\n"
      "10.5 0 1000 8 1\n"
      "\n"
      "   \t\n"
      "11.0\t0\t2000\t16\t0\r\n"
      "  # indented comment\n"
      "12.25 1 3000 1 3",  // no trailing newline
      TraceFormat::kDiskSim, options());
  EXPECT_EQ(r.last.kind, Kind::kEnd);
  ASSERT_EQ(r.requests.size(), 3u);
  EXPECT_EQ(r.requests[0].id, 0u);
  EXPECT_EQ(r.requests[0].arrival_ns, 0);
  EXPECT_EQ(r.requests[0].lbn, 1000);
  EXPECT_EQ(r.requests[0].blocks, 8);
  EXPECT_EQ(r.requests[0].op, model::Op::kRead);
  EXPECT_EQ(r.requests[1].id, 1u);
  EXPECT_EQ(r.requests[1].arrival_ns, 500'000);
  EXPECT_EQ(r.requests[1].lbn, 2000);
  EXPECT_EQ(r.requests[1].blocks, 16);
  EXPECT_EQ(r.requests[1].op, model::Op::kWrite);
  EXPECT_EQ(r.requests[2].arrival_ns, 1'750'000);
  EXPECT_EQ(r.requests[2].op, model::Op::kRead);  // bit 0 of 3
}

TEST(DiskSimTrace, EmptyInputIsEnd) {
  EXPECT_EQ(read_all("", TraceFormat::kDiskSim, options()).last.kind, Kind::kEnd);
  EXPECT_EQ(read_all("\n\n# x\n", TraceFormat::kDiskSim, options()).last.kind, Kind::kEnd);
}

TEST(DiskSimTrace, ScaleDividesGaps) {
  TraceOptions o = options();
  o.scale = 2.0;
  const Result r = read_all("100 0 0 1 1\n101 0 0 1 1\n104 0 0 1 1\n", TraceFormat::kDiskSim, o);
  ASSERT_EQ(r.requests.size(), 3u);
  EXPECT_EQ(r.requests[0].arrival_ns, 0);
  EXPECT_EQ(r.requests[1].arrival_ns, 500'000);
  EXPECT_EQ(r.requests[2].arrival_ns, 2'000'000);
  o.scale = 0.5;  // halves the rate
  const Result slow = read_all("100 0 0 1 1\n101 0 0 1 1\n", TraceFormat::kDiskSim, o);
  EXPECT_EQ(slow.requests[1].arrival_ns, 2'000'000);
}

TEST(DiskSimTrace, RoundsArrivalToNearestNs) {
  const Result r = read_all("0 0 0 1 1\n0.0000004 0 0 1 1\n0.0000016 0 0 1 1\n",
                            TraceFormat::kDiskSim, options());
  ASSERT_EQ(r.requests.size(), 3u);
  EXPECT_EQ(r.requests[1].arrival_ns, 0);
  EXPECT_EQ(r.requests[2].arrival_ns, 2);
}

TEST(DiskSimTrace, DeviceFilterKeepsOneDeviceAndRebasesTime) {
  TraceOptions o = options();
  o.device_filter = 2;
  const Result r =
      read_all("1 1 10 1 1\n3 2 20 1 1\n4 1 30 1 1\n7 2 40 1 0\n", TraceFormat::kDiskSim, o);
  EXPECT_EQ(r.last.kind, Kind::kEnd);
  ASSERT_EQ(r.requests.size(), 2u);
  EXPECT_EQ(r.requests[0].id, 0u);
  EXPECT_EQ(r.requests[0].lbn, 20);
  EXPECT_EQ(r.requests[0].arrival_ns, 0);  // relative to the first kept
  EXPECT_EQ(r.requests[1].id, 1u);
  EXPECT_EQ(r.requests[1].lbn, 40);
  EXPECT_EQ(r.requests[1].arrival_ns, 4'000'000);
}

TEST(DiskSimTrace, FoldsBeyondCapacityAndClipsAtTheEnd) {
  const Result r = read_all("0 0 1005 4 1\n0 0 998 4 1\n0 0 2999 100 1\n0 0 0 5000 1\n",
                            TraceFormat::kDiskSim, options(1000));
  ASSERT_EQ(r.requests.size(), 4u);
  EXPECT_EQ(r.requests[0].lbn, 5);
  EXPECT_EQ(r.requests[0].blocks, 4);
  EXPECT_EQ(r.requests[1].lbn, 998);
  EXPECT_EQ(r.requests[1].blocks, 2);
  EXPECT_EQ(r.requests[2].lbn, 999);
  EXPECT_EQ(r.requests[2].blocks, 1);
  EXPECT_EQ(r.requests[3].lbn, 0);
  EXPECT_EQ(r.requests[3].blocks, 1000);
}

TEST(DiskSimTrace, HugeValidNumbersAreFoldedAndClipped) {
  const Result r = read_all("0 0 9223372036854775807 9223372036854775807 1\n",
                            TraceFormat::kDiskSim, options(1000));
  ASSERT_EQ(r.requests.size(), 1u);
  EXPECT_EQ(r.requests[0].lbn, 9223372036854775807 % 1000);
  EXPECT_EQ(r.requests[0].blocks, 1000 - 9223372036854775807 % 1000);
}

TEST(DiskSimTrace, EqualArrivalTimesAreFine) {
  const Result r = read_all("5 0 0 1 1\n5 0 1 1 1\n", TraceFormat::kDiskSim, options());
  EXPECT_EQ(r.last.kind, Kind::kEnd);
  EXPECT_EQ(r.requests.size(), 2u);
}

TEST(DiskSimTraceError, WrongFieldCount) {
  EXPECT_EQ(error_of("0 0 0 1 1\n1 0 0\n", TraceFormat::kDiskSim),
            "line 2: expected 5 fields (arrival_ms devno blkno size flags), got 3");
  EXPECT_EQ(error_of("0 0 0 1 1 7\n", TraceFormat::kDiskSim),
            "line 1: expected 5 fields (arrival_ms devno blkno size flags), got 6");
}

TEST(DiskSimTraceError, BadArrival) {
  EXPECT_EQ(error_of("abc 0 0 1 1\n", TraceFormat::kDiskSim),
            "line 1: arrival_ms must be a finite number, got 'abc'");
  EXPECT_EQ(error_of("nan 0 0 1 1\n", TraceFormat::kDiskSim),
            "line 1: arrival_ms must be a finite number, got 'nan'");
  EXPECT_EQ(error_of("inf 0 0 1 1\n", TraceFormat::kDiskSim),
            "line 1: arrival_ms must be a finite number, got 'inf'");
  EXPECT_EQ(error_of("1e999 0 0 1 1\n", TraceFormat::kDiskSim),
            "line 1: arrival_ms must be a finite number, got '1e999'");
}

TEST(DiskSimTraceError, BadDevno) {
  EXPECT_EQ(error_of("0 1.5 0 1 1\n", TraceFormat::kDiskSim),
            "line 1: devno must be an integer, got '1.5'");
}

TEST(DiskSimTraceError, BadBlkno) {
  EXPECT_EQ(error_of("0 0 -1 1 1\n", TraceFormat::kDiskSim),
            "line 1: blkno must be a non-negative integer, got '-1'");
  EXPECT_EQ(error_of("0 0 99999999999999999999 1 1\n", TraceFormat::kDiskSim),
            "line 1: blkno must be a non-negative integer, got '99999999999999999999'");
}

TEST(DiskSimTraceError, BadSize) {
  EXPECT_EQ(error_of("\n\n\n0 0 0 x 1\n", TraceFormat::kDiskSim),
            "line 4: size must be a positive integer, got 'x'");
  EXPECT_EQ(error_of("0 0 0 0 1\n", TraceFormat::kDiskSim),
            "line 1: size must be a positive integer, got '0'");
}

TEST(DiskSimTraceError, BadFlags) {
  EXPECT_EQ(error_of("0 0 0 1 -2\n", TraceFormat::kDiskSim),
            "line 1: flags must be a non-negative integer, got '-2'");
}

TEST(DiskSimTraceError, GoingBackInTime) {
  EXPECT_EQ(error_of("1 0 0 1 1\n2 0 0 1 1\n#\n\n\n\n5.0 0 0 1 1\n\n3.2 0 0 1 1\n",
                     TraceFormat::kDiskSim),
            "line 9: arrival 3.2 ms is earlier than the previous request (5.0 ms)");
}

TEST(DiskSimTraceError, OrderIsCheckedAmongKeptRequestsOnly) {
  TraceOptions o = options();
  o.device_filter = 0;
  const Result r = read_all("1 0 0 1 1\n0.5 1 0 1 1\n2 0 0 1 1\n", TraceFormat::kDiskSim, o);
  EXPECT_EQ(r.last.kind, Kind::kEnd);
  EXPECT_EQ(r.requests.size(), 2u);
}

TEST(DiskSimTraceError, ArrivalTooFarAfterFirst) {
  EXPECT_EQ(error_of("-1e300 0 0 1 1\n1e300 0 0 1 1\n", TraceFormat::kDiskSim),
            "line 2: arrival 1e300 ms is too far after the first request "
            "(more than 2^62 ns once scaled)");
}

TEST(DiskSimTraceError, LineTooLong) {
  const std::string ok_line = "0 0 0 1 1" + std::string(4096 - 9, ' ') + "\n";
  const Result ok = read_all(ok_line, TraceFormat::kDiskSim, options());
  EXPECT_EQ(ok.last.kind, Kind::kEnd);
  EXPECT_EQ(ok.requests.size(), 1u);
  EXPECT_EQ(error_of("0 0 0 1 1\n" + std::string(5000, '7') + "\n", TraceFormat::kDiskSim),
            "line 2: longer than 4096 bytes");
}

TEST(DiskSimTraceError, BinaryGarbageIsQuotedSafely) {
  static constexpr char kGarbage[] = "\x01\xff\x00 0 0 1 1\n";  // with an embedded NUL
  EXPECT_EQ(error_of(std::string(kGarbage, sizeof kGarbage - 1), TraceFormat::kDiskSim),
            "line 1: arrival_ms must be a finite number, got '\\x01\\xff\\x00'");
  const std::string long_token(100, 'z');
  EXPECT_EQ(error_of(long_token + " 0 0 1 1\n", TraceFormat::kDiskSim),
            "line 1: arrival_ms must be a finite number, got '" + std::string(40, 'z') + "...'");
}

TEST(DiskSimTraceError, ErrorIsSticky) {
  std::istringstream in("x\n0 0 0 1 1\n");
  TraceReader reader(in, TraceFormat::kDiskSim, options());
  const TraceItem first = reader.next();
  ASSERT_EQ(first.kind, Kind::kError);
  const TraceItem second = reader.next();
  EXPECT_EQ(second.kind, Kind::kError);
  EXPECT_EQ(second.error, first.error);
}

TEST(TraceOptionsError, InvalidOptionsReportedByFirstNext) {
  TraceOptions o = options(0);
  o.scale = 0.0;
  EXPECT_EQ(
      validate(o),
      (std::vector<std::string>{
          "--scale must be positive",
          "the device's capacity must be a positive number of blocks (check --config and --set)"}));
  EXPECT_EQ(error_of("0 0 0 1 1\n", TraceFormat::kDiskSim, o),
            "invalid trace options: --scale must be positive; the device's capacity must be a "
            "positive number of blocks (check --config and --set)");
  EXPECT_TRUE(validate(options()).empty());
}

// --- Lines and buffering -----------------------------------------------------
// The reader takes the input in blocks and joins lines split between two of
// them; none of that may show in the result.

TEST(TraceLines, CrlfAndBareCrLines) {
  const Result r =
      read_all("1 0 10 1 1\r\n\r\n# comment\r\n \t\r\n2 0 20 2 0\r\n3 0 30 3 1\r",  // last: no \n
               TraceFormat::kDiskSim, options());
  EXPECT_EQ(r.last.kind, Kind::kEnd);
  ASSERT_EQ(r.requests.size(), 3u);
  EXPECT_EQ(r.requests[1].lbn, 20);
  EXPECT_EQ(r.requests[1].op, model::Op::kWrite);
  EXPECT_EQ(r.requests[2].lbn, 30);
  EXPECT_EQ(r.requests[2].blocks, 3);
  // The '\r' is not part of the last field, nor of a message quoting it.
  EXPECT_EQ(error_of("0 0 0 1 1\r\n0 0 0 x\r\n", TraceFormat::kDiskSim),
            "line 2: expected 5 fields (arrival_ms devno blkno size flags), got 4");
  EXPECT_EQ(error_of("0 0 0 1 1\r\n0 0 0 1 x\r\n", TraceFormat::kDiskSim),
            "line 2: flags must be a non-negative integer, got 'x'");
  EXPECT_EQ(error_of("0,1,512,r,0\r\n0,1,512,r,y\r\n", TraceFormat::kSpc),
            "line 2: Timestamp must be a finite number, got 'y'");
}

TEST(TraceLines, LastLineWithoutNewline) {
  const Result spc = read_all("0,1,512,r,0\n0,2,1024,w,1", TraceFormat::kSpc, options());
  EXPECT_EQ(spc.last.kind, Kind::kEnd);
  ASSERT_EQ(spc.requests.size(), 2u);
  EXPECT_EQ(spc.requests[1].blocks, 2);
  EXPECT_EQ(spc.requests[1].arrival_ns, 1'000'000'000);
  // Counted as a line of its own, in messages too.
  EXPECT_EQ(error_of("0 0 0 1 1\n\n1 0 0", TraceFormat::kDiskSim),
            "line 3: expected 5 fields (arrival_ms devno blkno size flags), got 3");
  EXPECT_EQ(read_all("# only a comment", TraceFormat::kDiskSim, options()).last.kind, Kind::kEnd);
  EXPECT_EQ(read_all("   ", TraceFormat::kDiskSim, options()).last.kind, Kind::kEnd);
  const Result one = read_all("7 0 1 1 1", TraceFormat::kDiskSim, options());
  EXPECT_EQ(one.last.kind, Kind::kEnd);
  EXPECT_EQ(one.requests.size(), 1u);
}

TEST(TraceLines, MaxLengthLastLineWithoutNewline) {
  const std::string max_line = "0 0 0 1 1" + std::string(TraceReader::kMaxLineBytes - 9, ' ');
  const Result ok = read_all("0 0 0 1 1\n" + max_line, TraceFormat::kDiskSim, options());
  EXPECT_EQ(ok.last.kind, Kind::kEnd);
  EXPECT_EQ(ok.requests.size(), 2u);
  EXPECT_EQ(error_of("0 0 0 1 1\n" + max_line + " ", TraceFormat::kDiskSim),
            "line 2: longer than 4096 bytes");
  // The '\r' of a CRLF line counts towards the limit, as it always did.
  EXPECT_EQ(error_of(max_line + "\r\n", TraceFormat::kDiskSim), "line 1: longer than 4096 bytes");
}

// A trace of `lines` lines of varied lengths: requests (some padded to just
// under the line limit), blank lines, comments and CRLF endings.
std::string varied_trace(int lines) {
  std::string text;
  for (int i = 0; i < lines; ++i) {
    switch (i % 11) {
      case 3:
        text += "\n";
        break;
      case 5:
        text += "# comment " + std::string(static_cast<std::size_t>(i % 97), '#') + "\n";
        break;
      case 7:
        text += "\t" + std::to_string(i) + ".25 0 " + std::to_string(i * 7919) + " " +
                std::to_string(1 + i % 13) + " " + std::to_string(i % 2) + "\r\n";
        break;
      case 9:
        if (i % 4 == 1) {  // a line of exactly kMaxLineBytes, in different places
          std::string line = std::to_string(i) + " 0 " + std::to_string(i) + " 1 1";
          line.resize(TraceReader::kMaxLineBytes, ' ');
          text += line + "\n";
          break;
        }
        [[fallthrough]];
      default:
        text += std::to_string(i) + "." + std::to_string(i % 1000) + " 0 " +
                std::to_string(i * 104729 % 5'000'000) + " " + std::to_string(1 + i % 17) + " " +
                std::to_string(i % 3 == 0 ? 1 : 0) + "\n";
    }
  }
  return text;
}

TEST(TraceBuffer, LinesSplitAcrossReadsAreJoined) {
  const std::string text = varied_trace(20'000);  // about 1 MB
  ASSERT_GT(text.size(), 4 * TraceReader::kBufferBytes);
  const Result whole = read_all(text, TraceFormat::kDiskSim, options(10'000'000), text.size() + 1);
  EXPECT_EQ(whole.last.kind, Kind::kEnd) << whole.last.error;
  EXPECT_EQ(whole.requests.size(), 20'000u - 2 * (20'000u / 11));  // minus blanks, comments
  // Small buffers put the splits at many different offsets inside lines,
  // including inside the longest ones.
  for (const std::size_t bytes :
       {std::size_t{0}, TraceReader::kMinBufferBytes, TraceReader::kMinBufferBytes + 1,
        std::size_t{4099}, std::size_t{5000}, std::size_t{8191}, TraceReader::kBufferBytes}) {
    SCOPED_TRACE(bytes);
    expect_same(read_all(text, TraceFormat::kDiskSim, options(10'000'000), bytes), whole);
  }
}

TEST(TraceBuffer, ErrorsAfterManyReadsNameTheirLine) {
  const std::string good = varied_trace(10'000);
  for (const std::size_t bytes : {TraceReader::kMinBufferBytes, TraceReader::kBufferBytes}) {
    SCOPED_TRACE(bytes);
    EXPECT_EQ(read_all(good + "1e9 0 0 1 x\n", TraceFormat::kDiskSim, options(), bytes).last.error,
              "line 10001: flags must be a non-negative integer, got 'x'");
    const Result r = read_all(good + "1e9 0 0 1", TraceFormat::kDiskSim, options(), bytes);
    EXPECT_EQ(r.last.error,
              "line 10001: expected 5 fields (arrival_ms devno blkno size flags), got 4");
    const Result too_long = read_all(good + std::string(TraceReader::kMaxLineBytes + 1, '1'),
                                     TraceFormat::kDiskSim, options(), bytes);
    EXPECT_EQ(too_long.last.error, "line 10001: longer than 4096 bytes");
  }
}

// The previous arrival's text is kept as a view into the buffer and copied
// only when the buffer is refilled: the message must name it either way.
TEST(TraceBuffer, PreviousArrivalIsNamedAcrossARefill) {
  std::string text = "5.5 0 0 1 1\n";
  for (int i = 0; i < 3; ++i) text += "# " + std::string(3000, 'x') + "\n";
  text += "3.25 0 0 1 1\n";
  for (const std::size_t bytes : {TraceReader::kMinBufferBytes, TraceReader::kBufferBytes}) {
    SCOPED_TRACE(bytes);
    EXPECT_EQ(read_all(text, TraceFormat::kDiskSim, options(), bytes).last.error,
              "line 5: arrival 3.25 ms is earlier than the previous request (5.5 ms)");
  }
}

TEST(TraceBuffer, LongLineStraddlingAReadIsTooLong) {
  // With the smallest buffer, the first read ends inside the second line.
  const std::string text = "0 0 0 1 1\n" + std::string(TraceReader::kMaxLineBytes + 1, '7') + "\n";
  for (const std::size_t bytes : {TraceReader::kMinBufferBytes, TraceReader::kBufferBytes}) {
    const Result r = read_all(text, TraceFormat::kDiskSim, options(), bytes);
    EXPECT_EQ(r.requests.size(), 1u);
    EXPECT_EQ(r.last.error, "line 2: longer than 4096 bytes");
  }
}

// A streambuf that hands out its text a few bytes at a time, as a pipe can:
// only underflow() is overridden, so sgetn() goes through the default
// xsgetn(), which must still fill the request unless the input has ended.
class TrickleBuf : public std::streambuf {
 public:
  explicit TrickleBuf(std::string text) : text_(std::move(text)) {}

 protected:
  int_type underflow() override {
    if (pos_ == text_.size()) return traits_type::eof();
    const std::size_t n = std::min<std::size_t>(1 + pos_ % 7, text_.size() - pos_);
    char* p = text_.data() + pos_;
    setg(p, p, p + n);
    pos_ += n;
    return traits_type::to_int_type(*p);
  }

 private:
  std::string text_;
  std::size_t pos_ = 0;
};

TEST(TraceBuffer, StreamThatDeliversFewBytesAtATime) {
  const std::string text = varied_trace(3'000) + "1e9 0 0 1";  // ends in an error
  const Result expected = read_all(text, TraceFormat::kDiskSim, options(10'000'000));
  TrickleBuf buf(text);
  std::istream in(&buf);
  expect_same(read_stream(in, TraceFormat::kDiskSim, options(10'000'000)), expected);
  EXPECT_EQ(expected.last.error,
            "line 3001: expected 5 fields (arrival_ms devno blkno size flags), got 4");
}

TEST(TraceBuffer, FileLargerThanTheBuffer) {
  // std::ifstream, as memsim reads traces: its filebuf reads large requests
  // straight into the reader's buffer.
  const std::string text = varied_trace(30'000) + "30000 0 1 1 1";  // no final newline
  const char* dir = std::getenv("TMPDIR");
  std::string path =
      std::string(dir != nullptr && *dir != '\0' ? dir : "/tmp") + "/memstore_trace_test_XXXXXX";
  const int fd = mkstemp(path.data());
  ASSERT_GE(fd, 0);
  close(fd);
  {
    std::ofstream out(path, std::ios::binary);
    out << text;
  }
  std::ifstream in(path, std::ios::binary);
  const Result from_file = read_stream(in, TraceFormat::kDiskSim, options(10'000'000));
  std::remove(path.c_str());
  const Result expected = read_all(text, TraceFormat::kDiskSim, options(10'000'000));
  EXPECT_EQ(expected.last.kind, Kind::kEnd) << expected.last.error;
  EXPECT_EQ(expected.requests.back().lbn, 1);
  expect_same(from_file, expected);
}

TEST(TraceBuffer, NoStreambufIsAnEmptyTrace) {
  std::istream in(nullptr);
  EXPECT_EQ(read_stream(in, TraceFormat::kDiskSim, options()).last.kind, Kind::kEnd);
}

TEST(SpcTrace, ParsesGoodLines) {
  const Result r = read_all(
      "0,20941264,8192,W,0.551706\n"
      "1, 1000 , 512 , r , 0.552\r\n"
      "0,5000,513,R,0.600000,extra,fields\n"
      "2,7,1,w,1.551706\n",
      TraceFormat::kSpc, options(100'000'000));
  EXPECT_EQ(r.last.kind, Kind::kEnd);
  ASSERT_EQ(r.requests.size(), 4u);
  EXPECT_EQ(r.requests[0].arrival_ns, 0);
  EXPECT_EQ(r.requests[0].lbn, 20941264);
  EXPECT_EQ(r.requests[0].blocks, 16);
  EXPECT_EQ(r.requests[0].op, model::Op::kWrite);
  EXPECT_EQ(r.requests[1].arrival_ns, 294'000);
  EXPECT_EQ(r.requests[1].lbn, 1000);
  EXPECT_EQ(r.requests[1].blocks, 1);
  EXPECT_EQ(r.requests[1].op, model::Op::kRead);
  EXPECT_EQ(r.requests[2].blocks, 2);  // 513 bytes round up
  EXPECT_EQ(r.requests[2].arrival_ns, 48'294'000);
  EXPECT_EQ(r.requests[3].blocks, 1);  // 1 byte
  EXPECT_EQ(r.requests[3].arrival_ns, 1'000'000'000);
  EXPECT_EQ(r.requests[3].op, model::Op::kWrite);
}

TEST(SpcTrace, BlockBytesAndScaleAndAsuFilter) {
  TraceOptions o = options();
  o.block_bytes = 4096;
  o.scale = 4.0;
  o.device_filter = 1;
  const Result r =
      read_all("0,1,4096,r,0\n1,2,4097,r,1\n0,3,1,r,2\n1,4,8192,w,3\n", TraceFormat::kSpc, o);
  ASSERT_EQ(r.requests.size(), 2u);
  EXPECT_EQ(r.requests[0].lbn, 2);
  EXPECT_EQ(r.requests[0].blocks, 2);
  EXPECT_EQ(r.requests[0].arrival_ns, 0);
  EXPECT_EQ(r.requests[1].lbn, 4);
  EXPECT_EQ(r.requests[1].blocks, 2);
  EXPECT_EQ(r.requests[1].arrival_ns, 500'000'000);  // 2 s / 4
}

TEST(SpcTrace, FoldsBeyondCapacity) {
  const Result r = read_all("0,2500,2048,r,0\n", TraceFormat::kSpc, options(1000));
  ASSERT_EQ(r.requests.size(), 1u);
  EXPECT_EQ(r.requests[0].lbn, 500);
  EXPECT_EQ(r.requests[0].blocks, 4);
}

TEST(SpcTraceError, TooFewFields) {
  EXPECT_EQ(error_of("0,1,512,r,0\n0,1\n", TraceFormat::kSpc),
            "line 2: expected at least 5 fields (ASU,LBA,Size,Opcode,Timestamp), got 2");
}

TEST(SpcTraceError, BadAsu) {
  EXPECT_EQ(error_of("a,1,512,r,0\n", TraceFormat::kSpc),
            "line 1: ASU must be an integer, got 'a'");
}

TEST(SpcTraceError, BadLba) {
  EXPECT_EQ(error_of("0,-5,512,r,0\n", TraceFormat::kSpc),
            "line 1: LBA must be a non-negative integer, got '-5'");
}

TEST(SpcTraceError, BadSize) {
  EXPECT_EQ(error_of("0,1,0,r,0\n", TraceFormat::kSpc),
            "line 1: Size must be a positive integer, got '0'");
  EXPECT_EQ(error_of("0,1,,r,0\n", TraceFormat::kSpc),
            "line 1: Size must be a positive integer, got ''");
}

TEST(SpcTraceError, BadOpcode) {
  EXPECT_EQ(error_of("0,1,512,x,0\n", TraceFormat::kSpc), "line 1: Opcode must be r or w, got 'x'");
  EXPECT_EQ(error_of("0,1,512,rw,0\n", TraceFormat::kSpc),
            "line 1: Opcode must be r or w, got 'rw'");
}

TEST(SpcTraceError, BadTimestamp) {
  EXPECT_EQ(error_of("0,1,512,r,-nan\n", TraceFormat::kSpc),
            "line 1: Timestamp must be a finite number, got '-nan'");
}

TEST(SpcTraceError, GoingBackInTime) {
  EXPECT_EQ(error_of("0,1,512,r,2.5\n0,1,512,r,2.25\n", TraceFormat::kSpc),
            "line 2: timestamp 2.25 s is earlier than the previous request (2.5 s)");
}

}  // namespace
}  // namespace memstore::sim
