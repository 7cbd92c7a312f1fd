// SPDX-License-Identifier: Apache-2.0
// A LUN's capture of the requests its model is given (target/scsi/
// request_trace.h): one line per model request, on the model's clock; the
// commands that do not touch the media left out; write errors kept.
#include "target/scsi/request_trace.h"

#include <gmock/gmock.h>
#include <gtest/gtest.h>

#include <fstream>
#include <sstream>

#include "model/batch.h"
#include "modepages/bytes.h"
#include "tests/scsi/lun_fixture.h"
#include "tests/scsi/temp_dir.h"

namespace memstore::scsi {
namespace {

using ::testing::ElementsAre;
using ::testing::HasSubstr;
using testing::TempDir;

std::vector<std::string> lines_of(const std::string& path) {
  std::ifstream f(path);
  std::vector<std::string> lines;
  for (std::string l; std::getline(f, l);) lines.push_back(l);
  return lines;
}

std::unique_ptr<RequestTrace> open_or_fail(const std::string& path, model::TraceFormat format,
                                           std::string_view header = "") {
  auto t = RequestTrace::open(path, format, 512, header);
  EXPECT_TRUE(t.ok()) << (t.ok() ? "" : t.error().message);
  return std::move(t).value();
}

TEST(RequestTraceTest, WritesTheHeaderAsCommentsThenOneLinePerRequest) {
  TempDir dir;
  auto t = open_or_fail(dir.file("t"), model::TraceFormat::kDiskSim, "first\nsecond");
  model::Request r;
  r.arrival_ns = 12'345'678;
  r.lbn = 4096;
  r.blocks = 8;
  r.op = model::Op::kWrite;
  t->record(r);
  r.arrival_ns = 1'000'000'001;
  r.op = model::Op::kRead;
  t->record(r);
  EXPECT_EQ(t->requests(), 2u);
  ASSERT_TRUE(t->close().ok());
  EXPECT_THAT(lines_of(dir.file("t")),
              ElementsAre("# first", "# second", "12.345678 0 4096 8 0", "1000.000001 0 4096 8 1"));
}

TEST(RequestTraceTest, SpcLinesGiveBytesAndSeconds) {
  TempDir dir;
  auto t = open_or_fail(dir.file("t"), model::TraceFormat::kSpc);
  model::Request r;
  r.arrival_ns = 2'000'000'007;
  r.lbn = 77;
  r.blocks = 3;
  r.op = model::Op::kRead;
  t->record(r);
  ASSERT_TRUE(t->close().ok());
  EXPECT_THAT(lines_of(dir.file("t")), ElementsAre("0,77,1536,r,2.000000007"));
}

TEST(RequestTraceTest, ABatchBecomesACommentAndIsCounted) {
  TempDir dir;
  auto t = open_or_fail(dir.file("t"), model::TraceFormat::kDiskSim);
  const std::vector<model::BatchExtent> extents(2);
  model::Request r;
  r.arrival_ns = 5;
  r.batch = &extents;
  t->record(r);
  EXPECT_EQ(t->requests(), 0u);
  EXPECT_EQ(t->batches_skipped(), 1u);
  ASSERT_TRUE(t->close().ok());
  const auto lines = lines_of(dir.file("t"));
  ASSERT_EQ(lines.size(), 1u);
  EXPECT_THAT(lines[0], HasSubstr("# a MEMS BATCH arriving at 5 ns"));
}

TEST(RequestTraceTest, ErrorsNameTheFile) {
  auto missing = RequestTrace::open("/nonexistent-dir/t", model::TraceFormat::kDiskSim, 512, "");
  ASSERT_FALSE(missing.ok());
  EXPECT_THAT(missing.error().message, HasSubstr("'/nonexistent-dir/t'"));
  // A full device: the lines sit in the buffer until close() writes them.
  auto full = RequestTrace::open("/dev/full", model::TraceFormat::kDiskSim, 512, "h");
  ASSERT_TRUE(full.ok());
  (*full)->record(model::Request{});
  const memstore::Status closed = (*full)->close();
  ASSERT_FALSE(closed.ok());
  EXPECT_THAT(closed.error().message, HasSubstr("'/dev/full'"));
  EXPECT_TRUE((*full)->close().ok() == false) << "the error stays";
}

// Through a LUN: what the model times, dated as the command arrived.
class LunTraceTest : public testing::LunTest {
 protected:
  TempDir dir;
  std::string path = dir.file("lun.trace");
  void SetUp() override {
    EXPECT_EQ(lun->set_trace(open_or_fail(path, model::TraceFormat::kDiskSim)), nullptr);
  }
  std::vector<std::string> stop() {
    auto t = lun->set_trace(nullptr);
    EXPECT_NE(t, nullptr);
    EXPECT_TRUE(t->close().ok());
    return lines_of(path);
  }
};

std::vector<std::uint8_t> rw16(std::uint8_t op, std::uint64_t lba, std::uint32_t blocks) {
  std::vector<std::uint8_t> cdb(16, 0);
  cdb[0] = op;
  modepages::put_be(cdb, 2, 8, lba);
  modepages::put_be(cdb, 10, 4, blocks);
  return cdb;
}

TEST_F(LunTraceTest, MediaCommandsAreTracedAndOthersAreNot) {
  ASSERT_EQ(run(rw16(0x8A, 0x2000, 8), std::vector<std::uint8_t>(8 * 512, 1)).status,
            Status::kGood);                                   // WRITE(16), at 1 ms
  ASSERT_EQ(run({0x00}).status, Status::kGood);               // TEST UNIT READY, at 2 ms
  ASSERT_EQ(run(rw16(0x88, 0x10, 2)).status, Status::kGood);  // READ(16), at 3 ms
  ASSERT_EQ(run(rw16(0x88, 1ULL << 40, 1)).status, Status::kCheckCondition);  // out of range
  EXPECT_THAT(stop(), ElementsAre("1.000000 0 8192 8 0", "3.000000 0 16 2 1"));
  // Stopped: nothing more is written.
  ASSERT_EQ(run(rw16(0x88, 0x10, 2)).status, Status::kGood);
  EXPECT_EQ(lines_of(path).size(), 2u);
}

TEST_F(LunTraceTest, ACommandOfTwoAccessesIsTwoLinesOfOneArrival) {
  std::vector<std::uint8_t> orwrite = rw16(0x8B, 0x40, 4);  // ORWRITE(16): read, then write
  ASSERT_EQ(run(orwrite, std::vector<std::uint8_t>(4 * 512, 2)).status, Status::kGood);
  EXPECT_THAT(stop(), ElementsAre("1.000000 0 64 4 1", "1.000000 0 64 4 0"));
}

}  // namespace
}  // namespace memstore::scsi
