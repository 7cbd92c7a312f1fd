// SPDX-License-Identifier: Apache-2.0
// ThreadedLunDriver: results are never delivered before the model says,
// concurrent callers overlap as far as the model allows, and non-media
// commands are not held up by media commands. Lower bounds only (a loaded
// machine can make anything late, nothing can make it early); the one
// ordering test uses a large margin.
#include "target/tcmu/threaded_driver.h"

#include <gtest/gtest.h>

#include <atomic>
#include <thread>
#include <vector>

#include "tests/scsi/cdb_builders.h"
#include "tests/scsi/lun_fixture.h"

namespace memstore::tcmu {
namespace {

using Clock = ThreadedLunDriver::Clock;

std::unique_ptr<ThreadedLunDriver> make_driver(scsi::TimingMode mode, double scale = 1.0) {
  scsi::LunConfig config;
  config.timing.mode = mode;
  config.timing.scale = scale;
  return std::make_unique<ThreadedLunDriver>(scsi::testing::make_lun(std::move(config)));
}

std::vector<std::uint8_t> read10(std::uint32_t lba, std::uint16_t blocks) {
  return scsi::testing::rw10(0x28, lba, blocks);
}

struct Timed {
  scsi::ScsiResult result;
  std::int64_t wall_ns = 0;
};

Timed timed_execute(ThreadedLunDriver& d, const std::vector<std::uint8_t>& cdb,
                    const std::vector<std::uint8_t>& out = {}) {
  const auto t0 = Clock::now();
  Timed t;
  t.result = d.execute({.cdb = cdb, .data_out = out});
  t.wall_ns = std::chrono::duration_cast<std::chrono::nanoseconds>(Clock::now() - t0).count();
  return t;
}

TEST(ThreadedLunDriver, RealtimeNeverEarly) {
  auto d = make_driver(scsi::TimingMode::kRealtime);
  for (std::uint32_t lba : {0u, 3'000'000u, 6'000'000u, 100u}) {
    const Timed t = timed_execute(*d, read10(lba, 64));
    ASSERT_EQ(t.result.status, scsi::Status::kGood);
    EXPECT_EQ(t.result.data_in.size(), 64u * 512u);
    EXPECT_GT(t.result.breakdown.service_ns(), 0);
    EXPECT_GE(t.wall_ns, t.result.breakdown.service_ns()) << "LBA " << lba;
  }
  EXPECT_EQ(d->lateness().count, 4u);
  EXPECT_GE(d->lateness().max_ns, 0);
}

TEST(ThreadedLunDriver, ScaledStretchesTheModeledDelay) {
  auto d = make_driver(scsi::TimingMode::kScaled, 5.0);
  const Timed t = timed_execute(*d, read10(5'000'000, 32));
  ASSERT_EQ(t.result.status, scsi::Status::kGood);
  EXPECT_GE(t.wall_ns, 5 * t.result.breakdown.service_ns());
}

TEST(ThreadedLunDriver, OffAccountsWithoutWaiting) {
  auto d = make_driver(scsi::TimingMode::kOff);
  const Timed t = timed_execute(*d, read10(6'000'000, 64));
  ASSERT_EQ(t.result.status, scsi::Status::kGood);
  EXPECT_GT(t.result.breakdown.service_ns(), 0);  // the model still ran
  EXPECT_EQ(d->lateness().count, 0u);
}

TEST(ThreadedLunDriver, WritesAreVisibleToLaterReads) {
  auto d = make_driver(scsi::TimingMode::kOff);
  std::vector<std::uint8_t> data(std::size_t{2} * 512);
  for (std::size_t i = 0; i < data.size(); ++i) data[i] = static_cast<std::uint8_t>(i * 7);
  const std::vector<std::uint8_t> write10 = {0x2A, 0, 0, 0, 0x10, 0, 0, 0, 2, 0};
  ASSERT_EQ(d->execute({.cdb = write10, .data_out = data}).status, scsi::Status::kGood);
  EXPECT_EQ(d->execute({.cdb = read10(0x1000, 2), .data_out = {}}).data_in, data);
}

// Concurrent media commands: the model serves them one after another (one
// sled, FCFS), so together they take at least the sum of their services, and
// each one at least its own.
TEST(ThreadedLunDriver, ConcurrentCallersAreTimedByTheModel) {
  auto d = make_driver(scsi::TimingMode::kRealtime);
  constexpr int kThreads = 8;
  std::vector<Timed> results(kThreads);
  const auto t0 = Clock::now();
  std::vector<std::thread> threads;
  threads.reserve(kThreads);
  for (int i = 0; i < kThreads; ++i) {
    threads.emplace_back([&, i] {
      results[i] = timed_execute(*d, read10(static_cast<std::uint32_t>(i) * 800'000u, 16));
    });
  }
  for (auto& t : threads) t.join();
  const auto total =
      std::chrono::duration_cast<std::chrono::nanoseconds>(Clock::now() - t0).count();
  std::int64_t services = 0;
  for (const Timed& r : results) {
    ASSERT_EQ(r.result.status, scsi::Status::kGood);
    EXPECT_GE(r.wall_ns, r.result.breakdown.service_ns());
    services += r.result.breakdown.service_ns();
  }
  EXPECT_GE(total, services);
  EXPECT_EQ(d->lateness().count, static_cast<std::uint64_t>(kThreads));
}

// A command that does not touch the media completes at its arrival, even
// while a long media command is in service: the driver serialises nothing the
// model does not. The media command takes ~0.25 s of wall time (scaled 10x);
// the TEST UNIT READYs must all be back before it.
TEST(ThreadedLunDriver, NonMediaCommandsDoNotWaitForMedia) {
  auto d = make_driver(scsi::TimingMode::kScaled, 10.0);
  std::atomic<bool> media_done{false};
  Timed media;
  std::thread t([&] {
    media = timed_execute(*d, read10(0, 2048));
    media_done = true;
  });
  std::this_thread::sleep_for(std::chrono::milliseconds(20));
  const std::vector<std::uint8_t> tur = {0, 0, 0, 0, 0, 0};
  for (int i = 0; i < 10; ++i) {
    EXPECT_EQ(d->execute({.cdb = tur, .data_out = {}}).status, scsi::Status::kGood);
    EXPECT_FALSE(media_done.load()) << "TEST UNIT READY " << i << " waited for the media";
  }
  t.join();
  ASSERT_EQ(media.result.status, scsi::Status::kGood);
  EXPECT_GE(media.wall_ns, 10 * media.result.breakdown.service_ns());
  EXPECT_GT(media.wall_ns, 100'000'000);  // the margin the test relies on
}

}  // namespace
}  // namespace memstore::tcmu
