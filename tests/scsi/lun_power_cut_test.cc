// SPDX-License-Identifier: Apache-2.0
// A LUN with a volatile write cache (durability = "volatile") through its
// commands: what a power cut takes (SBC-3 §4.15: a write is durable after
// FUA, WCE = 0, or a SYNCHRONIZE CACHE received after it completed) and how
// the LUN comes back (POWER ON unit attention, reservations gone).
#include <gtest/gtest.h>

#include <algorithm>
#include <chrono>
#include <cstring>
#include <random>
#include <set>

#include "target/scsi/lun.h"
#include "target/scsi/memory_store.h"
#include "target/scsi/volatile_cache.h"
#include "tests/scsi/cdb_builders.h"

namespace memstore::scsi {
namespace {

using testing::read16;
using testing::write16;

constexpr std::uint32_t kBlock = 512;

class PowerCutTest : public ::testing::Test {
 protected:
  PowerCutTest() {
    LunConfig config;
    config.timing.mode = TimingMode::kOff;
    const auto blocks = static_cast<std::uint64_t>(model::Geometry(config.device).blocks());
    auto medium =
        MemoryStore::create(blocks, static_cast<std::uint32_t>(config.device.block_bytes)).value();
    VolatileCacheConfig cache;
    cache.capacity_bytes = 64 * kBlock;
    auto created = Lun::create(std::move(config),
                               std::make_unique<VolatileCacheStore>(std::move(medium), cache));
    lun = std::move(created).value();
  }

  ScsiResult run(std::vector<std::uint8_t> cdb, const std::vector<std::uint8_t>& out = {},
                 std::uint64_t nexus = 1) {
    cdb.resize(16, 0);
    ScsiCommand c;
    c.nexus = nexus;
    c.tag = ++tag;
    c.cdb = cdb;
    c.data_out = out;
    c.arrival_ns = static_cast<model::Ns>(tag) * 1'000'000;
    return lun->execute(c);
  }
  // A command that must succeed.
  ScsiResult good(std::vector<std::uint8_t> cdb, const std::vector<std::uint8_t>& out = {},
                  std::uint64_t nexus = 1) {
    ScsiResult r = run(std::move(cdb), out, nexus);
    EXPECT_EQ(r.status, Status::kGood) << "nexus " << nexus;
    return r;
  }
  std::uint8_t first_byte(std::uint64_t lba) { return good(read16(lba, 1)).data_in.at(0); }
  PowerCutReport cut(CutPolicy policy = CutPolicy::kDropAll, std::uint64_t seed = 1) {
    auto r = lun->power_cycle(policy, seed, static_cast<model::Ns>(tag) * 1'000'000, 0, "a test");
    EXPECT_TRUE(r.ok());
    return std::move(r).value();
  }
  // MODE SELECT(10) of the Caching page with WCE as given.
  void set_wce(bool on, std::uint64_t nexus = 1) {
    const ScsiResult sensed = good({0x5A, 0x08, 0x08, 0, 0, 0, 0, 0x10, 0x00, 0}, {}, nexus);
    std::vector<std::uint8_t> page(sensed.data_in.begin() + 8, sensed.data_in.end());
    page[0] &= 0x3F;  // PS is reserved in MODE SELECT
    page[2] = static_cast<std::uint8_t>((page[2] & ~0x04) | (on ? 0x04 : 0));
    std::vector<std::uint8_t> list(8, 0);
    list.insert(list.end(), page.begin(), page.end());
    good({0x55, 0x10, 0, 0, 0, 0, 0, 0, static_cast<std::uint8_t>(list.size()), 0}, list, nexus);
  }

