// SPDX-License-Identifier: Apache-2.0
// MEMS BATCH / MEMS BATCH RESULTS codec (docs/vendor-interface.md, "MEMS
// commands"): exact bytes of every encoder, one test per error path, and the
// host encoders round-tripping through the target parsers.
#include "modepages/batch_codec.h"

#include <gtest/gtest.h>

namespace memstore::modepages {
namespace {

using Kind = FieldError::Kind;

constexpr std::uint64_t kCapacity = 1000;
constexpr std::uint32_t kBlock = 4;
constexpr std::uint16_t kMaxDescriptors = 4;
constexpr std::uint32_t kMaxBlocks = 16;

template <typename T>
void expect_error(const Expected<T, FieldError>& r, Kind kind, int byte, int bit) {
  ASSERT_FALSE(r.ok()) << "parsed without error";
  const FieldError& e = r.error();
  EXPECT_EQ(e.kind, kind) << e.what;
  EXPECT_EQ(e.byte, byte) << e.what;
  EXPECT_EQ(e.bit, bit) << e.what;
  EXPECT_FALSE(e.what.empty());
}

Expected<BatchList, FieldError> parse(const Bytes& list) {
  return parse_batch_list(list, kCapacity, kBlock, kMaxDescriptors, kMaxBlocks);
}

BatchDescriptor rd(std::uint64_t lba, std::uint32_t blocks) {
  return {BatchOp::kRead, lba, blocks, 0};
}
BatchDescriptor wr(std::uint64_t lba, std::uint32_t blocks) {
  return {BatchOp::kWrite, lba, blocks, 0};
}

// A list with the right amount of write data for its descriptors.
Bytes list_of(std::initializer_list<BatchDescriptor> ds) {
  std::size_t blocks = 0;
  for (const auto& d : ds) blocks += d.op == BatchOp::kWrite ? d.blocks : 0;
  return encode_batch_list(std::vector<BatchDescriptor>(ds), Bytes(blocks * kBlock, 0xAA));
}

// ---- CDBs ----

TEST(BatchCdb, MakeBatchCdbExactBytes) {
  EXPECT_EQ(make_batch_cdb(7, 0x123456, true, true),
            (Bytes{0x3B, 0x61, 0x07, 0x00, 0x00, 0x00, 0x12, 0x34, 0x56, 0x00}));
  EXPECT_EQ(make_batch_cdb(1, 24), (Bytes{0x3B, 0x01, 0x01, 0, 0, 0, 0x00, 0x00, 0x18, 0x00}));
}

TEST(BatchCdb, MakeResultsCdbsExactBytes) {
  EXPECT_EQ(make_results_cdb(9, 0x10, 0x200),
            (Bytes{0x3C, 0x01, 0x09, 0x00, 0x00, 0x10, 0x00, 0x02, 0x00, 0x00}));
  EXPECT_EQ(make_results_descriptor_cdb(9),
            (Bytes{0x3C, 0x03, 0x09, 0x00, 0x00, 0x00, 0x00, 0x00, 0x04, 0x00}));
}

TEST(BatchCdb, ParsesBatch) {
  const auto r = parse_batch_cdb(make_batch_cdb(7, 0x123456, true, false));
  ASSERT_TRUE(r.ok());
  const BatchCdb& c = *r;
  EXPECT_EQ(c.kind, BatchCdb::Kind::kBatch);
  EXPECT_EQ(c.batch_id, 7);
  EXPECT_TRUE(c.strict);
  EXPECT_FALSE(c.fua);
  EXPECT_EQ(c.buffer_offset, 0u);
  EXPECT_EQ(c.length, 0x123456u);
}

TEST(BatchCdb, ParsesResultsWithOffset) {
  const auto r = parse_batch_cdb(make_results_cdb(200, 0xABCDEF, 0xFFFFFF));
  ASSERT_TRUE(r.ok());
  const BatchCdb& c = *r;
  EXPECT_EQ(c.kind, BatchCdb::Kind::kResults);
  EXPECT_EQ(c.batch_id, 200);
  EXPECT_EQ(c.buffer_offset, 0xABCDEFu);
  EXPECT_EQ(c.length, 0xFFFFFFu);
}

TEST(BatchCdb, ParsesResultsDescriptor) {
  const auto r = parse_batch_cdb(make_results_descriptor_cdb(3));
  ASSERT_TRUE(r.ok());
  EXPECT_EQ(r->kind, BatchCdb::Kind::kResultsDescriptor);
  EXPECT_EQ(r->batch_id, 3);
  EXPECT_EQ(r->length, 4u);
}

TEST(BatchCdb, OtherOpcode) {
  Bytes cdb = make_batch_cdb(1, 24);
  cdb[0] = 0x28;
  expect_error(parse_batch_cdb(cdb), Kind::kInvalidFieldInCdb, 0, -1);
}

TEST(BatchCdb, ShortCdb) {
  Bytes cdb = make_batch_cdb(1, 24);
  cdb.pop_back();
  expect_error(parse_batch_cdb(cdb), Kind::kInvalidFieldInCdb, 0, -1);
}

TEST(BatchCdb, OtherWriteBufferModes) {
  for (const std::uint8_t mode :
       std::initializer_list<std::uint8_t>{0x00, 0x02, 0x03, 0x05, 0x07, 0x0A, 0x1F}) {
    Bytes cdb = make_batch_cdb(1, 24);
    cdb[1] = mode;
    expect_error(parse_batch_cdb(cdb), Kind::kInvalidFieldInCdb, 1, 4);
  }
}

TEST(BatchCdb, OtherReadBufferModes) {
  for (const std::uint8_t mode :
       std::initializer_list<std::uint8_t>{0x00, 0x02, 0x0A, 0x0B, 0x1C}) {
    Bytes cdb = make_results_cdb(1, 0, 16);
    cdb[1] = mode;
    expect_error(parse_batch_cdb(cdb), Kind::kInvalidFieldInCdb, 1, 4);
  }
}

TEST(BatchCdb, BatchReservedBit7) {
  Bytes cdb = make_batch_cdb(1, 24, true, true);
  cdb[1] |= 0x80;
  expect_error(parse_batch_cdb(cdb), Kind::kInvalidFieldInCdb, 1, 7);
}

TEST(BatchCdb, ResultsReservedBits) {
  Bytes cdb = make_results_cdb(1, 0, 16);
  cdb[1] |= 0x20;
  expect_error(parse_batch_cdb(cdb), Kind::kInvalidFieldInCdb, 1, 5);
  cdb[1] |= 0x40;
  expect_error(parse_batch_cdb(cdb), Kind::kInvalidFieldInCdb, 1, 6);
  Bytes desc = make_results_descriptor_cdb(1);
  desc[1] |= 0x80;
  expect_error(parse_batch_cdb(desc), Kind::kInvalidFieldInCdb, 1, 7);
}

TEST(BatchCdb, BatchBufferOffsetMustBeZero) {
  Bytes cdb = make_batch_cdb(1, 24);
  cdb[5] = 0x01;
  expect_error(parse_batch_cdb(cdb), Kind::kInvalidFieldInCdb, 3, -1);
}

TEST(BatchCdb, DescriptorModeBufferOffsetReserved) {
  Bytes cdb = make_results_descriptor_cdb(1);
  cdb[3] = 0x01;
  expect_error(parse_batch_cdb(cdb), Kind::kInvalidFieldInCdb, 3, -1);
}

// ---- Parameter list ----

TEST(BatchList, EncodeExactBytes) {
  const BatchDescriptor ds[] = {rd(0x0A, 2), wr(0x0102030405060708, 1)};
  const Bytes data = {1, 2, 3, 4};
  const Bytes expected = {
      0x00, 0x02, 0, 0, 0, 0, 0, 0,                                         // header
      0x01, 0,    0, 0, 0, 0, 0, 0, 0, 0, 0, 0x0A, 0x00, 0x00, 0x00, 0x02,  // read
      0x02, 0,    0, 0, 1, 2, 3, 4, 5, 6, 7, 8,    0x00, 0x00, 0x00, 0x01,  // write
      1,    2,    3, 4,                                                     // data
  };
  EXPECT_EQ(encode_batch_list(ds, data), expected);
}

TEST(BatchList, ParsesDescriptorsAndDataOffsets) {
  const Bytes list = list_of({rd(10, 2), wr(20, 1), wr(30, 2), rd(20, 1)});
  const auto r = parse(list);
  ASSERT_TRUE(r.ok()) << r.error().what;
  const BatchList& b = *r;
  const std::vector<BatchDescriptor> expected = {
      rd(10, 2), {BatchOp::kWrite, 20, 1, 72}, {BatchOp::kWrite, 30, 2, 76}, rd(20, 1)};
  EXPECT_EQ(b.descriptors, expected);
  EXPECT_EQ(b.read_blocks, 3u);
  EXPECT_EQ(b.write_blocks, 3u);
  EXPECT_EQ(batch_results_size(b, kBlock), 16u + 3 * kBlock);
  const auto extents = to_extents(b);
  ASSERT_EQ(extents.size(), 4u);
  EXPECT_EQ(extents[2].op, model::Op::kWrite);
  EXPECT_EQ(extents[2].lbn, 30);
  EXPECT_EQ(extents[2].blocks, 2);
  EXPECT_EQ(extents[3].op, model::Op::kRead);
}

TEST(BatchList, LastBlockOfDeviceIsInRange) {
  EXPECT_TRUE(parse(list_of({rd(kCapacity - 2, 2)})).ok());
}

TEST(BatchList, AdjacentWritesAndOverlappingReadsAreAccepted) {
  EXPECT_TRUE(parse(list_of({wr(20, 2), wr(22, 2), rd(20, 4), rd(21, 1)})).ok());
}

TEST(BatchList, EmptyList) {
  expect_error(parse({}), Kind::kParamListLengthError, 6, -1);
}

TEST(BatchList, ShorterThanHeader) {
  Bytes list = list_of({rd(1, 1)});
  list.resize(7);
  expect_error(parse(list), Kind::kParamListLengthError, 6, -1);
}

TEST(BatchList, ZeroDescriptors) {
  expect_error(parse(Bytes(8, 0)), Kind::kInvalidFieldInParamList, 0, -1);
}

TEST(BatchList, TooManyDescriptors) {
  expect_error(parse(list_of({rd(1, 1), rd(2, 1), rd(3, 1), rd(4, 1), rd(5, 1)})),
               Kind::kInvalidFieldInParamList, 0, -1);
}

TEST(BatchList, MoreDescriptorsThanTheFieldPointerReaches) {
  std::vector<BatchDescriptor> ds(kMaxBatchDescriptors + 1, rd(1, 1));
  const Bytes list = encode_batch_list(ds, {});
  expect_error(parse_batch_list(list, kCapacity, kBlock, 0xFFFF, 0xFFFFFFFF),
               Kind::kInvalidFieldInParamList, 0, -1);
  ds.pop_back();
  EXPECT_TRUE(
      parse_batch_list(encode_batch_list(ds, {}), kCapacity, kBlock, 0xFFFF, 0xFFFFFFFF).ok());
}

TEST(BatchList, HeaderReservedByte) {
  Bytes list = list_of({rd(1, 1)});
  list[5] = 0x10;
  expect_error(parse(list), Kind::kInvalidFieldInParamList, 5, 4);
}

TEST(BatchList, ShorterThanDescriptors) {
  Bytes list = list_of({rd(1, 1), rd(2, 1)});
  list.resize(8 + 16 + 15);
  expect_error(parse(list), Kind::kParamListLengthError, 6, -1);
}

TEST(BatchList, UnknownOperation) {
  for (const std::uint8_t op : std::initializer_list<std::uint8_t>{0x00, 0x03, 0x81}) {
    Bytes list = list_of({rd(1, 1), rd(2, 1)});
    list[24] = op;
    expect_error(parse(list), Kind::kInvalidFieldInParamList, 24, -1);
  }
}

TEST(BatchList, DescriptorReservedByte) {
  Bytes list = list_of({rd(1, 1), rd(2, 1)});
  list[24 + 2] = 0x01;
  expect_error(parse(list), Kind::kInvalidFieldInParamList, 26, 0);
}

TEST(BatchList, ZeroBlocks) {
  expect_error(parse(list_of({rd(1, 1), rd(2, 0)})), Kind::kInvalidFieldInParamList, 36, -1);
}

TEST(BatchList, TotalBlocksAboveMaximum) {
  expect_error(parse(list_of({rd(1, 10), rd(100, 6), rd(200, 1)})), Kind::kInvalidFieldInParamList,
               8 + 32 + 12, -1);
}

TEST(BatchList, LbaBeyondCapacity) {
  const Bytes list = list_of({rd(1, 1), rd(kCapacity - 1, 2)});
  const auto r = parse(list);
  expect_error(r, Kind::kLbaOutOfRange, 28, -1);
  EXPECT_EQ(out_of_range_lba(list, r.error()), kCapacity - 1);
}

TEST(BatchList, LbaBeyondCapacityWithoutOverflow) {
  const Bytes list = list_of({wr(0xFFFFFFFFFFFFFFFF, 2)});
  const auto r = parse(list);
  expect_error(r, Kind::kLbaOutOfRange, 12, -1);
  EXPECT_EQ(out_of_range_lba(list, r.error()), 0xFFFFFFFFFFFFFFFFu);
}

TEST(BatchList, OutOfRangeLbaOnlyForLbaErrors) {
  const Bytes list = list_of({rd(1, 0)});
  EXPECT_FALSE(out_of_range_lba(list, parse(list).error()));
}

TEST(BatchList, WriteOverlapsLaterStart) {
  // The third descriptor starts inside the first.
  expect_error(parse(list_of({wr(20, 5), rd(22, 1), wr(24, 2)})), Kind::kInvalidFieldInParamList,
               8 + 32 + 4, -1);
}

TEST(BatchList, WriteOverlapsEarlierStart) {
  // The second descriptor starts before the first and runs into it.
  expect_error(parse(list_of({wr(30, 1), wr(25, 6)})), Kind::kInvalidFieldInParamList, 28, -1);
}

TEST(BatchList, WriteContainedInEarlierWrite) {
  expect_error(parse(list_of({wr(20, 10), wr(40, 1), wr(25, 1)})), Kind::kInvalidFieldInParamList,
               44, -1);
}

TEST(BatchList, WriteDataShort) {
  Bytes list = list_of({wr(1, 2)});
  list.pop_back();
  expect_error(parse(list), Kind::kParamListLengthError, 6, -1);
}

TEST(BatchList, TrailingBytes) {
  Bytes list = list_of({wr(1, 2), rd(5, 1)});
  list.push_back(0);
  expect_error(parse(list), Kind::kParamListLengthError, 6, -1);
}

// ---- Results ----

TEST(BatchResults, HeaderExactBytes) {
  EXPECT_EQ(encode_batch_results_header(5, 3, 2, 0x01020304),
            (Bytes{0, 0, 0, 5, 0, 3, 0, 2, 1, 2, 3, 4, 0, 0, 0, 0}));
}

TEST(BatchResults, HeaderRoundTrip) {
  Bytes data = encode_batch_results_header(255, 0xFFFF, 0x1234, 0xFFFFFFFF);
  data.push_back(0x77);  // read data follows the header
  EXPECT_EQ(decode_batch_results_header(data),
            (BatchResultsHeader{255, 0xFFFF, 0x1234, 0xFFFFFFFF}));
  data.resize(15);
  EXPECT_FALSE(decode_batch_results_header(data));
}

TEST(BatchResults, ReadBufferDescriptor) {
  EXPECT_EQ(encode_read_buffer_descriptor(0x1234), (Bytes{0x00, 0x00, 0x12, 0x34}));
  EXPECT_EQ(encode_read_buffer_descriptor(std::uint64_t{1} << 30), (Bytes{0x00, 0xFF, 0xFF, 0xFF}));
  const auto d = decode_read_buffer_descriptor(Bytes{0x09, 0x01, 0x02, 0x03});
  ASSERT_TRUE(d);
  EXPECT_EQ(d->offset_boundary, 9);
  EXPECT_EQ(d->capacity, 0x010203u);
  EXPECT_FALSE(decode_read_buffer_descriptor(Bytes{0, 0, 0}));
}

// ---- Host encoder -> target parser ----

TEST(BatchRoundTrip, HostEncodersThroughTargetParsers) {
  for (std::uint32_t n = 1; n <= kMaxDescriptors; ++n) {
    std::vector<BatchDescriptor> ds;
    Bytes data;
    for (std::uint32_t i = 0; i < n; ++i) {
      const bool write = i % 2 == 1;
      ds.push_back({write ? BatchOp::kWrite : BatchOp::kRead, 100 * i + n, 1 + i % 3, 0});
      if (write) {
        data.resize(data.size() + std::size_t{ds.back().blocks} * kBlock,
                    static_cast<std::uint8_t>(i));
      }
    }
    const Bytes list = encode_batch_list(ds, data);
    const auto cdb = parse_batch_cdb(
        make_batch_cdb(static_cast<std::uint8_t>(n), static_cast<std::uint32_t>(list.size())));
    ASSERT_TRUE(cdb.ok());
    EXPECT_EQ(cdb->length, list.size());
    const auto parsed = parse(list);
    ASSERT_TRUE(parsed.ok()) << parsed.error().what;
    const BatchList& b = *parsed;
    ASSERT_EQ(b.descriptors.size(), n);
    for (std::uint32_t i = 0; i < n; ++i) {
      const BatchDescriptor& d = b.descriptors[i];
      EXPECT_EQ(d.op, ds[i].op);
      EXPECT_EQ(d.lba, ds[i].lba);
      EXPECT_EQ(d.blocks, ds[i].blocks);
      if (d.op == BatchOp::kWrite) {
        EXPECT_EQ(list[d.data_offset], i);  // its own data
      }
    }
  }
}

// Garbage in: every parser returns a value or an error, never reads out of
// bounds (run under the sanitizers).
TEST(BatchRobustness, ArbitraryBytesNeverCrash) {
  std::uint64_t x = 0x9E3779B97F4A7C15;
  auto next = [&x] {
    x ^= x << 13;
    x ^= x >> 7;
    x ^= x << 17;
    return x;
  };
  for (int round = 0; round < 2000; ++round) {
    Bytes b(next() % 120);
    for (auto& v : b) v = static_cast<std::uint8_t>(next());
    if (b.size() >= 2 && round % 2 == 0) {  // a plausible descriptor count
      b[0] = 0;
      b[1] = static_cast<std::uint8_t>(1 + next() % 5);
    }
    (void)parse_batch_list(b, kCapacity, kBlock, kMaxDescriptors, kMaxBlocks);
    (void)parse_batch_cdb(b);
    (void)decode_batch_results_header(b);
    (void)decode_read_buffer_descriptor(b);
  }
}

}  // namespace
}  // namespace memstore::modepages
