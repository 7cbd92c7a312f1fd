// SPDX-License-Identifier: Apache-2.0
// `device = "atlas10k"` (or "disk20k"): a LUN that is a zoned rotating disk
// (docs/disk-models.md), its `set` keys, what it refuses, and the error for
// a device nobody knows.
#include <gmock/gmock.h>
#include <gtest/gtest.h>

#include "modepages/bytes.h"
#include "target/daemon/config.h"
#include "target/lunspec/lun_device.h"
#include "target/lunspec/lun_factory.h"

namespace memstore::daemon {
namespace {

using ::testing::HasSubstr;

Expected<Config> lun_with(const std::string& keys) {
  return parse_config("[[target]]\n[[target.lun]]\nbacking = \"memory\"\n" + keys, "d.toml");
}

std::string error_of(const Expected<Config>& r) {
  return r.ok() ? "" : r.error().message;
}

TEST(ConfigDisk, Atlas10kIsADiskLunOfThePresetsCapacity) {
  const auto r = lun_with("device = \"atlas10k\"\ntiming = \"off\"\n");
  ASSERT_TRUE(r.ok()) << error_of(r);
  const lunspec::LunSpec& spec = r.value().targets[0].luns[0];
  ASSERT_TRUE(spec.config.disk.has_value());
  EXPECT_EQ(spec.model_name(), "atlas10k");
  EXPECT_EQ(lunspec::device_blocks(spec), 17'966'953u);
  EXPECT_EQ(lunspec::device_block_bytes(spec), 512u);

  auto opened = lunspec::open_lun(spec, "iqn.2026-11.org.memstore:disk", "target[0].lun[0].");
  ASSERT_TRUE(opened.ok()) << opened.error().message;
  scsi::Lun& lun = *opened.value();
  EXPECT_TRUE(lun.is_disk());
  EXPECT_EQ(lun.blocks(), 17'966'953u);
  // What a host reads: VPD B1h with the rotation rate.
  scsi::ScsiCommand c;
  const std::vector<std::uint8_t> cdb = {0x12, 1, 0xB1, 0, 0xFF, 0};
  c.cdb = cdb;
  const scsi::ScsiResult b1 = lun.execute(c);
  ASSERT_EQ(b1.status, scsi::Status::kGood);
  EXPECT_EQ(modepages::get_be16(b1.data_in, 4), 10025);
}

TEST(ConfigDisk, Disk20kAndTheDisksSetKeys) {
  const auto r =
      lun_with("device = \"disk20k\"\nset = [\"cache_segments = 0\", \"write_back=false\"]\n");
  ASSERT_TRUE(r.ok()) << error_of(r);
  const lunspec::LunSpec& spec = r.value().targets[0].luns[0];
  ASSERT_TRUE(spec.config.disk.has_value());
  EXPECT_EQ(spec.config.disk->rotation_rpm, 20000);
  EXPECT_EQ(spec.config.disk->cache.segments, 0);
  EXPECT_FALSE(spec.config.disk->cache.write_back);

  EXPECT_THAT(error_of(lun_with("device = \"atlas10k\"\nset = [\"active_tips = 1280\"]\n")),
              HasSubstr("d.toml:5: target[0].lun[0].set: unknown key 'active_tips' (a disk "
                        "takes head_switch_ns"));
}

TEST(ConfigDisk, UnknownDeviceNamesTheFieldAndEveryDevice) {
  EXPECT_THAT(error_of(lun_with("device = \"atlas20k\"\n")),
              HasSubstr("d.toml:4: target[0].lun[0].device: unknown preset 'atlas20k'; use g1, "
                        "g2, g3, uysal03, tos05, asplos99-g1, asplos99-g2, asplos99-g3, atlas10k, "
                        "disk20k, cheetah4lp or superdisk"));
  CommandLine cli;
  cli.device = "cheetah";
  EXPECT_THAT(error_of(resolve(cli)),
              HasSubstr("device: unknown preset 'cheetah'; use g1, g2, g3, uysal03, tos05, asplos99-g1, "
                        "asplos99-g2, asplos99-g3, atlas10k, disk20k, cheetah4lp or superdisk"));
  cli.device = "disk20k";
  const auto r = resolve(cli);
  ASSERT_TRUE(r.ok()) << error_of(r);
  EXPECT_EQ(r.value().targets[0].luns[0].model_name(), "disk20k");
}

TEST(ConfigDisk, MemstoreOnlyKeysAreRefusedForADisk) {
  EXPECT_THAT(error_of(lun_with("device = \"atlas10k\"\nrotation_rate = 7200\n")),
              HasSubstr("target[0].lun[0].rotation_rate: atlas10k is a disk and reports its own "
                        "rotation rate"));
  EXPECT_THAT(error_of(lun_with("device = \"atlas10k\"\ndevice_config = \"g2.toml\"\n")),
              HasSubstr("target[0].lun[0].device_config: describes a MEMStore"));
  EXPECT_THAT(error_of(lun_with("device = \"atlas10k\"\n[[target.lun.fault]]\n"
                                "action = \"failed-tip\"\ntip = 3\n")),
              HasSubstr("target[0].lun[0].fault[0].action: \"failed-tip\" needs a MEMStore's"));
  // A medium error by LBA works on a disk, within the disk's capacity.
  const auto ok = lun_with(
      "device = \"atlas10k\"\n[[target.lun.fault]]\n"
      "lba = [17966000, 17966952]\naction = \"medium-error\"\n");
  EXPECT_TRUE(ok.ok()) << error_of(ok);
  EXPECT_THAT(error_of(lun_with("device = \"atlas10k\"\n[[target.lun.fault]]\n"
                                "lba = [0, 17966953]\naction = \"medium-error\"\n")),
              HasSubstr("fault[0].lba"));
}

}  // namespace
}  // namespace memstore::daemon
