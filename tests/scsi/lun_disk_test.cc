// SPDX-License-Identifier: Apache-2.0
// A LUN that is a zoned rotating disk (LunConfig::disk; docs/disk-models.md):
// what a host reads to tell it is a rotating disk (VPD B1h, mode pages 03h
// and 04h), the MEMStore interface it does not offer, its capacity, and
// media commands completing when the disk model says.
#include <gmock/gmock.h>
#include <gtest/gtest.h>

#include "model/device_factory.h"
#include "modepages/bytes.h"
#include "modepages/mode_disk.h"
#include "tests/scsi/cdb_builders.h"
#include "tests/scsi/lun_fixture.h"

namespace memstore::scsi::testing {
namespace {

using ::testing::ElementsAre;
using ::testing::HasSubstr;

LunConfig disk_config(const char* preset) {
  LunConfig c;
  c.disk = model::disk_preset(preset);
  return c;
}

class DiskLunTest : public LunTest {
 protected:
  DiskLunTest() { lun = make_lun(disk_config("atlas10k")); }

  // MODE SENSE(10) with DBD of one page (PC = current), its page bytes only.
  std::vector<std::uint8_t> mode_page(std::uint8_t code) {
    const ScsiResult r = run({0x5A, 0x08, code, 0, 0, 0, 0, 0x10, 0x00, 0});
    EXPECT_EQ(r.status, Status::kGood);
    if (r.data_in.size() < 8) return {};
    return {r.data_in.begin() + 8, r.data_in.end()};
  }
};

TEST_F(DiskLunTest, InquiryNamesTheDisk) {
  const ScsiResult r = run({0x12, 0, 0, 0, 96});
  ASSERT_EQ(r.status, Status::kGood);
  EXPECT_EQ(std::string(r.data_in.begin() + 16, r.data_in.begin() + 32), "Disk ATLAS10K   ");
}

TEST_F(DiskLunTest, BlockDeviceCharacteristicsGiveThePresetsRotationRate) {
  // SBC-3 §6.6.2: bytes 4-5 MEDIUM ROTATION RATE in rpm (0401h..FFFEh).
  const ScsiResult r = run({0x12, 1, 0xB1, 0, 0xFF});
  ASSERT_EQ(r.status, Status::kGood);
  ASSERT_EQ(r.data_in.size(), 64u);
  EXPECT_EQ(r.data_in[1], 0xB1);
  EXPECT_EQ(modepages::get_be16(r.data_in, 4), 10025);  // the Atlas 10K's 10,025 rpm

  auto fast = make_lun(disk_config("disk20k"));
  ScsiCommand c;
  const std::vector<std::uint8_t> cdb = {0x12, 1, 0xB1, 0, 0xFF, 0};
  c.cdb = cdb;
  const ScsiResult r20 = fast->execute(c);
  ASSERT_EQ(r20.status, Status::kGood);
  EXPECT_EQ(modepages::get_be16(r20.data_in, 4), 20000);
}

TEST_F(DiskLunTest, BlockLimitsReportNoMemstoreGeometry) {
  const ScsiResult r = run({0x12, 1, 0xB0, 0, 0xFF});
  ASSERT_EQ(r.status, Status::kGood);
  ASSERT_EQ(r.data_in.size(), 64u);
  EXPECT_EQ(modepages::get_be16(r.data_in, 6), 0);         // granularity: not reported (not p)
  EXPECT_EQ(modepages::get_be32(r.data_in, 8), 0x10000u);  // MAXIMUM TRANSFER LENGTH stays
  EXPECT_EQ(modepages::get_be32(r.data_in, 12), 0u);       // optimal length: not reported (not ST)
}

TEST_F(DiskLunTest, CapacityIsThePresets) {
  const model::ZonedDiskParams atlas = *model::disk_preset("atlas10k");
  const auto blocks = static_cast<std::uint64_t>(model::ZonedLayout(atlas).blocks());
  EXPECT_EQ(blocks, 17'966'953u);  // docs/disk-models.md: what the zones hold
  const ScsiResult r = run({0x9E, 0x10, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 32});
  ASSERT_EQ(r.status, Status::kGood);
  EXPECT_EQ(modepages::get_be64(r.data_in, 0), blocks - 1);  // last LBA
  EXPECT_EQ(modepages::get_be32(r.data_in, 8), 512u);
}

TEST_F(DiskLunTest, FormatDevicePageDescribesZoneZero) {
  // SBC-2 §6.3.4. Zone 0 of the Atlas 10K: cylinders 0-432 of 6 surfaces,
  // 334 sectors per track, 89 spare sectors, skews 63 and 113 sectors.
  const std::vector<std::uint8_t> p = mode_page(0x03);
  EXPECT_THAT(p, ElementsAre(0x03, 0x16,     // page code, page length
                             0x0A, 0x26,     // TRACKS PER ZONE 2598
                             0x00, 89,       // ALTERNATE SECTORS PER ZONE
                             0, 0, 0, 0,     // alternate tracks per zone, per LU
                             0x01, 0x4E,     // SECTORS PER TRACK 334
                             0x02, 0x00,     // DATA BYTES PER PHYSICAL SECTOR 512
                             0x00, 0x01,     // INTERLEAVE 1
                             0x00, 63,       // TRACK SKEW FACTOR
                             0x00, 113,      // CYLINDER SKEW FACTOR
                             0x40, 0, 0, 0)  // HSEC; SSEC, RMB, SURF 0
  );
}

TEST_F(DiskLunTest, RigidDiskGeometryPageGivesCylindersHeadsAndRotation) {
  // SBC-2 §6.3.5: 10,042 cylinders, 6 heads, 10,025 rpm; write
  // precompensation and reduced write current start past the last cylinder.
  const std::vector<std::uint8_t> p = mode_page(0x04);
  EXPECT_THAT(p, ElementsAre(0x04, 0x16,        // page code, page length
                             0x00, 0x27, 0x3A,  // NUMBER OF CYLINDERS 10042
                             6,                 // NUMBER OF HEADS
                             0x00, 0x27, 0x3A,  // STARTING CYLINDER-WRITE PRECOMPENSATION
                             0x00, 0x27, 0x3A,  // STARTING CYLINDER-REDUCED WRITE CURRENT
                             0, 0,              // DRIVE STEP RATE
                             0, 0, 0,           // LANDING ZONE CYLINDER
                             0, 0, 0,           // RPL, ROTATIONAL OFFSET, reserved
                             0x27, 0x29,        // MEDIUM ROTATION RATE 10025
                             0, 0));
  // Read-only: the changeable mask is all zeros.
  const ScsiResult mask = run({0x5A, 0x08, 0x44, 0, 0, 0, 0, 0x10, 0x00, 0});
  ASSERT_EQ(mask.status, Status::kGood);
  EXPECT_EQ(std::vector<std::uint8_t>(mask.data_in.begin() + 10, mask.data_in.end()),
            std::vector<std::uint8_t>(22, 0));
}

TEST_F(DiskLunTest, AllPagesListTheDisksPagesAndNoMemstorePage) {
  const ScsiResult r = run({0x5A, 0x08, 0x3F, 0, 0, 0, 0, 0x10, 0x00, 0});
  ASSERT_EQ(r.status, Status::kGood);
  std::vector<int> codes;
  for (std::size_t at = 8; at + 1 < r.data_in.size(); at += 2 + r.data_in[at + 1]) {
    codes.push_back(r.data_in[at] & 0x3F);
  }
  EXPECT_THAT(codes, ElementsAre(0x03, 0x04, 0x08, 0x0A, 0x1C, 0x22));
  // The disk model has a read cache: Caching's RCD is 0.
  const std::vector<std::uint8_t> caching = mode_page(0x08);
  ASSERT_GE(caching.size(), 3u);
  EXPECT_EQ(caching[2] & 0x01, 0);
}

TEST_F(DiskLunTest, MemstoreModePagesAreInvalidFieldsInTheCdb) {
  for (const std::uint8_t code : {std::uint8_t{0x1A}, std::uint8_t{0x20}, std::uint8_t{0x21}}) {
    const ScsiResult r = run({0x1A, 0x08, code, 0, 0xFF});
    ASSERT_EQ(r.status, Status::kCheckCondition) << int(code);
    EXPECT_THAT(kcq(r), ElementsAre(0x5, 0x24, 0x00));
    EXPECT_THAT(field(r), ElementsAre(1, 5, 2));  // C/D = 1, PAGE CODE: byte 2 bit 5
  }
  // MODE SELECT of page 20h: an unknown page in the list (byte 4 bit 5 after
  // the 4-byte header).
  std::vector<std::uint8_t> list(4, 0);
  list.push_back(0x20);
  list.push_back(58);
  list.resize(4 + 60, 0);
  const ScsiResult sel = run({0x15, 0x10, 0, 0, static_cast<std::uint8_t>(list.size()), 0}, list);
  ASSERT_EQ(sel.status, Status::kCheckCondition);
  EXPECT_THAT(kcq(sel), ElementsAre(0x5, 0x26, 0x00));
  EXPECT_THAT(field(sel), ElementsAre(0, 5, 4));
}

TEST_F(DiskLunTest, MemsBatchCommandsAreUnsupportedModes) {
  // MEMS BATCH: WRITE BUFFER mode 01h with a valid one-descriptor list.
  std::vector<std::uint8_t> list = {0, 1, 0, 0, 0, 0, 0, 0};
  const std::vector<std::uint8_t> d = {0x01, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 1};
  list.insert(list.end(), d.begin(), d.end());
  const ScsiResult batch = run({0x3B, 0x01, 7, 0, 0, 0, 0, 0, 24, 0}, list);
  ASSERT_EQ(batch.status, Status::kCheckCondition);
  EXPECT_THAT(kcq(batch), ElementsAre(0x5, 0x24, 0x00));
  EXPECT_THAT(field(batch), ElementsAre(1, 4, 1));  // MODE: byte 1 bit 4
  // MEMS BATCH RESULTS (READ BUFFER mode 01h) and its descriptor (03h).
  for (const std::uint8_t mode : {std::uint8_t{0x01}, std::uint8_t{0x03}}) {
    const ScsiResult r = run({0x3C, mode, 7, 0, 0, 0, 0, 0x10, 0, 0});
    ASSERT_EQ(r.status, Status::kCheckCondition) << int(mode);
    EXPECT_THAT(kcq(r), ElementsAre(0x5, 0x24, 0x00));
    EXPECT_THAT(field(r), ElementsAre(1, 4, 1));
  }
  // The echo buffer, which SPC-4 gives any device, still works.
  const std::vector<std::uint8_t> echo = {1, 2, 3, 4};
  ASSERT_EQ(run({0x3B, 0x0A, 0, 0, 0, 0, 0, 0, 4, 0}, echo).status, Status::kGood);
  EXPECT_THAT(run({0x3C, 0x0A, 0, 0, 0, 0, 0, 0, 4, 0}).data_in, ElementsAre(1, 2, 3, 4));
}

TEST_F(DiskLunTest, NoPowerLogPage) {
  // LOG SENSE page 00h lists 00h and 31h; 30h (MEMStore power) is refused.
  const ScsiResult list = run({0x4D, 0, 0x40, 0, 0, 0, 0, 0, 0xFF, 0});
  ASSERT_EQ(list.status, Status::kGood);
  EXPECT_EQ(std::vector<std::uint8_t>(list.data_in.begin() + 4, list.data_in.end()),
            (std::vector<std::uint8_t>{0x00, 0x31}));
  const ScsiResult power = run({0x4D, 0, 0x70, 0, 0, 0, 0, 0, 0xFF, 0});
  ASSERT_EQ(power.status, Status::kCheckCondition);
  EXPECT_THAT(kcq(power), ElementsAre(0x5, 0x24, 0x00));
  EXPECT_THAT(field(power), ElementsAre(1, 5, 2));
  EXPECT_EQ(run({0x4D, 0, 0x71, 0, 0, 0, 0, 0, 0xFF, 0}).status, Status::kGood);
}

TEST_F(DiskLunTest, ReadsCompleteWhenTheDiskModelSays) {
  // The same requests, at the same arrivals, through a disk model of its
  // own: every completion time agrees. Arrivals 1 ms apart queue behind
  // each other (a random access takes several ms).
  auto model = model::make_zoned_disk_device(*model::disk_preset("atlas10k"), "fcfs");
  ASSERT_NE(model, nullptr);
  const std::uint64_t lbas[] = {12'345'678, 40, 9'000'000, 9'000'008, 17'000'000, 3'333'333};
  std::vector<model::Ns> want(std::size(lbas), -1);
  for (std::size_t i = 0; i < std::size(lbas); ++i) {
    model::Request req;
    req.id = i + 1;
    req.lbn = static_cast<model::Lbn>(lbas[i]);
    req.blocks = 8;
    req.op = model::Op::kRead;
    req.arrival_ns = static_cast<model::Ns>(i + 1) * 1'000'000;
    model->submit(req);
  }
  model->drain([&](const model::Completion& c) { want[c.request.id - 1] = c.done_ns; });

  std::vector<model::Ns> got(std::size(lbas), -1);
  const Lun::Sink sink = [&](ScsiResult r) {
    ASSERT_EQ(r.status, Status::kGood);
    got[r.tag - 1] = r.complete_ns;
  };
  for (std::size_t i = 0; i < std::size(lbas); ++i) {
    const std::vector<std::uint8_t> cdb = read16(lbas[i], 8);
    ScsiCommand c;
    c.tag = i + 1;
    c.cdb = cdb;
    c.arrival_ns = static_cast<model::Ns>(i + 1) * 1'000'000;
    lun->submit(c, sink);
  }
  lun->advance(std::numeric_limits<model::Ns>::max() / 2, sink);
  EXPECT_EQ(got, want);
  // A disk's random read takes milliseconds: the first one at least a
  // seek's worth more than a G2 MEMStore's (under 1 ms).
  EXPECT_GT(got[0] - 1'000'000, 2'000'000);
}

// The Caching mode page's WCE is the drive's own write-back cache (SBC-3,
// Caching mode page; SBC-3 §4.14): on, a write completes once the drive's
// memory has it; off (MODE SELECT), or with FUA, once the medium has it.
TEST_F(DiskLunTest, WceSwitchesTheDrivesWriteBackCache) {
  std::vector<std::uint8_t> caching = mode_page(0x08);
  ASSERT_GE(caching.size(), 3U);
  EXPECT_EQ(caching[2] & 0x04, 0x04);  // WCE: the Atlas 10K's cache writes back
  const std::vector<std::uint8_t> data(8 * 512, 0x6B);
  auto write_takes = [&](std::uint64_t lba, bool fua) {
    std::vector<std::uint8_t> cdb = {0x8A, static_cast<std::uint8_t>(fua ? 0x08 : 0)};
    cdb.resize(16, 0);
    for (int i = 0; i < 8; ++i) cdb[2 + i] = static_cast<std::uint8_t>(lba >> (56 - 8 * i));
    cdb[13] = 8;
    const ScsiResult r = run(cdb, data);
    EXPECT_EQ(r.status, Status::kGood);
    return r.complete_ns - now;  // run() dates each command 1 ms after the last
  };
  const model::Ns cached = write_takes(5'000'000, false);
  const model::Ns forced = write_takes(15'000'000, true);
  EXPECT_LT(cached, 1'000'000);  // the drive's memory: no seek, no rotation
  EXPECT_GT(forced, 2'000'000);  // the medium: a seek and the rotation
  // MODE SELECT(10) of the Caching page with WCE = 0.
  caching[0] &= 0x3F;  // PS is reserved in MODE SELECT
  caching[2] &= static_cast<std::uint8_t>(~0x04);
  std::vector<std::uint8_t> list(8 + caching.size(), 0);  // an 8-byte header, then the page
  std::copy(caching.begin(), caching.end(), list.begin() + 8);
  const auto len = static_cast<std::uint8_t>(list.size());
  ASSERT_EQ(run({0x55, 0x10, 0, 0, 0, 0, 0, 0, len, 0}, list).status, Status::kGood);
  EXPECT_EQ(mode_page(0x08)[2] & 0x04, 0);
  EXPECT_GT(write_takes(5'000'000, false), 2'000'000);
}

TEST(DiskLunConfig, MemstoreOnlySettingsAreRefused) {
  LunConfig rotation = disk_config("atlas10k");
  rotation.rotation_rate = 1;
  auto store = MemoryStore::create(17'966'953, 512);
  auto r = Lun::create(rotation, std::move(store.value()));
  ASSERT_TRUE(!r.ok());
  EXPECT_THAT(r.error().message, HasSubstr("rotation_rate: a disk reports its own"));

  LunConfig tip = disk_config("atlas10k");
  FaultRule rule;
  rule.action = FaultAction::kFailedTip;
  tip.faults.push_back(rule);
  store = MemoryStore::create(17'966'953, 512);
  r = Lun::create(tip, std::move(store.value()));
  ASSERT_TRUE(!r.ok());
  EXPECT_THAT(r.error().message, HasSubstr("fault: failed-tip needs a MEMStore"));

  // A store of the MEMStore's size is not the disk's.
  store = MemoryStore::create(6'750'000, 512);
  r = Lun::create(disk_config("atlas10k"), std::move(store.value()));
  ASSERT_TRUE(!r.ok());
  EXPECT_THAT(r.error().message, HasSubstr("but the device has 17966953"));
}

// Seed 003's five devices (ASPLOS IX: the Cheetah 4LP, the SuperDisk, G1-G3) each serve as a
// LUN: INQUIRY names the preset (the generations' names stand alone, too long for the
// "MEMStore " prefix in 16 characters), READ CAPACITY gives the model's blocks, and a read
// completes when the preset's own model says.
TEST(Seed003Luns, EachPresetServesAndItsModelAnswers) {
  struct Case {
    const char* preset;
    bool disk;
    const char* product;
  };
  const Case cases[] = {{"cheetah4lp", true, "Disk CHEETAH4LP "},
                        {"superdisk", true, "Disk SUPERDISK  "},
                        {"asplos99-g1", false, "ASPLOS99-G1     "},
                        {"asplos99-g2", false, "ASPLOS99-G2     "},
                        {"asplos99-g3", false, "ASPLOS99-G3     "}};
  for (const Case& k : cases) {
    SCOPED_TRACE(k.preset);
    LunConfig config;
    if (k.disk) {
      config.disk = model::disk_preset(k.preset);
    } else {
      config.device = *model::preset(k.preset);
    }
    auto model = k.disk ? model::make_zoned_disk_device(*config.disk, "fcfs")
                        : model::make_mems_device(config.device, "fcfs");
    ASSERT_NE(model, nullptr);
    auto lun = make_lun(config);
    ASSERT_NE(lun, nullptr);
    auto execute = [&](std::vector<std::uint8_t> cdb) {
      cdb.resize(16, 0);
      ScsiCommand c;
      c.cdb = cdb;
      return lun->execute(c);
    };
    const ScsiResult inq = execute({0x12, 0, 0, 0, 96});
    ASSERT_EQ(inq.status, Status::kGood);
    EXPECT_EQ(std::string(inq.data_in.begin() + 16, inq.data_in.begin() + 32), k.product);
    const ScsiResult cap = execute({0x9E, 0x10, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 32});
    ASSERT_EQ(cap.status, Status::kGood);
    EXPECT_EQ(modepages::get_be64(cap.data_in, 0), static_cast<std::uint64_t>(model->blocks() - 1));

    const std::uint64_t lba = static_cast<std::uint64_t>(model->blocks()) / 3;
    model::Request req;
    req.id = 1;
    req.lbn = static_cast<model::Lbn>(lba);
    req.blocks = 8;
    req.op = model::Op::kRead;
    req.arrival_ns = 1'000'000;
    model->submit(req);
    model::Ns want = -1;
    model->drain([&](const model::Completion& c) { want = c.done_ns; });
    model::Ns got = -1;
    const Lun::Sink sink = [&](ScsiResult r) {
      ASSERT_EQ(r.status, Status::kGood);
      got = r.complete_ns;
    };
    const std::vector<std::uint8_t> cdb = read16(lba, 8);
    ScsiCommand c;
    c.tag = 1;
    c.cdb = cdb;
    c.arrival_ns = 1'000'000;
    lun->submit(c, sink);
    lun->advance(std::numeric_limits<model::Ns>::max() / 2, sink);
    EXPECT_EQ(got, want);
    EXPECT_GT(got, 1'000'000);
  }
}

}  // namespace
}  // namespace memstore::scsi::testing
