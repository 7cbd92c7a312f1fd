// SPDX-License-Identifier: Apache-2.0
// The delivery engine on a fake clock: never delivered before due, order by
// due instant then by the model's order, lateness exactly as the clock says,
// compensation, scaled timing, off timing, the page 31h feed, and a
// forgotten nexus. Exact figures throughout: nothing here depends on how
// busy the machine is.
#include "target/delivery/engine.h"

#include <gtest/gtest.h>

#include <algorithm>
#include <cstdint>
#include <functional>
#include <memory>
#include <optional>
#include <vector>

#include "modepages/log_pages.h"
#include "modepages/mode_vendor.h"
#include "tests/delivery/fake_clock.h"
#include "tests/scsi/cdb_builders.h"
#include "tests/scsi/lun_fixture.h"

namespace memstore::delivery {
namespace {

using scsi::testing::read16;
using testing::FakeClock;

const std::vector<std::uint8_t> kTestUnitReady(6, 0);
// LOG SENSE, page 31h (MEMStore positioning), allocation length 4096.
const std::vector<std::uint8_t> kLogSense31 = {0x4D, 0, 0x31, 0, 0, 0, 0, 0x10, 0, 0};

class EngineTest : public ::testing::Test {
 protected:
  // `control`: the test's (unnamed) nexus may change page 22h.
  void start(scsi::Timing timing, bool control = false) {
    scsi::LunConfig config;
    config.timing = timing;
    config.control_access.unnamed = control;
    engine = std::make_unique<Engine>(scsi::testing::make_lun(std::move(config)), clock);
    engine->on_delivery([this](const Delivery& d) { log.push_back(d); });
  }
  WallNs since_epoch() const { return clock.t - engine->epoch(); }
  void submit(std::uint64_t tag, const std::vector<std::uint8_t>& cdb, std::uint64_t nexus = 1) {
    engine->submit({.nexus = nexus, .tag = tag, .cdb = cdb, .data_out = {}},
                   [this, tag](scsi::ScsiResult r) {
                     tags.push_back(tag);
                     results.push_back(std::move(r));
                   });
  }
  // Moves the clock from one instant the engine asks for to the next, and
  // at each checks that 1 ns before it nothing is delivered. Every
  // delivery is then exactly on time.
  void step_through() {
    for (int guard = 0; guard < 10'000; ++guard) {
      const std::optional<WallNs> next = engine->next_instant();
      if (!next) return;
      if (*next > clock.t) {
        clock.t = *next - 1;
        const std::size_t before = tags.size();
        engine->tick();
        ASSERT_EQ(tags.size(), before) << "delivered 1 ns before its instant";
        clock.t = *next;
      }
      engine->tick();
    }
    FAIL() << "the engine never ran out of instants";
  }

