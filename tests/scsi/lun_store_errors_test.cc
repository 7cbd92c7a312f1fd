// SPDX-License-Identifier: Apache-2.0
// A failing backing store: each command's sense follows the failure's
// cause (sense.h, store_sense), synchronously and through an asynchronous
// store's IoWait (Lun::complete_io).
#include <gmock/gmock.h>

#include <cerrno>
#include <memory>

#include "target/scsi/lun.h"
#include "target/scsi/memory_store.h"
#include "tests/scsi/lun_fixture.h"

namespace memstore::scsi {
namespace {

using ::testing::ElementsAre;

// A G2-sized store whose every operation fails with one errno.
class FailingStore final : public BackingStore {
 public:
  explicit FailingStore(int err) : err_(err) {}
  std::uint64_t blocks() const override { return 6'750'000; }
  std::uint32_t block_size() const override { return 512; }
  StoreStatus read(std::uint64_t, std::uint64_t, std::span<std::uint8_t>) override {
    return fail();
  }
  StoreStatus write(std::uint64_t, std::uint64_t, std::span<const std::uint8_t>) override {
    return fail();
  }
  StoreStatus unmap(std::uint64_t, std::uint64_t) override { return fail(); }
  StoreStatus flush() override { return fail(); }
  bool volatile_cache() const override { return true; }
  std::string describe() const override { return "failing store"; }

 private:
  StoreStatus fail() const { return Error{err_, "failing store: injected"}; }
  int err_;
};

std::unique_ptr<Lun> failing_lun(int err) {
  auto created = Lun::create(LunConfig{}, std::make_unique<FailingStore>(err));
  return std::move(created.value());
}

class StoreErrors : public testing::LunTest {
 protected:
  void use(int err) { lun = failing_lun(err); }
  static std::uint64_t information(const ScsiResult& r) {
    std::uint64_t v = 0;
    for (int i = 3; i < 7; ++i) v = v << 8 | r.sense[i];
    return v;
  }
};

const std::vector<std::uint8_t> kWrite10 = {0x2A, 0, 0, 0, 0x10, 0, 0, 0, 1, 0};
const std::vector<std::uint8_t> kRead10 = {0x28, 0, 0, 0, 0x10, 0, 0, 0, 1, 0};
const std::vector<std::uint8_t> kSync10 = {0x35, 0, 0, 0, 0, 0, 0, 0, 0, 0};

TEST_F(StoreErrors, NoSpaceIsSpaceAllocationFailed) {
  use(ENOSPC);
  const ScsiResult w = run(kWrite10, std::vector<std::uint8_t>(512, 1));
  EXPECT_EQ(w.status, Status::kCheckCondition);
  EXPECT_THAT(kcq(w), ElementsAre(0x7, 0x27, 0x07));
  EXPECT_THAT(kcq(run(kSync10)), ElementsAre(0x7, 0x27, 0x07));
}

TEST_F(StoreErrors, AnIoErrorIsAMediumErrorAtTheLba) {
  use(EIO);
  const ScsiResult w = run(kWrite10, std::vector<std::uint8_t>(512, 1));
  EXPECT_THAT(kcq(w), ElementsAre(0x3, 0x0C, 0x00));
  EXPECT_EQ(information(w), 0x1000U);
  const ScsiResult r = run(kRead10);
  EXPECT_THAT(kcq(r), ElementsAre(0x3, 0x11, 0x00));
  EXPECT_EQ(information(r), 0x1000U);
  EXPECT_TRUE(r.data_in.empty());
}

TEST_F(StoreErrors, EveryFailureIsLoggedWithItsCause) {
  use(ENOSPC);
  std::vector<std::string> lines;
  lun->set_log(
      [&](LogLevel level, std::string_view line) {
        EXPECT_EQ(level, LogLevel::kError);
        lines.emplace_back(line);
      },
      "LUN 4 of iqn.x");
  run(kWrite10, std::vector<std::uint8_t>(512, 1));
  ASSERT_EQ(lines.size(), 1U);
  EXPECT_EQ(lines[0], "LUN 4 of iqn.x: write at LBA 4096 failed: failing store: injected");
}

TEST_F(StoreErrors, AnyOtherFailureIsAHardwareError) {
  use(EBADF);
  EXPECT_THAT(kcq(run(kRead10)), ElementsAre(0x4, 0x44, 0x00));
  // UNMAP of one block.
  const std::vector<std::uint8_t> list = {0, 22, 0, 16, 0, 0, 0, 0, 0, 0, 0, 0,
                                          0, 0,  0, 9,  0, 0, 0, 1, 0, 0, 0, 0};
  EXPECT_THAT(kcq(run({0x42, 0, 0, 0, 0, 0, 0, 0, 24, 0}, list)), ElementsAre(0x4, 0x44, 0x00));
}

// An asynchronous store's failure reaches the result through its IoWait:
// complete_io() turns a GOOD result into the failure's sense, in the
// format D_SENSE asks for, and drops the data.
TEST_F(StoreErrors, CompleteIoGivesAnAsynchronousFailureItsSense) {
  ScsiResult r;
  r.status = Status::kGood;
  r.io = std::make_shared<IoWait>(77, false);
  r.io->hold(Bytes(512, 0xEE));
  r.io->started();
  r.io->finished(Error{EIO, "injected"});
  lun->complete_io(r);
  EXPECT_EQ(r.status, Status::kCheckCondition);
  EXPECT_THAT(kcq(r), ElementsAre(0x3, 0x11, 0x00));
  EXPECT_EQ(information(r), 77U);
  EXPECT_TRUE(r.data_in.empty());
  EXPECT_FALSE(r.io);

  ScsiResult ok;
  ok.status = Status::kGood;
  ok.io = std::make_shared<IoWait>(0, false);
  ok.io->hold(Bytes(512, 0xEE));
  ok.io->started();
  ok.io->finished({});
  lun->complete_io(ok);
  EXPECT_EQ(ok.status, Status::kGood);
  EXPECT_EQ(ok.data_in, Bytes(512, 0xEE));  // a READ's data
}

}  // namespace
}  // namespace memstore::scsi