  std::unique_ptr<Lun> lun;
  std::uint64_t tag = 0;
};

std::vector<std::uint8_t> filled(std::uint8_t byte, std::uint32_t blocks = 1) {
  return std::vector<std::uint8_t>(blocks * kBlock, byte);
}

TEST_F(PowerCutTest, AnUnsyncedWriteIsLostAndThePowerOnIsReported) {
  good(write16(100, 2), filled(0xA1, 2));
  EXPECT_EQ(first_byte(100), 0xA1) << "reads see the cache";
  const PowerCutReport report = cut();
  ASSERT_EQ(report.writes.size(), 1u);
  EXPECT_EQ(report.writes[0].lost, (std::vector<BlockRun>{{100, 2}}));
  const ScsiResult ua = run({0x00});  // TEST UNIT READY
  ASSERT_EQ(ua.status, Status::kCheckCondition);
  EXPECT_EQ(ua.sense[2] & 0x0F, 0x06);
  EXPECT_EQ(ua.sense[12], 0x29);
  EXPECT_EQ(ua.sense[13], 0x00);
  EXPECT_EQ(first_byte(100), 0x00);
}

// A fault rule cuts the power as its command arrives: that command is not
// carried out and never answered, the LUN tells the transport how long it
// stays off, answers nothing until then, and then reports the power-on. The
// log says what was lost.
TEST_F(PowerCutTest, AFaultRuleCutsThePowerAsItsCommandArrives) {
  std::vector<std::string> log;
  lun->set_log([&](LogLevel, std::string_view line) { log.emplace_back(line); }, "LUN 0");
  std::vector<std::chrono::nanoseconds> told;
  lun->set_power_lost([&](std::chrono::nanoseconds off) { told.push_back(off); });
  FaultRule rule;
  rule.op = FaultOp::kWrite;
  rule.every = 3;
  rule.once = true;
  rule.action = FaultAction::kPowerCut;
  rule.off_ns = 4'500'000;  // commands come 1 ms apart: the next four find it off
  lun->add_fault(rule);
  good(write16(10, 1), filled(0x10));
  good({0x35});                           // SYNCHRONIZE CACHE: LBA 10 is durable
  good(write16(20, 2), filled(0x20, 2));  // volatile
  const ScsiResult fired = run(write16(30, 1), filled(0x30));
  EXPECT_TRUE(fired.withheld) << "the command the power went under is never answered";
  ASSERT_EQ(told.size(), 1u);
  EXPECT_EQ(told[0], std::chrono::nanoseconds(4'500'000));
  for (int i = 0; i < 4; ++i) EXPECT_TRUE(run({0x00}).withheld) << "off, command " << i;
  const ScsiResult ua = run({0x00});
  ASSERT_EQ(ua.status, Status::kCheckCondition);
  EXPECT_EQ(ua.sense[12], 0x29);
  EXPECT_EQ(first_byte(10), 0x10);
  EXPECT_EQ(first_byte(20), 0x00) << "the volatile write is lost";
  EXPECT_EQ(first_byte(30), 0x00) << "the write the power went under was never done";
  const auto logged = [&](std::string_view text) {
    return std::any_of(log.begin(), log.end(),
                       [&](const std::string& l) { return l.find(text) != std::string::npos; });
  };
  EXPECT_TRUE(logged("LUN 0: power cut (fault rule "));
  EXPECT_TRUE(
      logged("policy drop-all, seed 1, after 1 flushes: 1 volatile writes, 2 blocks lost, "
             "0 kept"));
  EXPECT_TRUE(logged("write 2 (LBA 20, 2 blocks, after flush 1): lost; kept none; lost 20+2"));
}

// Switched off for good (memstored stopping): the volatile cache is lost,
// the loss logged, and what was durable stays.
TEST_F(PowerCutTest, SwitchedOffTheCacheIsLostAndSaysSo) {
  std::vector<std::string> log;
  lun->set_log([&](LogLevel, std::string_view line) { log.emplace_back(line); }, "LUN 0");
  good(write16(10, 1, /*fua=*/true), filled(0x10));
  good(write16(11, 1), filled(0x11));
  ASSERT_TRUE(lun->switch_off("memstored stopping").ok());
  ASSERT_EQ(log.size(), 2u);
  EXPECT_NE(log[0].find("switched off (memstored stopping): policy drop-all"), std::string::npos)
      << log[0];
  EXPECT_EQ(first_byte(10), 0x10);
  EXPECT_EQ(first_byte(11), 0x00);
}

TEST_F(PowerCutTest, SynchronizeCacheFuaAndWceZeroMakeWritesDurable) {
  good(write16(10, 1), filled(0x10));
  good({0x35});  // SYNCHRONIZE CACHE(10)
  good(write16(11, 1, /*fua=*/true), filled(0x11));
  good(write16(12, 1), filled(0x12));  // still volatile
  set_wce(false);
  good(write16(13, 1), filled(0x13));
  const PowerCutReport report = cut();
  run({0x00});  // the unit attention
  EXPECT_EQ(first_byte(10), 0x10);
  EXPECT_EQ(first_byte(11), 0x11);
  EXPECT_EQ(first_byte(12), 0x00) << "WCE = 0 makes later writes durable, not earlier ones";
  EXPECT_EQ(first_byte(13), 0x13);
  ASSERT_EQ(report.writes.size(), 1u);
  EXPECT_EQ(report.writes[0].lba, 12u);
}

TEST_F(PowerCutTest, ThePageSaysTheCacheIsOnAndPersistentReservationsGo) {
  const ScsiResult page = good({0x5A, 0x08, 0x08, 0, 0, 0, 0, 0x10, 0x00, 0});
  EXPECT_EQ(page.data_in.at(8 + 2) & 0x04, 0x04) << "WCE";
  std::vector<std::uint8_t> reg(24, 0);
  reg[15] = 0x42;                                    // SERVICE ACTION RESERVATION KEY
  good({0x5F, 0x00, 0, 0, 0, 0, 0, 0, 24, 0}, reg);  // PERSISTENT RESERVE OUT, REGISTER
  const auto keys = [&] {
    return good({0x5E, 0x00, 0, 0, 0, 0, 0, 0x01, 0x00, 0}).data_in;  // READ KEYS
  };
  EXPECT_EQ(keys().at(7), 8) << "one key registered";
  cut();
  run({0x00});
  EXPECT_EQ(keys().at(7), 0) << "PTPL_C = 0: registrations do not survive";
}

// The contract over 10,000 seeded cuts of one LUN that three nexuses write
// to at random, with FUA, SYNCHRONIZE CACHE and WCE changes between: after
// each cut every block holds its last durable data or a newer write that
// the policy kept, whole, and what the report says was lost is lost.
TEST_F(PowerCutTest, NoDurableWriteIsLostOver10000SeededCutsFromThreeNexuses) {
  constexpr std::uint64_t kBlocks = 32;
  std::vector<std::uint64_t> newest(kBlocks, 0), durable(kBlocks, 0);
  std::vector<std::set<std::uint64_t>> since(kBlocks);
  std::uint64_t value = 0, lost = 0, torn = 0;
  bool wce = true;
  const auto stamp = [](std::uint64_t v, std::uint32_t blocks) {
    std::vector<std::uint8_t> data(blocks * kBlock);
    for (std::size_t i = 0; i < data.size(); i += 8) std::memcpy(data.data() + i, &v, 8);
    return data;
  };
  for (std::uint64_t seed = 1; seed <= 10000; ++seed) {
    std::mt19937_64 rng(seed);
    const auto pick = [&rng](std::uint64_t n) { return rng() % n; };
    const std::uint64_t ops = 1 + pick(12);
    for (std::uint64_t op = 0; op < ops; ++op) {
      const std::uint64_t nexus = 1 + pick(3);
      const std::uint64_t lba = pick(kBlocks);
      const auto count =
          static_cast<std::uint32_t>(std::min<std::uint64_t>(1 + pick(4), kBlocks - lba));
      const std::uint64_t kind = pick(16);
      if (kind < 11) {
        const bool fua = kind == 10;
        ++value;
        ASSERT_EQ(run(write16(lba, count, fua), stamp(value, count), nexus).status, Status::kGood)
            << "seed " << seed;
        for (std::uint64_t b = lba; b < lba + count; ++b) {
          newest[b] = value;
          if (fua || !wce) {
            durable[b] = value;
            since[b].clear();
          } else {
            since[b].insert(value);
          }
        }
      } else if (kind < 13) {
        ASSERT_EQ(run({0x35}, {}, nexus).status, Status::kGood) << "seed " << seed;
        durable = newest;
        for (auto& s : since) s.clear();
      } else if (kind == 13) {
        wce = !wce;
        set_wce(wce, nexus);
        // WCE = 0 writes every cached write back before the next write's
        // GOOD at the latest; the model only counts what it must.
      } else {
        const ScsiResult r = run(read16(lba, count), {}, nexus);
        ASSERT_EQ(r.status, Status::kGood) << "seed " << seed;
        for (std::uint32_t i = 0; i < count; ++i) {
          std::uint64_t v = 0;
          std::memcpy(&v, r.data_in.data() + i * kBlock, 8);
          ASSERT_EQ(v, newest[lba + i]) << "seed " << seed << ": a read sees the newest data";
        }
      }
    }
    const auto policy = static_cast<CutPolicy>(pick(3));
    const PowerCutReport report = cut(policy, seed);
    for (const CutWrite& w : report.writes) {
      if (w.outcome == CutWrite::Outcome::kTorn) ++torn;
      for (const BlockRun& r : w.lost) lost += r.blocks;
    }
    for (std::uint64_t nexus = 1; nexus <= 3; ++nexus) run({0x00}, {}, nexus);  // the UAs
    const ScsiResult all = good(read16(0, kBlocks));
    for (std::uint64_t b = 0; b < kBlocks; ++b) {
      std::uint64_t v = 0;
      for (std::size_t i = 0; i < kBlock; i += 8) {
        std::uint64_t word = 0;
        std::memcpy(&word, all.data_in.data() + b * kBlock + i, 8);
        if (i == 0) v = word;
        ASSERT_EQ(word, v) << "seed " << seed << " LBA " << b << ": a block of two writes";
      }
      ASSERT_TRUE(v == durable[b] || since[b].contains(v))
          << "seed " << seed << " LBA " << b << ": holds " << v << ", durable " << durable[b];
      newest[b] = durable[b] = v;
      since[b].clear();
    }
  }
  EXPECT_GT(lost, 0u);
  EXPECT_GT(torn, 0u);
}

}  // namespace
}  // namespace memstore::scsi