  FakeClock clock;
  std::unique_ptr<Engine> engine;
  std::vector<Delivery> log;
  std::vector<std::uint64_t> tags;
  std::vector<scsi::ScsiResult> results;
};

TEST_F(EngineTest, IdleEngineHasNoInstant) {
  start({scsi::TimingMode::kRealtime, 1.0});
  EXPECT_FALSE(engine->next_instant());
  engine->tick();
  EXPECT_TRUE(tags.empty());
}

TEST_F(EngineTest, NeverDeliveredBeforeItsModeledCompletion) {
  start({scsi::TimingMode::kRealtime, 1.0});
  clock.t += 1'000'000;
  for (std::uint64_t tag = 0; tag < 6; ++tag) submit(tag, read16(tag * 977'317 % 6'000'000, 8));
  step_through();
  ASSERT_EQ(tags.size(), 6U);
  ASSERT_EQ(log.size(), 6U);
  for (const Delivery& d : log) {
    EXPECT_EQ(d.arrival_ns, 1'000'000);
    EXPECT_GT(d.complete_ns, d.arrival_ns);
    EXPECT_EQ(d.due_ns, d.complete_ns);  // realtime: the wall instant of the completion
    EXPECT_EQ(d.delivered_ns, d.due_ns);
  }
  EXPECT_EQ(engine->lateness().count, 6U);
  EXPECT_EQ(engine->lateness().max_ns, 0);
  EXPECT_EQ(engine->lateness().mean_ns(), 0.0);
}

// Results come out by due instant, not by submission or decision order;
// results due at the same instant in the order the model decided them.
TEST_F(EngineTest, OrderByDueThenSequence) {
  start({scsi::TimingMode::kRealtime, 1.0});
  submit(1, read16(5'000'000, 64));  // served first (FCFS), due latest but one
  submit(2, read16(100, 64));        // queued behind it
  submit(3, kTestUnitReady);         // complete at arrival
  submit(4, kTestUnitReady);         // the same instant, decided after 3
  clock.t += 1'000'000'000;          // long past everything: one tick delivers all
  engine->tick();
  EXPECT_EQ(tags, (std::vector<std::uint64_t>{3, 4, 1, 2}));
  ASSERT_EQ(log.size(), 4U);
  EXPECT_EQ(log[0].due_ns, log[1].due_ns);
  EXPECT_LT(log[1].due_ns, log[2].due_ns);
  EXPECT_LT(log[2].due_ns, log[3].due_ns);
}

TEST_F(EngineTest, LatenessIsExactlyWhatTheClockSays) {
  start({scsi::TimingMode::kRealtime, 1.0});
  submit(1, read16(3'000'000, 8));
  engine->tick();  // the model decides: the sled is idle, the read starts now
  const std::optional<WallNs> due = engine->next_instant();
  ASSERT_TRUE(due);
  clock.t = *due + 1234;
  engine->tick();
  ASSERT_EQ(log.size(), 1U);
  EXPECT_EQ(log[0].delivered_ns - log[0].due_ns, 1234);
  submit(2, kTestUnitReady);  // due now
  clock.t += 766;
  engine->tick();
  ASSERT_EQ(log.size(), 2U);
  EXPECT_EQ(log[1].delivered_ns - log[1].due_ns, 766);
  EXPECT_EQ(engine->lateness().count, 2U);
  EXPECT_EQ(engine->lateness().max_ns, 1234);
  EXPECT_EQ(engine->lateness().mean_ns(), 1000.0);
}

// Every timed delivery's lateness reaches the LUN's log page 31h.
TEST_F(EngineTest, FeedsLogPage31h) {
  start({scsi::TimingMode::kRealtime, 1.0});
  submit(1, kTestUnitReady);
  clock.t += 1234;
  engine->tick();
  submit(2, kTestUnitReady);
  engine->tick();
  submit(3, kTestUnitReady);
  clock.t += 4000;
  engine->tick();
  submit(4, kLogSense31);  // read before its own delivery is recorded
  engine->tick();
  ASSERT_EQ(results.size(), 4U);
  ASSERT_EQ(results[3].status, scsi::Status::kGood);
  const auto page = modepages::decode_positioning_log(results[3].data_in);
  ASSERT_TRUE(page);
  const modepages::MetricSummary& late = (*page)[modepages::PositioningMetric::kDeliveryLateness];
  EXPECT_EQ(late.count, 3U);
  EXPECT_EQ(late.max, 4000U);
  EXPECT_EQ(late.mean, 1745U);  // 5234 / 3, rounded to the nearest ns
}

// Compensation dates an arrival earlier on the model's clock, but never
// before a time the model has already been given (arrivals must not go
// back), and only in realtime timing.
TEST_F(EngineTest, CompensationDatesArrivalsEarlierButNotBeforeTheModelsLatestTime) {
  start({scsi::TimingMode::kRealtime, 1.0});
  engine->set_compensation(std::chrono::milliseconds(2));
  clock.t += 10'000'000;
  submit(1, kTestUnitReady);
  engine->set_compensation(std::chrono::nanoseconds(0));
  clock.t += 10'000'000;
  submit(2, kTestUnitReady);
  engine->set_compensation(std::chrono::milliseconds(2));
  clock.t += 1'000'000;
  submit(3, kTestUnitReady);  // 19 ms would be before 20 ms, given to the model already
  clock.t += 9'000'000;
  submit(4, kTestUnitReady);
  engine->tick();
  ASSERT_EQ(log.size(), 4U);
  EXPECT_EQ(log[0].arrival_ns, 8'000'000);
  EXPECT_EQ(log[1].arrival_ns, 20'000'000);
  EXPECT_EQ(log[2].arrival_ns, 20'000'000);
  EXPECT_EQ(log[3].arrival_ns, 28'000'000);
  // Non-media commands complete at their (earlier) arrival: late by the
  // compensation at most, as the initiator's round trip already spent it.
  EXPECT_EQ(log[0].due_ns, 8'000'000);
  EXPECT_EQ(log[0].delivered_ns, 30'000'000);
}

TEST_F(EngineTest, CompensationIsForRealtimeOnly) {
  start({scsi::TimingMode::kScaled, 2.0});
  engine->set_compensation(std::chrono::milliseconds(2));
  clock.t += 10'000'000;
  submit(1, kTestUnitReady);
  engine->tick();
  ASSERT_EQ(log.size(), 1U);
  EXPECT_EQ(log[0].arrival_ns, 5'000'000);
}

// Scaled timing: the model's clock runs `scale` times slower, so every
// modeled delay takes `scale` times as long on the wall.
TEST_F(EngineTest, ScaledMultipliesModeledDelaysByTheScale) {
  start({scsi::TimingMode::kScaled, 3.0});
  clock.t += 3'000'000;
  const WallNs submitted = since_epoch();
  submit(1, read16(4'000'000, 64));
  submit(2, read16(10, 64));  // queued: its service starts at 1's completion
  step_through();
  ASSERT_EQ(log.size(), 2U);
  EXPECT_EQ(log[0].arrival_ns, 1'000'000);
  for (const Delivery& d : log) {
    EXPECT_EQ(d.due_ns, 3 * d.complete_ns);
    EXPECT_EQ(d.delivered_ns, d.due_ns);
    EXPECT_EQ(d.due_ns - submitted, 3 * (d.complete_ns - d.arrival_ns));
  }
  EXPECT_GT(results[0].breakdown.service_ns(), 0);
  EXPECT_EQ(log[0].due_ns - submitted, 3 * results[0].breakdown.service_ns());
}

// MODE SELECT of page 22h at run time: the new scale applies from then on.
// The model's clock goes on from where it was; it does not jump by the
// uptime times the change of scale (which held every command for hours).
TEST_F(EngineTest, ScaleChangedAtRunTimeAppliesFromThenOn) {
  start({scsi::TimingMode::kRealtime, 1.0}, /*control=*/true);
  clock.t += 10'000'000'000;  // 10 s of uptime at 1x
  std::vector<std::uint8_t> list = {0, 0, 0, 0};
  const auto page = modepages::encode(
      modepages::ControlPage{.timing = scsi::TimingMode::kScaled, .scale_milli = 1'000'000});
  list.insert(list.end(), page.begin(), page.end());
  const std::vector<std::uint8_t> select = {
      0x15, 0x10, 0, 0, static_cast<std::uint8_t>(list.size()), 0};
  engine->submit({.nexus = 1, .tag = 100, .cdb = select, .data_out = list},
                 [this](scsi::ScsiResult r) {
                   tags.push_back(100);
                   results.push_back(std::move(r));
                 });
  const WallNs selected = since_epoch();
  step_through();
  ASSERT_EQ(tags, (std::vector<std::uint64_t>{100}));
  EXPECT_EQ(results[0].status, scsi::Status::kGood);
  EXPECT_EQ(since_epoch(), selected);  // answered at once, at 1000x as at 1x
  EXPECT_EQ(engine->lun().timing().mode, scsi::TimingMode::kScaled);
  clock.t += 1'000'000;
  const WallNs submitted = since_epoch();
  submit(1, read16(4'000'000, 64));
  step_through();
  ASSERT_EQ(log.size(), 2U);
  const Delivery& d = log.back();
  EXPECT_EQ(d.due_ns - submitted, 1000 * (d.complete_ns - d.arrival_ns));
  EXPECT_LT(d.due_ns - submitted, 100'000'000'000);  // well under 100 s, not 10 s x 1000
}

// A scale the wall clock cannot express exactly: the model time of a
// decision's wall instant rounds down, and the engine must still take the
// decision then rather than ask for the same instant again.
TEST_F(EngineTest, ScaledDecisionsAreTakenDespiteRounding) {
  start({scsi::TimingMode::kScaled, 1.3});
  clock.t += 1'000'001;
  for (std::uint64_t tag = 0; tag < 8; ++tag) submit(tag, read16(tag * 700'001 % 6'000'000, 8));
  step_through();
  EXPECT_EQ(tags.size(), 8U);
  for (const Delivery& d : log) EXPECT_GE(d.delivered_ns, d.due_ns);
}

// Off timing: the model decides at once and every result is ready to go;
// nothing is timed, so nothing is logged or counted late.
TEST_F(EngineTest, OffDeliversAtOnceUntimed) {
  start({scsi::TimingMode::kOff, 1.0});
  submit(1, read16(6'000'000, 64));
  submit(2, kTestUnitReady);
  EXPECT_TRUE(engine->has_results());
  EXPECT_TRUE(tags.empty());  // not from inside submit()
  engine->deliver_all();
  EXPECT_EQ(tags.size(), 2U);
  EXPECT_GT(results[0].breakdown.service_ns(), 0);  // the model still ran
  EXPECT_TRUE(log.empty());
  EXPECT_EQ(engine->lateness().count, 0U);
}

TEST_F(EngineTest, ForgottenNexusGetsNoResults) {
  start({scsi::TimingMode::kRealtime, 1.0});
  submit(1, read16(1'000'000, 8), 1);
  submit(2, read16(2'000'000, 8), 2);
  submit(3, kTestUnitReady, 1);
  engine->forget(1);
  step_through();
  EXPECT_EQ(tags, (std::vector<std::uint64_t>{2}));
}

// A delivery may submit the next command (an initiator at QD 1): it is
// timed from the delivery's instant.
TEST_F(EngineTest, SubmitFromADelivery) {
  start({scsi::TimingMode::kRealtime, 1.0});
  int left = 5;
  std::function<void()> next = [&] {
    const auto tag = static_cast<std::uint64_t>(left);
    engine->submit({.nexus = 1, .tag = tag, .cdb = read16(tag * 1'000'003, 8), .data_out = {}},
                   [&](scsi::ScsiResult) {
                     if (--left > 0) next();
                   });
  };
  next();
  step_through();
  EXPECT_EQ(left, 0);
  ASSERT_EQ(log.size(), 5U);
  for (std::size_t i = 1; i < log.size(); ++i) {
    EXPECT_EQ(log[i].arrival_ns, log[i - 1].delivered_ns);
  }
}

}  // namespace
}  // namespace memstore::delivery
