// SPDX-License-Identifier: Apache-2.0
// The batch builder (host/batch.*): the limits it checks before anything is
// sent, the parameter list it encodes (parsed back by the target's parser),
// the words for a field pointer, and splitting MEMS BATCH RESULTS.
#include "host/batch.h"

#include <gtest/gtest.h>

#include "modepages/batch_codec.h"

namespace memstore::host {
namespace {

constexpr BatchLimits kLimits{4, 16, 1000, 8};

Bytes blocks_of(std::size_t n, std::uint8_t fill) {
  return Bytes(n * kLimits.block_size, fill);
}

void expect_invalid(const Status& s, const std::string& words) {
  ASSERT_FALSE(s.ok());
  EXPECT_EQ(s.error().code, Error::Code::kInvalidArgument);
  EXPECT_NE(s.error().message.find(words), std::string::npos) << s.error().message;
}

TEST(Batch, EncodesWhatTheTargetParses) {
  Batch b(kLimits);
  ASSERT_TRUE(b.add_read(10, 2).ok());
  ASSERT_TRUE(b.add_write(100, blocks_of(3, 0xAB)).ok());
  ASSERT_TRUE(b.add_read(100, 1).ok());
  EXPECT_EQ(b.size(), 3u);
  EXPECT_EQ(b.blocks(), 6u);
  EXPECT_EQ(b.read_blocks(), 3u);
  EXPECT_EQ(b.results_size(), 16u + 3 * 8);
  const Bytes list = b.parameter_list();
  EXPECT_EQ(list.size(), 8u + 3 * 16 + 3 * 8);
  const auto parsed = modepages::parse_batch_list(list, kLimits.capacity_blocks, kLimits.block_size,
                                                  kLimits.max_descriptors, kLimits.max_blocks);
  ASSERT_TRUE(parsed.ok()) << parsed.error().what;
  const modepages::BatchList& pl = *parsed;
  ASSERT_EQ(pl.descriptors.size(), 3u);
  EXPECT_EQ(pl.descriptors[0].op, modepages::BatchOp::kRead);
  EXPECT_EQ(pl.descriptors[0].lba, 10u);
  EXPECT_EQ(pl.descriptors[1].op, modepages::BatchOp::kWrite);
  EXPECT_EQ(pl.descriptors[1].blocks, 3u);
  EXPECT_EQ(list[pl.descriptors[1].data_offset], 0xAB);
  EXPECT_EQ(modepages::batch_results_size(pl, kLimits.block_size), b.results_size());
}

TEST(Batch, LimitsFromPage20hAndCapacity) {
  Batch b(kLimits);
  expect_invalid(b.add_read(5, 0), "at least 1");
  expect_invalid(b.add_read(999, 2), "beyond the device's last block 999");
  expect_invalid(b.add_read(1000, 1), "beyond");
  expect_invalid(b.add_read(0, 17), "above the device's maximum of 16");
  expect_invalid(b.add_write(0, Bytes(12, 0)), "not a whole number of 8-byte blocks");
  EXPECT_TRUE(b.empty());  // failed adds leave the batch alone
  for (int i = 0; i < 4; ++i) ASSERT_TRUE(b.add_read(static_cast<std::uint64_t>(i), 1).ok());
  expect_invalid(b.add_read(9, 1), "maximum of 4 descriptors");
  EXPECT_EQ(b.size(), 4u);
  b.clear();
  EXPECT_TRUE(b.empty());
  EXPECT_EQ(b.blocks(), 0u);
}

TEST(Batch, DescriptorCountNeverAbove4095WhateverThePageSays) {
  Batch b(BatchLimits{65535, 100000, 1'000'000, 512});
  for (int i = 0; i < 4095; ++i) ASSERT_TRUE(b.add_read(static_cast<std::uint64_t>(i), 1).ok());
  expect_invalid(b.add_read(5000, 1), "maximum of 4095 descriptors");
}

TEST(Batch, TwentyFourBitLengthsAreChecked) {
  Batch b(BatchLimits{16, 1u << 20, 1u << 30, 4096});
  // 4097 blocks of 4 KiB is more than 16 MiB of results.
  expect_invalid(b.add_read(0, 4097), "READ BUFFER's 24-bit limit");
  expect_invalid(b.add_write(0, Bytes(4096u * 4096u, 0)), "WRITE BUFFER's 24-bit limit");
}

TEST(Batch, DescribesListBytesForFieldPointers) {
  Batch b(kLimits);
  ASSERT_TRUE(b.add_write(100, blocks_of(4, 1)).ok());
  ASSERT_TRUE(b.add_write(102, blocks_of(1, 2)).ok());
  EXPECT_EQ(b.describe_list_byte(0), "header byte 0 (descriptor count)");
  EXPECT_EQ(b.describe_list_byte(3), "header byte 3 (reserved)");
  EXPECT_EQ(b.describe_list_byte(8), "descriptor 0 (write LBA 100, 4 blocks), operation");
  EXPECT_EQ(b.describe_list_byte(8 + 16 + 4), "descriptor 1 (write LBA 102, 1 blocks), LBA");
  EXPECT_EQ(b.describe_list_byte(8 + 16 + 12),
            "descriptor 1 (write LBA 102, 1 blocks), number of blocks");
  EXPECT_EQ(b.describe_list_byte(8 + 32), "write data of descriptor 0");
  EXPECT_EQ(b.describe_list_byte(8 + 32 + 32), "write data of descriptor 1");
  EXPECT_EQ(b.describe_list_byte(8 + 32 + 40), "byte 80, past the end of the list");
}

TEST(Batch, SplitsResultsPerDescriptor) {
  Batch b(kLimits);
  ASSERT_TRUE(b.add_read(1, 2).ok());
  ASSERT_TRUE(b.add_write(50, blocks_of(1, 9)).ok());
  ASSERT_TRUE(b.add_read(7, 1).ok());
  Bytes data = modepages::encode_batch_results_header(42, 3, 2, 1234);
  for (int i = 0; i < 24; ++i) data.push_back(static_cast<std::uint8_t>(i));
  auto r = split_results(b, 42, data);
  ASSERT_TRUE(r.ok()) << r.error().message;
  EXPECT_EQ(r->media_steps, 2);
  EXPECT_EQ(r->service_us, 1234u);
  ASSERT_EQ(r->data.size(), 3u);
  EXPECT_EQ(r->data[0].size(), 16u);
  EXPECT_EQ(r->data[0][15], 15);
  EXPECT_TRUE(r->data[1].empty());
  ASSERT_EQ(r->data[2].size(), 8u);
  EXPECT_EQ(r->data[2][0], 16);
}

TEST(Batch, MismatchedResultsAreBadResponses) {
  Batch b(kLimits);
  ASSERT_TRUE(b.add_read(1, 1).ok());
  Bytes good = modepages::encode_batch_results_header(3, 1, 1, 10);
  good.resize(16 + 8);
  auto expect_bad = [&](std::span<const std::uint8_t> d, std::uint8_t id, const std::string& w) {
    auto r = split_results(b, id, d);
    ASSERT_FALSE(r.ok());
    EXPECT_EQ(r.error().code, Error::Code::kBadResponse);
    EXPECT_NE(r.error().message.find(w), std::string::npos) << r.error().message;
  };
  expect_bad(std::span(good).first(10), 3, "fewer than its 16-byte header");
  expect_bad(good, 4, "not batch 4");
  expect_bad(std::span(good).first(20), 3, "expected");
  Bytes wrong_count = modepages::encode_batch_results_header(3, 2, 1, 10);
  wrong_count.resize(24);
  expect_bad(wrong_count, 3, "counts 2 descriptors");
}

}  // namespace
}  // namespace memstore::host
