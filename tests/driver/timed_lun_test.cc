// SPDX-License-Identifier: Apache-2.0
// TimedLun in realtime timing: every result is handed back, none before
// the instant the model gave it, whether the last stretch before that
// instant is slept (spin 0) or waited on the CPU (spin > 0), and in the
// order of those instants.
#include "target/driver/timed_lun.h"

#include <gtest/gtest.h>

#include <boost/asio/io_context.hpp>
#include <chrono>
#include <thread>
#include <vector>

#include "target/scsi/file_store.h"
#include "tests/scsi/cdb_builders.h"
#include "tests/scsi/lun_fixture.h"
#include "tests/scsi/temp_dir.h"

namespace memstore::driver {
namespace {

using delivery::Delivery;
using scsi::testing::read16;
using scsi::testing::write16;

// A command of nexus 1. The spans are the caller's: submit() consumes them.
scsi::ScsiCommand command(std::uint64_t tag, std::span<const std::uint8_t> cdb,
                          std::span<const std::uint8_t> data_out = {}) {
  scsi::ScsiCommand c;
  c.nexus = 1;
  c.tag = tag;
  c.cdb = cdb;
  c.data_out = data_out;
  return c;
}

std::unique_ptr<scsi::Lun> memory_lun(scsi::Timing timing) {
  scsi::LunConfig config;
  config.timing = timing;
  return scsi::testing::make_lun(std::move(config));
}

class TimedLunRealtime : public ::testing::TestWithParam<int> {};

TEST_P(TimedLunRealtime, DeliversEveryResultNeverBeforeItsModeledInstant) {
  boost::asio::io_context io;
  TimedLun driver(io, memory_lun({scsi::TimingMode::kRealtime, 1.0}));
  driver.set_spin(std::chrono::microseconds(GetParam()));
  std::vector<Delivery> log;
  driver.on_delivery([&](const Delivery& d) { log.push_back(d); });
  int good = 0;
  constexpr int kCommands = 24;
  // Eight in flight at a time, at LBAs far apart: the model queues them.
  std::uint64_t next = 0;
  std::function<void()> submit_one = [&] {
    const std::uint64_t tag = next++;
    driver.submit(command(tag, read16(tag * 977'317 % 6'000'000, 8)), [&](scsi::ScsiResult r) {
      if (r.status == scsi::Status::kGood) ++good;
      if (next < kCommands) submit_one();
    });
  };
  for (int i = 0; i < 8; ++i) submit_one();
  io.run();
  EXPECT_EQ(good, kCommands);
  ASSERT_EQ(log.size(), static_cast<std::size_t>(kCommands));
  for (std::size_t i = 0; i < log.size(); ++i) {
    EXPECT_GE(log[i].delivered_ns, log[i].due_ns) << "delivery " << i << " was early";
    EXPECT_GT(log[i].complete_ns, log[i].arrival_ns);
    if (i > 0) {
      EXPECT_GE(log[i].due_ns, log[i - 1].due_ns) << "out of order at " << i;
    }
  }
  EXPECT_EQ(driver.lateness().count, static_cast<std::uint64_t>(kCommands));
}

// With a transport compensation, a command's arrival on the model's clock is
// its submission less the compensation: the model starts it that much
// earlier, and the delivery is still not before the modeled completion.
TEST(TimedLunCompensation, DatesArrivalsEarlierByTheCompensation) {
  using Clock = std::chrono::steady_clock;
  boost::asio::io_context io;
  const auto before_epoch = Clock::now();
  TimedLun driver(io, memory_lun({scsi::TimingMode::kRealtime, 1.0}));
  const auto after_epoch = Clock::now();
  constexpr auto kCompensation = std::chrono::milliseconds(2);
  driver.set_compensation(kCompensation);
  std::vector<Delivery> log;
  driver.on_delivery([&](const Delivery& d) { log.push_back(d); });
  std::this_thread::sleep_for(std::chrono::milliseconds(10));  // the model's clock is past 2 ms
  const auto before_submit = Clock::now();
  driver.submit(command(7, read16(3'000'000, 8)), [](scsi::ScsiResult) {});
  const auto after_submit = Clock::now();
  io.run();
  ASSERT_EQ(log.size(), 1u);
  auto ns = [](auto d) { return std::chrono::duration_cast<std::chrono::nanoseconds>(d).count(); };
  EXPECT_GE(log[0].arrival_ns, ns(before_submit - after_epoch - kCompensation));
  EXPECT_LE(log[0].arrival_ns, ns(after_submit - before_epoch - kCompensation));
  EXPECT_GE(log[0].delivered_ns, log[0].due_ns);
}

// A G2 LUN on a sparse image file: its store is asynchronous (io_uring).
std::unique_ptr<scsi::Lun> file_lun(const scsi::testing::TempDir& dir, scsi::Timing timing) {
  scsi::LunConfig config;
  config.timing = timing;
  const model::Geometry g(config.device);
  auto store = scsi::FileStore::open(dir.file("g2.img"), static_cast<std::uint64_t>(g.blocks()),
                                     512, scsi::DurabilityMode::kWriteBack);
  auto created = scsi::Lun::create(std::move(config), std::move(store.value()));
  return std::move(created).value();
}

// Commands in flight together on a file-backed LUN: every result waits for
// its storage, a read sees the writes started before it, and the
// io_context runs dry once the last one is delivered (no wait is left
// armed on an idle store).
class TimedLunFileStore : public ::testing::TestWithParam<scsi::TimingMode> {};

TEST_P(TimedLunFileStore, ReadsSeeTheWritesBeforeThemAndResultsWaitForStorage) {
  const scsi::testing::TempDir dir;
  boost::asio::io_context io;
  TimedLun driver(io, file_lun(dir, {GetParam(), 0.01}));
  ASSERT_NE(driver.lun().store_async(), nullptr);
  std::vector<Delivery> log;
  driver.on_delivery([&](const Delivery& d) { log.push_back(d); });
  constexpr int kPairs = 16;
  std::vector<std::vector<std::uint8_t>> data(kPairs);
  std::vector<scsi::ScsiResult> reads(kPairs);
  int good_writes = 0;
  for (int i = 0; i < kPairs; ++i) {
    data[i].assign(64 * 512, static_cast<std::uint8_t>(i + 1));
    const std::uint64_t lba = static_cast<std::uint64_t>(i) * 400'009 % 6'000'000;
    // Every write but the last overlaps the next pair's read too.
    const auto tag = static_cast<std::uint64_t>(2 * i);
    driver.submit(command(tag, write16(lba, 64, i % 4 == 0), data[i]),
                  [&](scsi::ScsiResult r) { good_writes += r.status == scsi::Status::kGood; });
    driver.submit(command(tag + 1, read16(lba, 64)),
                  [&, i](scsi::ScsiResult r) { reads[i] = std::move(r); });
  }
  io.run();
  EXPECT_EQ(good_writes, kPairs);
  for (int i = 0; i < kPairs; ++i) {
    ASSERT_EQ(reads[i].status, scsi::Status::kGood) << "read " << i;
    EXPECT_EQ(reads[i].data_in, data[i]) << "read " << i;
    EXPECT_FALSE(reads[i].io);
  }
  EXPECT_EQ(driver.lun().store_async()->in_flight(), 0U);
  for (const Delivery& d : log) EXPECT_GE(d.delivered_ns, d.due_ns);
  if (GetParam() != scsi::TimingMode::kOff) {
    EXPECT_EQ(log.size(), 2U * kPairs);
  }
}

// A transport that offers its buffer (scsi::ScsiCommand::data_out_owner),
// as a session does: the LUN writes from that buffer instead of a copy and
// leaves another in its place, so the transport may overwrite whatever it
// holds as soon as submit() returns, while the write is still in flight.
TEST(TimedLunFileStoreOffer, TheLunKeepsAnOfferedBufferAndWritesItsBytes) {
  const scsi::testing::TempDir dir;
  boost::asio::io_context io;
  TimedLun driver(io, file_lun(dir, {scsi::TimingMode::kOff, 1.0}));
  constexpr int kWrites = 8;
  constexpr std::size_t kBytes = 64 * 512;
  std::vector<scsi::ScsiResult> reads(kWrites);
  int good = 0;
  for (int i = 0; i < kWrites; ++i) {
    // Longer than its data, as a session's buffer may be.
    scsi::Bytes buffer(kBytes + 100, static_cast<std::uint8_t>(i + 1));
    const std::uint8_t* offered = buffer.data();
    const std::uint64_t lba = static_cast<std::uint64_t>(i) * 1000;
    // Odd writes offer a buffer their data does not start at: copied.
    const std::size_t at = i % 2 == 0 ? 0 : 100;
    const auto tag = static_cast<std::uint64_t>(2 * i);
    const std::vector<std::uint8_t> cdb = write16(lba, 64, false);
    scsi::ScsiCommand write = command(tag, cdb, std::span(buffer).subspan(at, kBytes));
    write.data_out_owner = &buffer;
    driver.submit(write, [&](scsi::ScsiResult r) { good += r.status == scsi::Status::kGood; });
    if (at == 0) {
      EXPECT_NE(buffer.data(), offered) << "write " << i << ": copied, not kept";
    } else {
      EXPECT_EQ(buffer.data(), offered) << "write " << i << ": kept a buffer its data is inside";
    }
    std::fill(buffer.begin(), buffer.end(), 0xEE);  // the transport reuses what it holds
    driver.submit(command(tag + 1, read16(lba, 64)),
                  [&, i](scsi::ScsiResult r) { reads[i] = std::move(r); });
  }
  io.run();
  EXPECT_EQ(good, kWrites);
  for (int i = 0; i < kWrites; ++i) {
    ASSERT_EQ(reads[i].status, scsi::Status::kGood) << "read " << i;
    EXPECT_EQ(reads[i].data_in, scsi::Bytes(kBytes, static_cast<std::uint8_t>(i + 1)))
        << "read " << i;
  }
}

std::string mode_name(const ::testing::TestParamInfo<scsi::TimingMode>& p) {
  return scsi::timing_mode_name(p.param);
}
INSTANTIATE_TEST_SUITE_P(Timing, TimedLunFileStore,
                         ::testing::Values(scsi::TimingMode::kOff, scsi::TimingMode::kScaled),
                         mode_name);

std::string spin_name(const ::testing::TestParamInfo<int>& p) {
  return "spin" + std::to_string(p.param) + "us";
}
INSTANTIATE_TEST_SUITE_P(Spin, TimedLunRealtime, ::testing::Values(0, 200, 5000), spin_name);

}  // namespace
}  // namespace memstore::driver
