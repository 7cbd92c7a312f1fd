// SPDX-License-Identifier: Apache-2.0
// MEMS BATCH / MEMS BATCH RESULTS through the LUN (docs/vendor-interface.md, "MEMS
// commands"): parallel-accessible blocks in one media step, and every error.
#include <gmock/gmock.h>

#include "model/geometry.h"
#include "modepages/batch_codec.h"
#include "tests/scsi/lun_fixture.h"

namespace memstore::scsi {
namespace {

using modepages::BatchDescriptor;
using modepages::BatchOp;
using ::testing::ElementsAre;
using testing::LunTest;

constexpr model::Ns kG2RowNs = 128'571;

// p blocks at the same (x, y) in p different squares: E(l)'s first p members.
std::vector<std::uint64_t> parallel_blocks(const model::Geometry& g, model::Lbn l) {
  const auto e = g.equivalence_class(l);
  std::vector<std::uint64_t> out;
  for (int i = 0; i < g.p(); ++i)
    out.push_back(static_cast<std::uint64_t>(e[static_cast<std::size_t>(i) * 7 % e.size()]));
  std::sort(out.begin(), out.end());
  out.erase(std::unique(out.begin(), out.end()), out.end());
  return out;
}

std::vector<BatchDescriptor> reads_of(const std::vector<std::uint64_t>& lbas) {
  std::vector<BatchDescriptor> d;
  for (std::uint64_t l : lbas) d.push_back({BatchOp::kRead, l, 1, 0});
  return d;
}

class BatchTest : public LunTest {
 protected:
  ScsiResult batch(const std::vector<BatchDescriptor>& d, std::uint8_t id, bool strict = false,
                   std::vector<std::uint8_t> data = {}) {
    const auto list = modepages::encode_batch_list(d, data);
    return run(modepages::make_batch_cdb(id, static_cast<std::uint32_t>(list.size()), strict),
               list);
  }
  ScsiResult results(std::uint8_t id, std::uint32_t offset = 0, std::uint32_t alloc = 1 << 20) {
    return run(modepages::make_results_cdb(id, offset, alloc));
  }
};

TEST_F(BatchTest, ParallelBlocksTakeOneMediaStepAndOneRow) {
  const auto lbas = parallel_blocks(lun->geometry(), 3'000'123);
  ASSERT_EQ(lbas.size(), 10u);
  const ScsiResult r = batch(reads_of(lbas), 5, /*strict=*/true);
  ASSERT_EQ(r.status, Status::kGood) << ::testing::PrintToString(r.sense);
  EXPECT_EQ(r.breakdown.media_steps, 1);
  EXPECT_EQ(r.breakdown.transfer_ns, kG2RowNs);
  const ScsiResult res = results(5);
  ASSERT_EQ(res.status, Status::kGood);
  ASSERT_EQ(res.data_in.size(), 16u + 10 * 512);
  const auto header = modepages::decode_batch_results_header(res.data_in);
  ASSERT_TRUE(header);
  EXPECT_EQ(header->batch_id, 5u);
  EXPECT_EQ(header->descriptors, 10);
  EXPECT_EQ(header->media_steps, 1);
  EXPECT_EQ(header->service_us, static_cast<std::uint32_t>(r.breakdown.service_ns() / 1000));
}

TEST_F(BatchTest, SameBlocksAsSeparateReadsTakeLonger) {
  const auto lbas = parallel_blocks(lun->geometry(), 3'000'123);
  auto other = testing::make_lun();
  // Both LUNs start from the same state: one read far away, then the blocks.
  run({0x28, 0, 0, 0, 0, 0, 0, 0, 1});
  const ScsiResult b = batch(reads_of(lbas), 1);
  ASSERT_EQ(b.status, Status::kGood);
  model::Ns separate = 0;
  ScsiCommand c;
  std::vector<std::uint8_t> cdb(16, 0);
  cdb[0] = 0x28;
  cdb[8] = 1;
  c.cdb = cdb;
  c.arrival_ns = 1'000'000;
  other->execute(c);
  for (std::uint64_t l : lbas) {
    modepages::put_be(cdb, 2, 4, l);
    c.arrival_ns += 10'000'000;
    c.tag++;
    separate += other->execute(c).breakdown.service_ns();
  }
  EXPECT_GT(separate, b.breakdown.service_ns());
}

TEST_F(BatchTest, StrictRefusesABatchThatNeedsTwoSteps) {
  const ScsiResult r = batch(reads_of({100, 100'000}), 2, /*strict=*/true);
  ASSERT_EQ(r.status, Status::kCheckCondition);
  EXPECT_THAT(kcq(r), ElementsAre(5, 0x26, 0x80));
  // Without STRICT the same batch is served in two steps.
  const ScsiResult ok = batch(reads_of({100, 100'000}), 2);
  ASSERT_EQ(ok.status, Status::kGood);
  EXPECT_EQ(ok.breakdown.media_steps, 2);
}

TEST_F(BatchTest, WriteThenReadRoundTrips) {
  const auto lbas = parallel_blocks(lun->geometry(), 77'777);
  std::vector<BatchDescriptor> writes;
  std::vector<std::uint8_t> data;
  for (std::size_t i = 0; i < lbas.size(); ++i) {
    writes.push_back({BatchOp::kWrite, lbas[i], 1, 0});
    for (int b = 0; b < 512; ++b) data.push_back(static_cast<std::uint8_t>(i * 31 + b));
  }
  ASSERT_EQ(batch(writes, 3, true, data).status, Status::kGood);
  ASSERT_EQ(batch(reads_of(lbas), 4, true).status, Status::kGood);
  const ScsiResult res = results(4);
  ASSERT_EQ(res.status, Status::kGood);
  EXPECT_EQ(std::vector<std::uint8_t>(res.data_in.begin() + 16, res.data_in.end()), data);
  // Ordinary READs see the batch's writes too.
  EXPECT_EQ(run({0x28, 0, static_cast<std::uint8_t>(lbas[0] >> 24),
                 static_cast<std::uint8_t>(lbas[0] >> 16), static_cast<std::uint8_t>(lbas[0] >> 8),
                 static_cast<std::uint8_t>(lbas[0]), 0, 0, 1})
                .data_in,
            std::vector<std::uint8_t>(data.begin(), data.begin() + 512));
}

TEST_F(BatchTest, ResultsAreReadInPiecesAndReleasedAtTheEnd) {
  ASSERT_EQ(batch(reads_of({10, 20}), 9).status, Status::kGood);
  const ScsiResult size = run(modepages::make_results_descriptor_cdb(9));
  ASSERT_EQ(size.status, Status::kGood);
  EXPECT_EQ(modepages::get_be(size.data_in, 1, 3), 16u + 1024);
  const ScsiResult first = results(9, 0, 100);
  EXPECT_EQ(first.data_in.size(), 100u);
  const ScsiResult rest = results(9, 100, 2000);
  EXPECT_EQ(rest.data_in.size(), 16u + 1024 - 100);
  // Read to the end: gone.
  EXPECT_THAT(kcq(results(9)), ElementsAre(5, 0x24, 0));
}

TEST_F(BatchTest, ResultsBelongToTheirNexus) {
  ASSERT_EQ(batch(reads_of({10}), 6).status, Status::kGood);
  const ScsiResult elsewhere = run(modepages::make_results_cdb(6, 0, 100), {}, /*nexus=*/2);
  EXPECT_THAT(kcq(elsewhere), ElementsAre(5, 0x24, 0));
}

TEST_F(BatchTest, OutOfRangeDescriptorIsRefused) {
  const ScsiResult r = batch(reads_of({6'750'000}), 1);
  EXPECT_THAT(kcq(r), ElementsAre(5, 0x21, 0));
}

TEST_F(BatchTest, MalformedListIsRefusedWithAFieldPointer) {
  auto list = modepages::encode_batch_list(reads_of({10}), {});
  list[8] = 0x07;  // descriptor 0: no such operation
  const ScsiResult r =
      run(modepages::make_batch_cdb(1, static_cast<std::uint32_t>(list.size())), list);
  EXPECT_THAT(kcq(r), ElementsAre(5, 0x26, 0));
  EXPECT_THAT(field(r), ElementsAre(0, -1, 8));
}

}  // namespace
}  // namespace memstore::scsi
