// The MEMS write buffer (issue 19): the log's layout (segment heads, 1 KB slots), lookups,
// cleaning between the water marks, and the hybrid runs' ordering against the disk alone and
// the MEMStore alone.
#include "sim/write_buffer.h"

#include <gtest/gtest.h>

#include <vector>

#include "model/device_factory.h"
#include "sim/hybrid.h"
#include "sim/workload.h"

namespace memstore::sim {

bool operator==(const Extent& a, const Extent& b) {
  return a.lbn == b.lbn && a.blocks == b.blocks;
}
void PrintTo(const Extent& e, std::ostream* os) {
  *os << "{" << e.lbn << ", " << e.blocks << "}";
}

namespace {

using Extents = std::vector<Extent>;

TEST(WriteBufferTest, WritesTakeWholeSlotsAfterTheSegmentHead) {
  WriteBuffer b(WriteBufferParams{});
  // The first write opens segment 0: its 1 KB head, then four 1 KB slots.
  EXPECT_EQ(*b.append(1000, 8), (Extents{{0, 10}}));
  // Three blocks take two slots (the last one half used).
  EXPECT_EQ(*b.append(5000, 3), (Extents{{10, 4}}));
  EXPECT_EQ(b.used_segments(), 1);
  EXPECT_EQ(b.blocks_buffered(), 11);
}

TEST(WriteBufferTest, AWriteThatFillsASegmentGoesOnInTheNext) {
  WriteBuffer b(WriteBufferParams{});
  ASSERT_TRUE(b.append(0, 250));  // 125 of the segment's 127 slots
  // Two slots left in segment 0; the rest after segment 1's head.
  EXPECT_EQ(*b.append(10'000, 8), (Extents{{252, 4}, {256, 6}}));
  EXPECT_EQ(b.used_segments(), 2);
  EXPECT_EQ(*b.lookup(10'000, 8), (Extents{{252, 4}, {258, 4}}));
}

TEST(WriteBufferTest, ReadsAreServedOnlyWhenEveryBlockIsInTheLog) {
  WriteBuffer b(WriteBufferParams{});
  ASSERT_TRUE(b.append(1000, 8));
  EXPECT_EQ(*b.lookup(1000, 8), (Extents{{2, 8}}));
  EXPECT_FALSE(b.lookup(1000, 9));
  EXPECT_FALSE(b.lookup(999, 2));
  // An overwrite moves the block's latest copy to the log head.
  ASSERT_TRUE(b.append(1004, 1));
  EXPECT_EQ(*b.lookup(1000, 8), (Extents{{2, 4}, {10, 1}, {7, 3}}));
}

TEST(WriteBufferTest, CleaningRunsBetweenTheWaterMarksAndKeepsOnlyLiveBlocks) {
  WriteBufferParams p;
  p.segments = 4;
  p.high_water = 0.5;
  p.low_water = 0.25;
  WriteBuffer b(p);
  ASSERT_TRUE(b.append(0, 254));          // fills segment 0
  ASSERT_TRUE(b.append(1000, 2));         // opens segment 1
  EXPECT_FALSE(b.wants_cleaning(false));  // 2 of 4 used: not above the high mark
  ASSERT_TRUE(b.append(100, 254));        // overwrites 100..253 of segment 0, opens segment 2
  EXPECT_TRUE(b.wants_cleaning(false));
  const auto s = b.take_oldest();
  ASSERT_TRUE(s);
  EXPECT_EQ(*s, 0);
  EXPECT_EQ(b.segment_extent(0).blocks, 256);
  // Blocks 0..99 are live in segment 0; 100..253 have newer copies.
  EXPECT_EQ(b.live_runs(0), (Extents{{0, 100}}));
  b.free_segment(0);
  EXPECT_FALSE(b.lookup(0, 1));
  EXPECT_TRUE(b.lookup(100, 1));
  EXPECT_EQ(b.used_segments(), 3 - 1);
  // Still above the low mark while cleaning (2 of 4 > 0.25), and segment 1 is next.
  EXPECT_TRUE(b.wants_cleaning(true));
  EXPECT_EQ(*b.take_oldest(), 1);
}

TEST(WriteBufferTest, AFullLogRefusesAWriteAndChangesNothing) {
  WriteBufferParams p;
  p.segments = 2;
  WriteBuffer b(p);
  ASSERT_TRUE(b.append(0, 254));
  ASSERT_TRUE(b.append(1000, 254));
  EXPECT_FALSE(b.append(5000, 2));
  EXPECT_EQ(b.used_segments(), 2);
  EXPECT_FALSE(b.lookup(5000, 1));
}

// --- The hybrid runs -------------------------------------------------------------------

struct Three {
  HybridStats disk, buffered, mems;
};

Three run_three(double interarrival_ms, const WriteBufferParams& p, std::int64_t requests) {
  auto disk_alone = model::make_disk_device("atlas10k", "fcfs");
  auto disk = model::make_disk_device("atlas10k", "fcfs");
  auto mems_alone = model::make_mems_device(*model::preset("g2"), "fcfs");
  auto mems = model::make_mems_device(*model::preset("g2"), "fcfs");
  RandomWorkloadSpec spec;
  spec.requests = requests;
  spec.interarrival_ms = interarrival_ms;
  spec.read_fraction = 0.3;
  spec.seed = 7;
  spec.capacity_blocks = disk->blocks();
  auto run = [&](HybridMode mode, model::Device* m, model::Device* d) {
    RandomWorkload w(spec);
    return run_hybrid(mode, m, d, p, [&w] { return w.next(); });
  };
  return {run(HybridMode::kDiskAlone, nullptr, disk_alone.get()),
          run(HybridMode::kWriteBuffered, mems.get(), disk.get()),
          run(HybridMode::kMemsAlone, mems_alone.get(), nullptr)};
}

TEST(HybridTest, BufferSitsBetweenDiskAndMemsAndTheGapWidensWithLoad) {
  const WriteBufferParams p;
  const Three slow = run_three(40, p, 3000);
  const Three fast = run_three(10, p, 3000);
  for (const Three* t : {&slow, &fast}) {
    EXPECT_EQ(t->disk.requests, 3000);
    EXPECT_EQ(t->buffered.requests, 3000);
    EXPECT_EQ(t->mems.requests, 3000);
    EXPECT_GT(t->disk.mean_response_ms(), t->buffered.mean_response_ms());
    EXPECT_GT(t->buffered.mean_response_ms(), t->mems.mean_response_ms());
  }
  EXPECT_GT(fast.disk.mean_response_ms() - fast.buffered.mean_response_ms(),
            slow.disk.mean_response_ms() - slow.buffered.mean_response_ms());
  // Writes go to the MEMStore: as fast as there.
  EXPECT_LT(slow.buffered.mean_write_ms(), 2 * slow.mems.mean_write_ms());
}

TEST(HybridTest, TheCleanerMovesSegmentsToTheDiskAndEveryRequestCompletes) {
  WriteBufferParams p;
  p.segments = 16;  // 2 MB of log: fills many times over
  const Three t = run_three(20, p, 4000);
  EXPECT_EQ(t.buffered.requests, 4000);
  EXPECT_GT(t.buffered.segments_cleaned, 10);
  EXPECT_EQ(t.buffered.bypassed_writes, 0);
}

TEST(HybridTest, AReadOfBufferedBlocksIsServedFromTheLog) {
  auto disk = model::make_disk_device("atlas10k", "fcfs");
  auto mems = model::make_mems_device(*model::preset("g2"), "fcfs");
  std::vector<model::Request> reqs(2);
  reqs[0].id = 0;
  reqs[0].lbn = 9'000'000;
  reqs[0].blocks = 8;
  reqs[0].op = model::Op::kWrite;
  reqs[1] = reqs[0];
  reqs[1].id = 1;
  reqs[1].arrival_ns = 50'000'000;
  reqs[1].op = model::Op::kRead;
  std::size_t i = 0;
  const HybridStats s = run_hybrid(HybridMode::kWriteBuffered, mems.get(), disk.get(),
                                   WriteBufferParams{}, [&]() -> std::optional<model::Request> {
                                     if (i == reqs.size()) return std::nullopt;
                                     return reqs[i++];
                                   });
  EXPECT_EQ(s.buffer_read_hits, 1);
  EXPECT_EQ(s.reads, 1);
  EXPECT_LT(s.mean_read_ms(), 2.0);  // a MEMStore access, not a disk one
}

}  // namespace
}  // namespace memstore::sim
