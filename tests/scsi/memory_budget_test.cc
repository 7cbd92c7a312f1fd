// SPDX-License-Identifier: Apache-2.0
// The daemon-wide memory budgets (memory_budget.h): data buffers of
// commands not yet delivered, and MEMS BATCH results, shared by LUNs.
#include <gmock/gmock.h>

#include "modepages/batch_codec.h"
#include "tests/scsi/cdb_builders.h"
#include "tests/scsi/lun_fixture.h"

namespace memstore::scsi {
namespace {

using ::testing::ElementsAre;
using testing::make_lun;

TEST(MemoryBudget, TakesAllOrNothingAndGivesBack) {
  MemoryBudget b(100);
  EXPECT_TRUE(b.try_take(60));
  EXPECT_FALSE(b.try_take(41));
  EXPECT_TRUE(b.try_take(40));
  EXPECT_EQ(b.used(), 100u);
  b.give(60);
  EXPECT_EQ(b.used(), 40u);
  b.take(100);                  // what must be kept regardless may go past the limit...
  EXPECT_FALSE(b.try_take(1));  // ...and then nothing more fits
  b.give(100);
  {
    BudgetHold hold;
    auto shared = std::make_shared<MemoryBudget>(10);
    ASSERT_TRUE(shared->try_take(7));
    hold.add(shared, 7);
    BudgetHold moved = std::move(hold);
    EXPECT_EQ(shared->used(), 7u);
    moved.give(2);
    EXPECT_EQ(shared->used(), 5u);
    moved.release();
    EXPECT_EQ(shared->used(), 0u);
  }
}

// Results stay with the test until it drops them, as a transport holds
// them until their modeled completion: their buffers stay counted until then.
class BufferBudgetTest : public ::testing::Test {
 protected:
  std::shared_ptr<MemoryBudget> budget = std::make_shared<MemoryBudget>(64 * 1024);
  std::unique_ptr<Lun> a = lun_with(budget);
  std::unique_ptr<Lun> b = lun_with(budget);
  std::vector<ScsiResult> held;
  std::uint64_t tag = 0;

  static std::unique_ptr<Lun> lun_with(std::shared_ptr<MemoryBudget> budget) {
    LunConfig c;
    c.buffer_budget = std::move(budget);
    return make_lun(std::move(c));
  }
  // A READ(10) of `blocks`, its result held.
  Status read(Lun& lun, std::uint16_t blocks) {
    std::vector<std::uint8_t> cdb = testing::rw10(0x28, 1000, blocks);
    cdb.resize(16, 0);
    ScsiCommand c;
    c.nexus = 1;
    c.tag = ++tag;
    c.cdb = cdb;
    c.arrival_ns = static_cast<model::Ns>(tag) * 1'000'000'000;
    held.push_back(lun.execute(c));
    return held.back().status;
  }
};

TEST_F(BufferBudgetTest, ACommandBeyondTheSharedBudgetGetsTaskSetFull) {
  EXPECT_EQ(read(*a, 64), Status::kGood);  // 32 KiB each
  EXPECT_EQ(read(*b, 64), Status::kGood);
  EXPECT_EQ(budget->used(), 64u * 1024);
  EXPECT_EQ(read(*a, 1), Status::kTaskSetFull);
  EXPECT_TRUE(held.back().sense.empty());
  EXPECT_EQ(read(*b, 1), Status::kTaskSetFull);
  // Delivered and dropped, the buffers are the budget's again.
  held.clear();
  EXPECT_EQ(budget->used(), 0u);
  EXPECT_EQ(read(*b, 64), Status::kGood);
  EXPECT_EQ(read(*a, 64), Status::kGood);
}

TEST_F(BufferBudgetTest, KeptBuffersFillAtMostHalfTheBudgetAndServeTheirLun) {
  EXPECT_EQ(read(*a, 64), Status::kGood);
  EXPECT_EQ(read(*a, 64), Status::kGood);
  Bytes first = std::move(held[0].data_in);
  Bytes second = std::move(held[1].data_in);
  held.clear();
  a->recycle(std::move(first));   // kept: 32 KiB, half the budget
  a->recycle(std::move(second));  // let go: it would pass the half
  EXPECT_EQ(budget->used(), 32u * 1024);
  EXPECT_EQ(read(*b, 64), Status::kGood);  // the other half
  EXPECT_EQ(read(*b, 1), Status::kTaskSetFull);
  EXPECT_EQ(read(*a, 64), Status::kGood);  // A's kept buffer serves A
  EXPECT_EQ(budget->used(), 64u * 1024);
}

class BatchBudgetTest : public testing::LunTest {
 protected:
  // Room for two one-block results (16 + 512 bytes each), not three.
  std::shared_ptr<MemoryBudget> budget = std::make_shared<MemoryBudget>(1100);
  void SetUp() override {
    LunConfig c;
    c.batch_budget = budget;
    lun = make_lun(std::move(c));
  }
  ScsiResult batch(std::uint64_t lba, std::uint8_t id, std::uint64_t nexus) {
    const std::vector<modepages::BatchDescriptor> read{{modepages::BatchOp::kRead, lba, 1, 0}};
    const auto list = modepages::encode_batch_list(read, {});
    return run(modepages::make_batch_cdb(id, static_cast<std::uint32_t>(list.size()), false), list,
               nexus);
  }
  std::vector<int> results(std::uint8_t id, std::uint64_t nexus) {
    const ScsiResult r = run(modepages::make_results_descriptor_cdb(id), {}, nexus);
    return r.status == Status::kGood ? std::vector<int>{} : kcq(r);
  }
};

TEST_F(BatchBudgetTest, TheOldestResultOfAnyNexusGoesFirst) {
  ASSERT_EQ(batch(10, 1, /*nexus=*/1).status, Status::kGood);
  ASSERT_EQ(batch(20, 2, /*nexus=*/2).status, Status::kGood);
  EXPECT_EQ(budget->used(), 2u * 528);
  ASSERT_EQ(batch(30, 3, /*nexus=*/1).status, Status::kGood);
  EXPECT_EQ(budget->used(), 2u * 528);
  EXPECT_THAT(results(1, 1), ElementsAre(5, 0x24, 0));  // released: unknown batch id
  EXPECT_THAT(results(2, 2), ElementsAre());
  EXPECT_THAT(results(3, 1), ElementsAre());
}

}  // namespace
}  // namespace memstore::scsi
