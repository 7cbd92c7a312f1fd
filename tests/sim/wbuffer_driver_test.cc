// SPDX-License-Identifier: Apache-2.0
// The MEMS write buffer driver's timing policies (Wang and Brandt, §3): cleaning starts only
// beyond the high water mark and stops at the low one with the writing request suspended,
// the clean buffer writes only live data and combines adjacent blocks into one disk
// request, reads split between the log and the disk, and the comparison with the devices
// alone on the stand-in traces.
#include "sim/wbuffer_driver.h"

#include <gtest/gtest.h>

#include <vector>

#include "model/device_factory.h"
#include "sim/hybrid.h"
#include "sim/wbuffer_workloads.h"

namespace memstore::sim {
namespace {

model::Request req(model::Ns at_ms, model::Lbn lbn, std::int32_t blocks, model::Op op) {
  model::Request r;
  r.arrival_ns = at_ms * 1'000'000;
  r.lbn = lbn;
  r.blocks = blocks;
  r.op = op;
  return r;
}

WbufferStats run(std::vector<model::Request> reqs, const WriteBufferParams& p) {
  auto disk = model::make_disk_device("atlas10k", "fcfs");
  auto mems = model::make_mems_device(*model::preset("g2"), "fcfs");
  for (std::size_t i = 0; i < reqs.size(); ++i) reqs[i].id = i;
  std::size_t i = 0;
  return run_write_buffer(*mems, *disk, p, [&]() -> std::optional<model::Request> {
    if (i == reqs.size()) return std::nullopt;
    return reqs[i++];
  });
}

WriteBufferParams ten_segments(std::int32_t clean_segments) {
  WriteBufferParams p;
  p.segments = 10;
  p.high_water = 0.5;
  p.low_water = 0.2;
  p.clean_segments = clean_segments;
  return p;
}

// Writes of 127 KB, each filling one segment, 100 ms apart; the second overwrites the first.
std::vector<model::Request> segment_writes(int n) {
  std::vector<model::Request> reqs;
  for (int i = 0; i < n; ++i) {
    const model::Lbn lbn = i == 0 ? 254 : 254 * i;
    reqs.push_back(req(100 * i, lbn, 254, model::Op::kWrite));
  }
  return reqs;
}

TEST(WbufferDriverTest, CleaningStartsBeyondTheHighMarkAndStopsAtTheLowOne) {
  // Six writes fill six of ten segments: at 0.6 the seventh write is beyond the 0.5 mark.
  WbufferStats six = run(segment_writes(6), ten_segments(1));
  EXPECT_EQ(six.segments_cleaned, 0);  // 0.5 is not beyond the mark
  EXPECT_EQ(six.disk_requests, 0);
  WbufferStats seven = run(segment_writes(7), ten_segments(1));
  // Six used, low mark two: the four oldest segments, one per pass.
  EXPECT_EQ(seven.segments_cleaned, 4);
  EXPECT_EQ(seven.clean_passes, 4);
  EXPECT_EQ(seven.waited, 1);  // the seventh write waited for the cleaning
  EXPECT_EQ(seven.requests, 7);
  // Segment 0 holds only data segment 1 overwrote: nothing of it goes to the disk; each of
  // segments 1-3 is one run.
  EXPECT_EQ(seven.cleaner_disk_writes, 3);
  EXPECT_EQ(seven.disk_requests, 3);
  // The suspended write completes after the cleaner's disk writes: tens of ms, not one.
  EXPECT_GT(seven.mean_write_ms() * 7 - six.mean_write_ms() * 6, 10.0);
}

TEST(WbufferDriverTest, TheCleanBufferReadsSegmentsTogetherAndCombinesAdjacentBlocks) {
  // Clean buffer of four segments: one pass, one sequential MEMS read of four segments, and
  // the live blocks of segments 1-3 (adjacent on the disk: 254..1015) as one disk write.
  const WbufferStats s = run(segment_writes(7), ten_segments(4));
  EXPECT_EQ(s.segments_cleaned, 4);
  EXPECT_EQ(s.clean_passes, 1);
  EXPECT_EQ(s.cleaner_disk_writes, 1);
  EXPECT_EQ(s.disk_requests, 1);
}

TEST(WbufferDriverTest, AReadPartlyInTheLogGoesToBothDevices) {
  const WbufferStats s =
      run({req(0, 1604, 4, model::Op::kWrite), req(50, 1600, 16, model::Op::kRead),
           req(100, 1604, 4, model::Op::kRead), req(150, 9600, 16, model::Op::kRead)},
          WriteBufferParams{});
  EXPECT_EQ(s.partial_read_hits, 1);
  EXPECT_EQ(s.read_hits, 1);
  // Disk: the partial read's two pieces and the read of unbuffered data.
  EXPECT_EQ(s.disk_requests, 3);
  EXPECT_EQ(s.mems_requests, 3);  // the write, the partial read's piece, the hit
}

TEST(WbufferDriverTest, WhileCleaningReadsOfDiskDataGoOnAndReadsOfTheLogWait) {
  std::vector<model::Request> reqs = segment_writes(7);
  // Just after the seventh write starts the cleaning: a read of data still in the log (the
  // sixth write's) and one of data never written.
  reqs.push_back(req(601, 254 * 5, 8, model::Op::kRead));
  reqs.push_back(req(601, 3'000'000, 8, model::Op::kRead));
  const WbufferStats s = run(reqs, ten_segments(1));
  EXPECT_EQ(s.waited, 2);  // the seventh write and the read of the log
  EXPECT_EQ(s.read_hits, 1);
}

TEST(WbufferDriverTest, TheStandInsKeepThePapersCountsAndReadFractions) {
  const StandInSpec snake = *stand_in("snake-like");
  const std::vector<model::Request> day = stand_in_requests(snake, 0, 1, 1LL << 24, 1);
  ASSERT_EQ(day.size(), 77'372u);
  std::int64_t reads = 0, near_flush = 0;
  for (const model::Request& r : day) {
    if (r.op == model::Op::kRead) ++reads;
    EXPECT_LT(r.lbn + r.blocks, 1300LL * 2048 + 1);  // within the 1.3 GB Snake disk
    EXPECT_EQ(r.lbn % 2, 0);                         // 1 KB aligned
    const double s = static_cast<double>(r.arrival_ns) / 1e9;
    if (s - 30 * std::floor(s / 30) < 1) ++near_flush;  // within a second of a sync
  }
  EXPECT_EQ(reads, 33'270);           // 43% of 77,372
  EXPECT_GT(near_flush, 77'372 / 3);  // the bursts: 1/30 of the time, over a third of I/O
  EXPECT_NEAR(static_cast<double>(day.back().arrival_ns) / 1e9, 86'400, 600);
  // Scaling 16 divides every inter-arrival time by 16.
  const auto fast = stand_in_requests(snake, 1000, 16, 1LL << 24, 1);
  const auto slow = stand_in_requests(snake, 1000, 1, 1LL << 24, 1);
  EXPECT_NEAR(static_cast<double>(fast.back().arrival_ns),
              static_cast<double>(slow.back().arrival_ns) / 16, 2);
  const auto cello = stand_in_requests(*stand_in("cello-like"), 100'000, 1, 1LL << 24, 1);
  reads = 0;
  for (const model::Request& r : cello) reads += r.op == model::Op::kRead;
  EXPECT_EQ(reads, 30'100);
  EXPECT_FALSE(stand_in("snake"));
}

TEST(WbufferDriverTest, ALargeBufferBeatsTheDiskAloneUnderTheSnakeStandIn) {
  const auto reqs = stand_in_requests(*stand_in("snake-like"), 5000, 16, 1LL << 24, 1);
  auto each = [&](HybridMode mode, std::int64_t segments) {
    auto disk = model::make_disk_device("atlas10k", "fcfs");
    auto mems = model::make_mems_device(*model::preset("g2"), "fcfs");
    WriteBufferParams p;
    p.segments = segments;
    std::size_t i = 0;
    return run_hybrid(mode, mems.get(), disk.get(), p, [&]() -> std::optional<model::Request> {
      if (i == reqs.size()) return std::nullopt;
      return reqs[i++];
    });
  };
  const HybridStats disk = each(HybridMode::kDiskAlone, 0);
  const HybridStats buffered = each(HybridMode::kWriteBuffered, 4096);  // 512 MB
  EXPECT_EQ(buffered.requests, 5000);
  EXPECT_EQ(buffered.segments_cleaned, 0);
  EXPECT_LT(buffered.mean_response_ms(), disk.mean_response_ms() / 2);
}

}  // namespace
}  // namespace memstore::sim
