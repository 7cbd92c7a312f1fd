#include "sim/trace.h"

#include <gtest/gtest.h>

#include <sstream>
#include <string>
#include <vector>

namespace memstore::sim {
namespace {

using Kind = TraceItem::Kind;

TraceOptions options(std::int64_t capacity = 1'000'000) {
  TraceOptions o;
  o.capacity_blocks = capacity;
  return o;
}

struct Result {
  std::vector<model::Request> requests;
  TraceItem last;  // kEnd or kError
};

Result read_all(const std::string& text, TraceFormat format, const TraceOptions& o) {
  std::istringstream in(text);
  TraceReader reader(in, format, o);
  Result r;
  for (;;) {
    TraceItem item = reader.next();
    if (item.kind != Kind::kRequest) {
      r.last = item;
      return r;
    }
    r.requests.push_back(item.request);
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
  written[0] = {0, 0, 0, 1, model::Op::kRead, nullptr};
  written[1] = {1, 1'062'419, 3'013'587, 4, model::Op::kWrite, nullptr};
  written[2] = {2, 123'456'789'012'345, 999'999, 70, model::Op::kRead, nullptr};
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
  EXPECT_EQ(validate(o), (std::vector<std::string>{"--scale must be positive",
                                                   "--capacity-blocks must be positive"}));
  EXPECT_EQ(error_of("0 0 0 1 1\n", TraceFormat::kDiskSim, o),
            "invalid trace options: --scale must be positive; --capacity-blocks must be positive");
  EXPECT_TRUE(validate(options()).empty());
}

// --- SPC -------------------------------------------------------------------

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
