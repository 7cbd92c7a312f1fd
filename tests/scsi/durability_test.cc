// SPDX-License-Identifier: Apache-2.0
// Crash tests for FileStore's durability contract: once the LUN could report
// GOOD — after flush() in write-back mode (FUA, SYNCHRONIZE CACHE), after
// write() in write-through mode — the data is in the image, and a SIGKILL of
// the process at any later moment loses none of it.
//
// A child process owns the store, tells the parent over a pipe when a write
// is acknowledged, and keeps writing unacknowledged data until the parent
// kills it with SIGKILL; the parent then reopens the image and checks every
// acknowledged block.
//
// What this cannot test: SIGKILL destroys the process, not the page cache, so
// it proves that GOOD comes after the data has reached the file, not that it
// has reached the disk. Surviving a power loss is what fdatasync adds; testing
// that needs a VM whose virtual disk can be cut off (e.g. QEMU with a
// cache=unsafe disk killed mid-run), which belongs to the VM tests.
#include <gtest/gtest.h>
#include <poll.h>
#include <signal.h>
#include <sys/wait.h>
#include <unistd.h>

#include <cstdlib>
#include <cstring>
#include <filesystem>
#include <string>
#include <vector>

#include "target/scsi/file_store.h"
#include "tests/scsi/temp_dir.h"

