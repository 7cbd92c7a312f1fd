// SPDX-License-Identifier: Apache-2.0
// The durability contract end to end through the LUN: after GOOD for a FUA
// WRITE, or for SYNCHRONIZE CACHE after a plain WRITE, SIGKILL of the process
// loses nothing — the data is in the image when it is opened again. (What
// SIGKILL cannot show, power-loss durability, is discussed in
// durability_test.cc.)
#include <gtest/gtest.h>
#include <signal.h>
#include <sys/wait.h>
#include <unistd.h>

#include <cstdlib>
#include <filesystem>
#include <string>
#include <vector>

#include "target/scsi/file_store.h"
#include "target/scsi/lun.h"
#include "tests/scsi/temp_dir.h"

namespace memstore::scsi {
namespace {

std::vector<std::uint8_t> block(std::uint8_t seed) {
  std::vector<std::uint8_t> b(512);
  for (std::size_t i = 0; i < b.size(); ++i) b[i] = static_cast<std::uint8_t>(seed + i);
  return b;
}

std::vector<std::uint8_t> cdb10(std::uint8_t opcode, std::uint8_t flags, std::uint32_t lba) {
  std::vector<std::uint8_t> c(16, 0);
  c[0] = opcode;
  c[1] = flags;
  c[2] = static_cast<std::uint8_t>(lba >> 24);
  c[3] = static_cast<std::uint8_t>(lba >> 16);
  c[4] = static_cast<std::uint8_t>(lba >> 8);
  c[5] = static_cast<std::uint8_t>(lba);
  c[8] = opcode == 0x35 ? 0 : 1;
  return c;
}

// Child: acknowledged writes reported over `fd`, then unacknowledged ones forever.
[[noreturn]] void child(const std::string& image, int fd) {
  auto opened = FileStore::open(image, 6'750'000, 512, DurabilityMode::kWriteBack);
  if (!opened.ok()) std::_Exit(2);
  LunConfig config;
  config.timing.mode = TimingMode::kOff;
  auto created = Lun::create(config, std::move(opened.value()));
  if (!created.ok()) std::_Exit(3);
  Lun& lun = *created.value();
  std::uint64_t tag = 0;
  auto exec = [&](std::vector<std::uint8_t> cdb, const std::vector<std::uint8_t>& out) {
    ScsiCommand c;
    c.tag = ++tag;
    c.cdb = cdb;
    c.data_out = out;
    c.arrival_ns = static_cast<model::Ns>(tag) * 1'000'000;
    return lun.execute(c).status == Status::kGood;
  };
  // FUA write: GOOD means durable.
  if (!exec(cdb10(0x2A, 0x08, 1000), block(1))) std::_Exit(4);
  if (::write(fd, "F", 1) != 1) std::_Exit(5);
  // Plain write, then SYNCHRONIZE CACHE: its GOOD makes both durable.
  if (!exec(cdb10(0x2A, 0, 2000), block(2))) std::_Exit(6);
  if (!exec(cdb10(0x35, 0, 0), {})) std::_Exit(7);
  if (::write(fd, "S", 1) != 1) std::_Exit(8);
  for (std::uint8_t i = 0;; ++i) exec(cdb10(0x2A, 0, 3000 + i), block(i));
}

TEST(LunDurability, AcknowledgedDataSurvivesSigkill) {
  const testing::TempDir dir;
  const std::string image = dir.file("g2.img");
  int fds[2];
  ASSERT_EQ(::pipe(fds), 0);
  const pid_t pid = ::fork();
  ASSERT_GE(pid, 0);
  if (pid == 0) {
    ::close(fds[0]);
    child(image, fds[1]);
  }
  ::close(fds[1]);
  char acks[2] = {};
  ASSERT_EQ(::read(fds[0], &acks[0], 1), 1);
  ASSERT_EQ(::read(fds[0], &acks[1], 1), 1);
  EXPECT_EQ(std::string(acks, 2), "FS");
  ::kill(pid, SIGKILL);
  int status = 0;
  ::waitpid(pid, &status, 0);
  EXPECT_TRUE(WIFSIGNALED(status) && WTERMSIG(status) == SIGKILL);
  ::close(fds[0]);

  auto reopened = FileStore::open(image, 6'750'000, 512, DurabilityMode::kWriteBack);
  ASSERT_TRUE(reopened.ok());
  auto& store = *reopened.value();
  std::vector<std::uint8_t> got(512);
  ASSERT_TRUE(store.read(1000, 1, got).ok());
  EXPECT_EQ(got, block(1));
  ASSERT_TRUE(store.read(2000, 1, got).ok());
  EXPECT_EQ(got, block(2));
}

}  // namespace
}  // namespace memstore::scsi
