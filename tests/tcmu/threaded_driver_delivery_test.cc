// SPDX-License-Identifier: Apache-2.0
// What the TCMU handler gains from running memstored's LUN driver on its
// LUN thread: the log page 31h feed, transport compensation, the spin
// before an instant, and storage on io_uring (a file image) driven from
// that thread while several callers wait. Lower bounds on wall time only.
#include <gtest/gtest.h>

#include <chrono>
#include <thread>
#include <vector>

#include "model/geometry.h"
#include "modepages/log_pages.h"
#include "target/scsi/file_store.h"
#include "target/tcmu/threaded_driver.h"
#include "tests/scsi/cdb_builders.h"
#include "tests/scsi/lun_fixture.h"
#include "tests/scsi/temp_dir.h"

namespace memstore::tcmu {
namespace {

using Clock = ThreadedLunDriver::Clock;
using scsi::testing::rw10;

std::vector<std::uint8_t> read10(std::uint32_t lba, std::uint16_t blocks) {
  return rw10(0x28, lba, blocks);
}

std::vector<std::uint8_t> write10(std::uint32_t lba, std::uint16_t blocks) {
  return rw10(0x2A, lba, blocks);
}
const std::vector<std::uint8_t> kTestUnitReady(6, 0);

std::unique_ptr<ThreadedLunDriver> memory_driver(scsi::TimingMode mode) {
  scsi::LunConfig config;
  config.timing.mode = mode;
  return std::make_unique<ThreadedLunDriver>(scsi::testing::make_lun(std::move(config)));
}

std::int64_t ns(Clock::duration d) {
  return std::chrono::duration_cast<std::chrono::nanoseconds>(d).count();
}

TEST(ThreadedLunDriverDelivery, FeedsLogPage31h) {
  auto d = memory_driver(scsi::TimingMode::kRealtime);
  for (std::uint32_t lba : {100u, 4'000'000u, 2'000'000u}) {
    ASSERT_EQ(d->execute({.cdb = read10(lba, 8), .data_out = {}}).status, scsi::Status::kGood);
  }
  const std::vector<std::uint8_t> log_sense = {0x4D, 0, 0x31, 0, 0, 0, 0, 0x10, 0, 0};
  const scsi::ScsiResult r = d->execute({.cdb = log_sense, .data_out = {}});
  ASSERT_EQ(r.status, scsi::Status::kGood);
  const auto page = modepages::decode_positioning_log(r.data_in);
  ASSERT_TRUE(page);
  const auto& late = (*page)[modepages::PositioningMetric::kDeliveryLateness];
  EXPECT_EQ(late.count, 3U);  // the LOG SENSE's own delivery comes after its data
  const Lateness figures = d->lateness();
  EXPECT_EQ(figures.count, 4U);
  EXPECT_LE(static_cast<std::int64_t>(late.max), figures.max_ns);
  // Every caller's wake-up after its result was handed back.
  EXPECT_EQ(d->handback().count, 4U);
  EXPECT_GE(d->handback().max_ns, 0);
}

// A command's arrival on the model's clock is its hand-over to the LUN
// thread less the compensation (a TEST UNIT READY completes at its arrival).
TEST(ThreadedLunDriverDelivery, CompensationDatesArrivalsEarlier) {
  const auto before_start = Clock::now();
  auto d = memory_driver(scsi::TimingMode::kRealtime);
  const auto after_start = Clock::now();
  constexpr auto kCompensation = std::chrono::milliseconds(2);
  d->set_compensation(kCompensation);
  std::this_thread::sleep_for(std::chrono::milliseconds(10));
  const auto before = Clock::now();
  const scsi::ScsiResult r = d->execute({.cdb = kTestUnitReady, .data_out = {}});
  const auto after = Clock::now();
  EXPECT_GE(r.complete_ns, ns(before - after_start - kCompensation));
  EXPECT_LE(r.complete_ns, ns(after - before_start - kCompensation));
}

// With a spin margin the LUN thread polls before each instant; results are
// still never early, with callers on several threads.
TEST(ThreadedLunDriverDelivery, SpinKeepsDeliveriesOnTime) {
  auto d = memory_driver(scsi::TimingMode::kRealtime);
  d->set_spin(std::chrono::microseconds(300));
  constexpr int kThreads = 4;
  std::vector<std::thread> threads;
  std::vector<int> early(kThreads, 0), good(kThreads, 0);
  for (int t = 0; t < kThreads; ++t) {
    threads.emplace_back([&, t] {
      for (int i = 0; i < 5; ++i) {
        const auto cdb = read10(static_cast<std::uint32_t>((t * 5 + i) * 300'007 % 6'000'000), 8);
        const auto t0 = Clock::now();
        const scsi::ScsiResult r = d->execute({.cdb = cdb, .data_out = {}});
        good[t] += r.status == scsi::Status::kGood;
        early[t] += ns(Clock::now() - t0) < r.breakdown.service_ns();
      }
    });
  }
  for (auto& th : threads) th.join();
  for (int t = 0; t < kThreads; ++t) {
    EXPECT_EQ(good[t], 5);
    EXPECT_EQ(early[t], 0);
  }
  EXPECT_EQ(d->lateness().count, static_cast<std::uint64_t>(kThreads * 5));
}

// A file image: the store is asynchronous (io_uring), reaped on the LUN
// thread; each caller's read sees its own write, which came before it.
TEST(ThreadedLunDriverDelivery, FileImageWritesThenReads) {
  const scsi::testing::TempDir dir;
  scsi::LunConfig config;
  config.timing = {scsi::TimingMode::kScaled, 0.01};
  const model::Geometry g(config.device);
  auto store = scsi::FileStore::open(dir.file("g2.img"), static_cast<std::uint64_t>(g.blocks()),
                                     512, scsi::DurabilityMode::kWriteBack);
  auto lun = scsi::Lun::create(std::move(config), std::move(store.value()));
  ThreadedLunDriver d(std::move(lun).value());
  constexpr int kThreads = 6;
  std::vector<std::thread> threads;
  std::vector<int> matches(kThreads, 0);
  for (int t = 0; t < kThreads; ++t) {
    threads.emplace_back([&, t] {
      for (int i = 0; i < 4; ++i) {
        const auto lba = static_cast<std::uint32_t>((t * 4 + i) * 250'013 % 6'000'000);
        const std::vector<std::uint8_t> data(16 * 512, static_cast<std::uint8_t>(t * 16 + i + 1));
        if (d.execute({.cdb = write10(lba, 16), .data_out = data}).status != scsi::Status::kGood)
          continue;
        matches[t] += d.execute({.cdb = read10(lba, 16), .data_out = {}}).data_in == data;
      }
    });
  }
  for (auto& th : threads) th.join();
  for (int t = 0; t < kThreads; ++t) EXPECT_EQ(matches[t], 4) << "caller " << t;
  EXPECT_TRUE(d.switch_off().ok());
}

}  // namespace
}  // namespace memstore::tcmu
