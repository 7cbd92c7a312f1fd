// SPDX-License-Identifier: Apache-2.0
// The MEMS write buffer's data structures (Wang and Brandt, §3): the data lookup table's
// whole-block and fragment entries, the log's segments and slots, reads resolved partly
// from the log and partly from the disk with the right bytes, newer writes superseding
// older fragments, the water marks, and the clean buffer's combined disk writes.
#include "sim/write_buffer.h"

#include <gtest/gtest.h>

#include <map>
#include <vector>

namespace memstore::sim {

bool operator==(const Extent& a, const Extent& b) {
  return a.lbn == b.lbn && a.blocks == b.blocks;
}
void PrintTo(const Extent& e, std::ostream* os) {
  *os << "{" << e.lbn << ", " << e.blocks << "}";
}

namespace {

using Extents = std::vector<Extent>;

TEST(DataLookupTableTest, AWholeBlockNeedsNoFragmentsAndAPartOfItSplitsIt) {
  DataLookupTable t;
  for (int i = 0; i < 8; ++i) EXPECT_FALSE(t.set(80 + i, 1000 + 2 * i));  // block 10, whole
  EXPECT_EQ(t.entries(), 1u);
  EXPECT_EQ(t.fragmented_entries(), 0u);
  EXPECT_EQ(*t.find(83), 1006);
  // A newer copy of fragment 3 elsewhere: the entry gets its fragment entries.
  EXPECT_EQ(*t.set(83, 5000), 1006);
  EXPECT_EQ(t.fragmented_entries(), 1u);
  EXPECT_EQ(*t.find(83), 5000);
  EXPECT_EQ(*t.find(84), 1008);
  EXPECT_FALSE(t.find(88));  // block 11: nothing
  // Fragments that are consecutive again make a whole block.
  EXPECT_EQ(*t.set(83, 1006), 5000);
  EXPECT_EQ(t.fragmented_entries(), 0u);
  // Erasing every fragment removes the entry.
  for (int i = 0; i < 8; ++i) EXPECT_TRUE(t.erase(80 + i));
  EXPECT_EQ(t.entries(), 0u);
}

TEST(WriteBufferTest, WritesTakeWholeOneKbSlotsAfterTheSegmentHead) {
  WriteBuffer b(WriteBufferParams{});
  // The first write opens segment 0: after its 1 KB head, eight 1 KB slots.
  EXPECT_EQ(*b.append(1600, 16), (Extents{{2, 16}}));
  // Three sectors from an odd LBN are widened to 1 KB boundaries: 5000..5003, two slots.
  EXPECT_EQ(*b.append(5001, 3), (Extents{{18, 4}}));
  EXPECT_EQ(b.used_segments(), 1);
  EXPECT_EQ(b.live_slots(0), 10);
  EXPECT_EQ(b.table().entries(), 2u);
  EXPECT_EQ(b.table().fragmented_entries(), 1u);  // block 312 holds two fragments only
}

TEST(WriteBufferTest, TheWriteThatFillsASegmentWritesItsHeadAndGoesOnInTheNext) {
  WriteBuffer b(WriteBufferParams{});
  ASSERT_TRUE(b.append(0, 250));  // 125 of the segment's 127 slots
  // Two slots left in segment 0, then its head (the segment is whole), then segment 1.
  EXPECT_EQ(*b.append(10'000, 8), (Extents{{252, 4}, {0, 2}, {258, 4}}));
  EXPECT_EQ(b.used_segments(), 2);
  EXPECT_EQ(*b.take_oldest(), 0);  // sealed; segment 1 is still being filled
}

// A byte-level model of the two devices: a write's data goes to the slots append() gives,
// a read takes each piece from where resolve() says, and cleaning copies the live runs to
// the disk. Sector contents are tags.
struct Bytes {
  WriteBuffer b{WriteBufferParams{}};
  std::map<model::Lbn, int> disk, mems;
  int disk_value(model::Lbn lbn) const {
    const auto it = disk.find(lbn);
    return it == disk.end() ? -static_cast<int>(lbn) : it->second;  // never written
  }
  void write(model::Lbn lbn, std::int32_t blocks, int tag) {
    const auto extents = b.append(lbn, blocks);
    ASSERT_TRUE(extents);
    ASSERT_EQ(lbn % 2, 0);
    ASSERT_EQ(blocks % 2, 0);
    model::Lbn next = lbn;
    for (const Extent& e : *extents) {
      if (e.lbn % kSegmentBlocks == 0) continue;  // a segment head
      for (std::int32_t i = 0; i < e.blocks; ++i)
        mems[e.lbn + i] = tag * 100000 + static_cast<int>(next++);
    }
  }
  std::vector<int> read(model::Lbn lbn, std::int32_t blocks, std::vector<bool>* from_buffer) const {
    std::vector<int> out;
    for (const ReadSource& s : b.resolve(lbn, blocks)) {
      if (from_buffer) from_buffer->push_back(s.in_buffer);
      for (std::int32_t i = 0; i < s.blocks; ++i) {
        out.push_back(s.in_buffer ? mems.at(s.lbn + i) : disk_value(s.lbn + i));
      }
    }
    return out;
  }
  void clean_all() {
    std::vector<std::int64_t> segs;
    while (auto s = b.take_oldest()) {
      segs = {*s};
      for (const Extent& run : b.live_runs(segs)) {
        const std::vector<int> data = read(run.lbn, run.blocks, nullptr);
        for (std::int32_t i = 0; i < run.blocks; ++i)
          disk[run.lbn + i] = data[static_cast<std::size_t>(i)];
      }
      b.free_segments(segs);
    }
  }
};

TEST(WriteBufferTest, ABlockPartlyInTheBufferReadsBackFromBothWithTheRightBytes) {
  Bytes m;
  // Block 100 (sectors 1600..1615): 1 KB fragments 2-3 written (sectors 1604..1607).
  m.write(1604, 4, 1);
  std::vector<bool> from;
  std::vector<int> got = m.read(1600, 16, &from);
  std::vector<int> want;
  for (model::Lbn s = 1600; s < 1616; ++s) {
    want.push_back(s >= 1604 && s < 1608 ? 100000 + static_cast<int>(s) : -static_cast<int>(s));
  }
  EXPECT_EQ(got, want);
  EXPECT_EQ(from, (std::vector<bool>{false, true, false}));  // disk, buffer, disk

  // A newer write over fragments 3-5 supersedes the older copy of fragment 3.
  m.write(1606, 6, 2);
  from.clear();
  got = m.read(1600, 16, &from);
  for (model::Lbn s = 1606; s < 1612; ++s)
    want[static_cast<std::size_t>(s - 1600)] = 200000 + static_cast<int>(s);
  EXPECT_EQ(got, want);
  EXPECT_EQ(from, (std::vector<bool>{false, true, true, false}));
  EXPECT_EQ(m.b.live_slots(0), 2 + 3 - 1);  // fragment 3's first copy is dead

  // Cleaning moves only the latest copies to the disk; the bytes read the same afterwards,
  // all from the disk now.
  m.write(50'000, 254, 3);  // seals segment 0 so that it can be cleaned
  m.clean_all();
  from.clear();
  EXPECT_EQ(m.read(1600, 16, &from), want);
  EXPECT_EQ(from, (std::vector<bool>{false}));
}

TEST(WriteBufferTest, CleaningWritesOnlyTheOldestSegmentsLiveDataCombined) {
  WriteBuffer b(WriteBufferParams{});
  ASSERT_TRUE(b.append(0, 254));    // segment 0: sectors 0..253
  ASSERT_TRUE(b.append(100, 254));  // segment 1: overwrites 100..253 of segment 0
  ASSERT_TRUE(b.append(900, 2));    // opens segment 2
  EXPECT_EQ(b.live_runs(0), (Extents{{0, 100}}));
  // The clean buffer reads the two oldest segments in one sequential read, and their live
  // blocks, adjacent on the disk across the two segments, make one disk request.
  const std::vector<std::int64_t> two{0, 1};
  EXPECT_EQ(b.read_extents(two), (Extents{{0, 512}}));
  EXPECT_EQ(b.live_runs(two), (Extents{{0, 354}}));
  b.free_segments(two);
  EXPECT_EQ(b.used_segments(), 1);
  EXPECT_FALSE(b.holds_any(0, 354));
  EXPECT_TRUE(b.holds_any(900, 2));
  EXPECT_FALSE(b.take_oldest());  // segment 2 is still being filled: not cleanable
}

TEST(WriteBufferTest, NonAdjacentLiveBlocksStaySeparateDiskRequestsInDiskOrder) {
  WriteBuffer b(WriteBufferParams{});
  ASSERT_TRUE(b.append(5000, 16));
  ASSERT_TRUE(b.append(16, 16));
  ASSERT_TRUE(b.append(0, 16));
  EXPECT_EQ(b.live_runs(0), (Extents{{0, 32}, {5000, 16}}));
}

TEST(WriteBufferTest, CleaningStartsBeyondTheHighMarkAndTakesTheOldestDownToTheLowOne) {
  WriteBufferParams p;
  p.segments = 10;
  p.high_water = 0.5;
  p.low_water = 0.2;
  p.clean_segments = 2;
  WriteBuffer b(p);
  for (int i = 0; i < 5; ++i) ASSERT_TRUE(b.append(1000 * i, 254));  // five whole segments
  EXPECT_FALSE(b.above_high());  // 5 of 10: at the mark, not beyond
  ASSERT_TRUE(b.append(9000, 254));
  EXPECT_TRUE(b.above_high());
  // Six used, the low mark is two: four to clean, two per pass (the clean buffer), oldest
  // first.
  EXPECT_EQ(b.next_to_clean(), (std::vector<std::int64_t>{0, 1}));
  b.free_segments(b.next_to_clean());
  EXPECT_TRUE(b.above_low());
  EXPECT_EQ(b.next_to_clean(), (std::vector<std::int64_t>{2, 3}));
  b.free_segments(b.next_to_clean());
  EXPECT_FALSE(b.above_low());  // 2 of 10: cleaning stops
  // The log goes on round the circle: the next segments are 6.. then 0.
  for (int i = 0; i < 5; ++i) ASSERT_TRUE(b.append(20'000 + 1000 * i, 254));
  EXPECT_EQ(b.used_segments(), 7);
  EXPECT_TRUE(b.holds_any(24'000, 1));
  EXPECT_EQ(b.resolve(24'000, 1).front().lbn, kHeadBlocks);  // segment 0's first slot
}

TEST(WriteBufferTest, AWriteThatDoesNotFitChangesNothingAndDiscardForgetsOlderCopies) {
  WriteBufferParams p;
  p.segments = 2;
  WriteBuffer b(p);
  ASSERT_TRUE(b.append(0, 254));
  ASSERT_TRUE(b.append(1000, 250));
  EXPECT_FALSE(b.fits(5000, 6));
  EXPECT_FALSE(b.append(5000, 6));
  EXPECT_EQ(b.used_segments(), 2);
  EXPECT_FALSE(b.holds_any(5000, 6));
  // Written to the disk instead: the log's older copy of 10..11 must not be read any more.
  b.discard(10, 2);
  EXPECT_EQ(b.resolve(8, 6).size(), 3u);
  EXPECT_FALSE(b.resolve(8, 6)[1].in_buffer);
  EXPECT_EQ(b.live_slots(0), 126);
}

}  // namespace
}  // namespace memstore::sim