namespace memstore::scsi {
namespace {

namespace fs = std::filesystem;

constexpr std::uint32_t kBlockSize = 4096;
constexpr std::uint64_t kBlocks = 1024;
constexpr std::uint64_t kAckedBlocks = 64;  // the first test's acknowledged region
constexpr int kTimeoutMs = 30'000;

using testing::TempDir;

// Block content for `lba` in write `generation`; never all zeros.
std::vector<std::uint8_t> block_data(std::uint64_t lba, std::uint64_t generation) {
  std::vector<std::uint8_t> data(kBlockSize);
  for (std::size_t i = 0; i < data.size(); ++i) {
    data[i] = static_cast<std::uint8_t>(1 + (lba * 131 + generation * 17 + i) % 253);
  }
  return data;
}

void write_fully(int fd, const void* data, std::size_t n) {
  const auto* p = static_cast<const std::uint8_t*>(data);
  while (n > 0) {
    const ssize_t w = ::write(fd, p, n);
    if (w < 0 && errno == EINTR) continue;
    if (w <= 0) ::_exit(3);
    p += w;
    n -= static_cast<std::size_t>(w);
  }
}

// The child side: only async-signal-safe-ish work after fork (the test binary
// is single-threaded), never returns into GoogleTest.
[[noreturn]] void child_fail(int pipe_fd) {
  const char e = 'E';
  write_fully(pipe_fd, &e, 1);
  ::_exit(1);
}

// Keeps overwriting blocks from `first` on, never flushing, until killed.
[[noreturn]] void write_unacknowledged_forever(FileStore& store, std::uint64_t first, int pipe_fd) {
  for (std::uint64_t generation = 1000;; ++generation) {
    for (std::uint64_t lba = first; lba < kBlocks; ++lba) {
      if (!store.write(lba, 1, block_data(lba, generation)).ok()) child_fail(pipe_fd);
    }
  }
}

std::unique_ptr<FileStore> open_or_exit(const std::string& image, DurabilityMode mode,
                                        int pipe_fd) {
  auto result = FileStore::open(image, kBlocks, kBlockSize, mode);
  if (!result.ok()) child_fail(pipe_fd);
  return std::move(result.value());
}

// Runs `child(pipe_write_fd)` in a forked process and returns its pid and the
// read end of the pipe.
template <typename Fn>
std::pair<pid_t, int> spawn(Fn child) {
  int fds[2];
  if (::pipe(fds) != 0) return {-1, -1};
  const pid_t pid = ::fork();
  if (pid == 0) {
    ::close(fds[0]);
    child(fds[1]);
    ::_exit(2);
  }
  ::close(fds[1]);
  return {pid, fds[0]};
}

// Reads exactly n bytes, or fails after the timeout / at end of file.
bool read_exactly(int fd, void* out, std::size_t n) {
  auto* p = static_cast<std::uint8_t*>(out);
  while (n > 0) {
    pollfd pfd{fd, POLLIN, 0};
    if (::poll(&pfd, 1, kTimeoutMs) <= 0) return false;
    const ssize_t r = ::read(fd, p, n);
    if (r < 0 && errno == EINTR) continue;
    if (r <= 0) return false;
    p += r;
    n -= static_cast<std::size_t>(r);
  }
  return true;
}

// SIGKILLs the child and checks that nothing else ended it first.
void kill_child(pid_t pid, int pipe_fd) {
  ASSERT_EQ(::kill(pid, SIGKILL), 0);
  int status = 0;
  ASSERT_EQ(::waitpid(pid, &status, 0), pid);
  ::close(pipe_fd);
  EXPECT_TRUE(WIFSIGNALED(status) && WTERMSIG(status) == SIGKILL)
      << "child ended on its own, status " << status;
}

void expect_blocks(const std::string& image, std::uint64_t first, std::uint64_t count,
                   std::uint64_t generation) {
  auto result = FileStore::open(image, kBlocks, kBlockSize, DurabilityMode::kWriteBack);
  ASSERT_TRUE(result.ok()) << result.error().message;
  FileStore& store = *result.value();
  std::vector<std::uint8_t> got(kBlockSize);
  for (std::uint64_t lba = first; lba < first + count; ++lba) {
    ASSERT_TRUE(store.read(lba, 1, got).ok());
    ASSERT_EQ(got, block_data(lba, generation)) << "acknowledged block " << lba << " lost";
  }
}

// Writes the acknowledged region, makes it durable the mode's way, says GOOD,
// then keeps writing elsewhere until killed.
void acknowledged_region_survives(DurabilityMode mode) {
  TempDir dir;
  const std::string image = dir.file("lun.img");
  const auto [pid, pipe_fd] = spawn([&](int out) {
    auto store = open_or_exit(image, mode, out);
    std::vector<std::uint8_t> data;
    for (std::uint64_t lba = 0; lba < kAckedBlocks; ++lba) {
      const auto block = block_data(lba, 1);
      data.insert(data.end(), block.begin(), block.end());
    }
    if (!store->write(0, kAckedBlocks, data).ok()) child_fail(out);
    if (mode == DurabilityMode::kWriteBack && !store->flush().ok()) child_fail(out);
    const char good = 'G';
    write_fully(out, &good, 1);
    write_unacknowledged_forever(*store, kAckedBlocks, out);
  });
  ASSERT_GT(pid, 0);
  char reply = 0;
  const bool got_reply = read_exactly(pipe_fd, &reply, 1);
  // Let the unacknowledged writes run for a moment, so the kill lands mid-write.
  ::usleep(20'000);
  kill_child(pid, pipe_fd);
  ASSERT_TRUE(got_reply) << "no GOOD from the child";
  ASSERT_EQ(reply, 'G') << "the child failed before GOOD";
  expect_blocks(image, 0, kAckedBlocks, 1);
}

TEST(Durability, FlushedWritesSurviveSigkillInWriteBackMode) {
  acknowledged_region_survives(DurabilityMode::kWriteBack);
}

TEST(Durability, WritesSurviveSigkillInWriteThroughModeWithoutFlush) {
  acknowledged_region_survives(DurabilityMode::kWriteThrough);
}

// Many FUA-style writes (write + flush), each acknowledged as it completes;
// the kill lands at an arbitrary point and every acknowledged one is there.
TEST(Durability, EveryAcknowledgedWriteSurvivesSigkill) {
  TempDir dir;
  const std::string image = dir.file("lun.img");
  const auto [pid, pipe_fd] = spawn([&](int out) {
    auto store = open_or_exit(image, DurabilityMode::kWriteBack, out);
    for (std::uint64_t lba = 0; lba < kBlocks; ++lba) {
      if (!store->write(lba, 1, block_data(lba, 7)).ok() || !store->flush().ok()) child_fail(out);
      const char good = 'G';
      write_fully(out, &good, 1);
    }
    ::pause();  // nothing left to write; wait for the kill
    ::_exit(0);
  });
  ASSERT_GT(pid, 0);
  constexpr std::uint64_t kKillAfter = 100;
  std::uint64_t acked = 0;
  char reply = 0;
  while (acked < kKillAfter && read_exactly(pipe_fd, &reply, 1) && reply == 'G') ++acked;
  kill_child(pid, pipe_fd);
  ASSERT_EQ(acked, kKillAfter) << "the child stopped acknowledging (last reply '" << reply << "')";
  expect_blocks(image, 0, acked, 7);
}

}  // namespace
}  // namespace memstore::scsi
