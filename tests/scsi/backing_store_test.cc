// SPDX-License-Identifier: Apache-2.0
#include "target/scsi/backing_store.h"

#include <fcntl.h>
#include <gmock/gmock.h>
#include <gtest/gtest.h>
#include <sys/stat.h>
#include <unistd.h>

#include <cerrno>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <functional>
#include <limits>
#include <memory>
#include <sstream>
#include <string>
#include <utility>
#include <vector>

#include "target/scsi/file_store.h"
#include "target/scsi/lun_identity.h"
#include "target/scsi/memory_store.h"
#include "tests/scsi/temp_dir.h"

namespace memstore::scsi {

// For readable failure messages (found by argument-dependent lookup).
void PrintTo(const LunIdentityRecord& id, std::ostream* os) {
  *os << "{serial " << id.serial << ", naa 0x" << std::hex << id.naa_id << std::dec << "}";
}

namespace {

namespace fs = std::filesystem;
using ::testing::AllOf;
using ::testing::HasSubstr;
using ::testing::Not;

using testing::TempDir;

// The success value, or a test failure with the error's message.
template <typename T>
T value_or_fail(Expected<T> result) {
  if (!result.ok()) {
    ADD_FAILURE() << "unexpected error: " << result.error().message;
    return T{};
  }
  return std::move(result.value());
}

template <typename T>
Error error_or_fail(Expected<T> result) {
  if (!result.ok()) return result.error();
  ADD_FAILURE() << "expected an error";
  return Error{""};
}

std::vector<std::uint8_t> pattern(std::uint64_t lba, std::uint64_t count, std::uint32_t bs,
                                  std::uint8_t seed = 1) {
  std::vector<std::uint8_t> data(count * bs);
  for (std::size_t i = 0; i < data.size(); ++i) {
    // Nonzero everywhere, and different per block, per offset and per seed.
    data[i] = static_cast<std::uint8_t>(1 + (lba * bs + i + std::uint64_t{seed} * 7) % 251);
  }
  return data;
}

std::vector<std::uint8_t> read_blocks(BackingStore& s, std::uint64_t lba, std::uint64_t count) {
  std::vector<std::uint8_t> out(count * s.block_size(), 0xEE);
  const StoreStatus st = s.read(lba, count, out);
  EXPECT_TRUE(st.ok()) << st.error().message;
  return out;
}

std::vector<std::uint8_t> zeros(std::uint64_t count, std::uint32_t bs) {
  return std::vector<std::uint8_t>(count * bs, 0);
}

struct stat stat_of(const std::string& path) {
  struct stat st {};
  EXPECT_EQ(::stat(path.c_str(), &st), 0) << path;
  return st;
}

// ---------------------------------------------------------------------------
// The BackingStore contract, for every store.

struct StoreKind {
  std::string name;
  std::uint32_t block_size;
  std::function<std::unique_ptr<BackingStore>(const TempDir&, std::uint64_t, std::uint32_t)> make;
};

std::unique_ptr<BackingStore> make_file(const TempDir& dir, std::uint64_t blocks, std::uint32_t bs,
                                        DurabilityMode mode) {
  return value_or_fail(FileStore::open(dir.file("lun.img"), blocks, bs, mode));
}

std::vector<StoreKind> store_kinds() {
  return {
      {"FileWriteBack", 512,
       [](const TempDir& d, std::uint64_t b, std::uint32_t bs) {
         return make_file(d, b, bs, DurabilityMode::kWriteBack);
       }},
      {"FileWriteThrough", 4096,
       [](const TempDir& d, std::uint64_t b, std::uint32_t bs) {
         return make_file(d, b, bs, DurabilityMode::kWriteThrough);
       }},
      {"File520", 520,
       [](const TempDir& d, std::uint64_t b, std::uint32_t bs) {
         return make_file(d, b, bs, DurabilityMode::kWriteBack);
       }},
      {"Memory", 512,
       [](const TempDir&, std::uint64_t b, std::uint32_t bs) -> std::unique_ptr<BackingStore> {
         return value_or_fail(MemoryStore::create(b, bs));
       }},
      {"Memory520", 520,
       [](const TempDir&, std::uint64_t b, std::uint32_t bs) -> std::unique_ptr<BackingStore> {
         return value_or_fail(MemoryStore::create(b, bs));
       }},
  };
}

class StoreContract : public ::testing::TestWithParam<StoreKind> {
 protected:
  static constexpr std::uint64_t kBlocks = 1024;
  void SetUp() override {
    bs_ = GetParam().block_size;
    store_ = GetParam().make(dir_, kBlocks, bs_);
    ASSERT_NE(store_, nullptr);
  }
  void write(std::uint64_t lba, std::uint64_t count, std::uint8_t seed = 1) {
    const StoreStatus st = store_->write(lba, count, pattern(lba, count, bs_, seed));
    ASSERT_TRUE(st.ok()) << st.error().message;
  }

  TempDir dir_;
  std::uint32_t bs_ = 0;
  std::unique_ptr<BackingStore> store_;
};

TEST_P(StoreContract, ReportsItsSize) {
  EXPECT_EQ(store_->blocks(), kBlocks);
  EXPECT_EQ(store_->block_size(), bs_);
}

TEST_P(StoreContract, NewStoreReadsZeros) {
  EXPECT_EQ(read_blocks(*store_, 0, kBlocks), zeros(kBlocks, bs_));
}

TEST_P(StoreContract, ReadsBackWhatWasWritten) {
  write(0, 1, 1);
  write(120, 20, 2);  // crosses a 64 KiB chunk boundary for 512-byte blocks
  write(kBlocks - 3, 3, 3);
  EXPECT_EQ(read_blocks(*store_, 0, 1), pattern(0, 1, bs_, 1));
  EXPECT_EQ(read_blocks(*store_, 120, 20), pattern(120, 20, bs_, 2));
  EXPECT_EQ(read_blocks(*store_, 125, 5), pattern(125, 5, bs_, 2));
  EXPECT_EQ(read_blocks(*store_, kBlocks - 3, 3), pattern(kBlocks - 3, 3, bs_, 3));
  EXPECT_EQ(read_blocks(*store_, 1, 119), zeros(119, bs_));
}

TEST_P(StoreContract, OverwriteReplacesData) {
  write(10, 8, 1);
  write(12, 2, 9);
  EXPECT_EQ(read_blocks(*store_, 10, 2), pattern(10, 2, bs_, 1));
  EXPECT_EQ(read_blocks(*store_, 12, 2), pattern(12, 2, bs_, 9));
  EXPECT_EQ(read_blocks(*store_, 14, 4), pattern(14, 4, bs_, 1));
}

TEST_P(StoreContract, UnmappedBlocksReadZerosAndNeighboursStay) {
  write(0, kBlocks);
  const StoreStatus st = store_->unmap(101, 300);
  ASSERT_TRUE(st.ok()) << st.error().message;
  EXPECT_EQ(read_blocks(*store_, 0, 101), pattern(0, 101, bs_));
  EXPECT_EQ(read_blocks(*store_, 101, 300), zeros(300, bs_));
  EXPECT_EQ(read_blocks(*store_, 401, kBlocks - 401), pattern(401, kBlocks - 401, bs_));
}

TEST_P(StoreContract, UnmapOfNeverWrittenBlocksIsFine) {
  EXPECT_TRUE(store_->unmap(0, kBlocks).ok());
  EXPECT_EQ(read_blocks(*store_, 0, kBlocks), zeros(kBlocks, bs_));
}

TEST_P(StoreContract, WriteAfterUnmap) {
  write(0, 256, 1);
  ASSERT_TRUE(store_->unmap(0, 256).ok());
  write(64, 1, 5);
  EXPECT_EQ(read_blocks(*store_, 64, 1), pattern(64, 1, bs_, 5));
  EXPECT_EQ(read_blocks(*store_, 0, 64), zeros(64, bs_));
}

TEST_P(StoreContract, OutOfRangeIsAnErrorAndTouchesNothing) {
  const std::uint64_t max = std::numeric_limits<std::uint64_t>::max();
  struct Range {
    std::uint64_t lba, count;
  };
  for (const Range r : {Range{kBlocks, 1}, Range{kBlocks - 1, 2}, Range{0, kBlocks + 1},
                        Range{max, 2}, Range{2, max}}) {
    SCOPED_TRACE(::testing::Message() << "lba " << r.lba << " count " << r.count);
    // Buffers sized for one block: the range check comes first and must not
    // read or write them (count * block_size may overflow).
    std::vector<std::uint8_t> buf(bs_, 0xAB);
    const StoreStatus rd = store_->read(r.lba, r.count, buf);
    ASSERT_FALSE(rd.ok());
    EXPECT_EQ(rd.error().errno_value, ERANGE);
    EXPECT_THAT(rd.error().message, AllOf(HasSubstr("read"), HasSubstr("beyond the end")));
    EXPECT_EQ(buf, std::vector<std::uint8_t>(bs_, 0xAB));
    const StoreStatus wr = store_->write(r.lba, r.count, buf);
    ASSERT_FALSE(wr.ok());
    EXPECT_EQ(wr.error().errno_value, ERANGE);
    const StoreStatus um = store_->unmap(r.lba, r.count);
    ASSERT_FALSE(um.ok());
    EXPECT_EQ(um.error().errno_value, ERANGE);
  }
  EXPECT_EQ(read_blocks(*store_, 0, kBlocks), zeros(kBlocks, bs_));
}

TEST_P(StoreContract, BufferOfTheWrongSizeIsAnError) {
  std::vector<std::uint8_t> buf(2 * bs_ + 1);
  const StoreStatus rd = store_->read(0, 2, buf);
  ASSERT_FALSE(rd.ok());
  EXPECT_EQ(rd.error().errno_value, EINVAL);
  EXPECT_THAT(rd.error().message, HasSubstr("needs a buffer of " + std::to_string(2 * bs_)));
  const StoreStatus wr = store_->write(0, 3, buf);
  ASSERT_FALSE(wr.ok());
  EXPECT_EQ(wr.error().errno_value, EINVAL);
  EXPECT_EQ(read_blocks(*store_, 0, 3), zeros(3, bs_));
}

TEST_P(StoreContract, ZeroBlocksIsANoOp) {
  EXPECT_TRUE(store_->read(5, 0, {}).ok());
  EXPECT_TRUE(store_->write(5, 0, {}).ok());
  EXPECT_TRUE(store_->unmap(5, 0).ok());
  EXPECT_TRUE(store_->read(kBlocks, 0, {}).ok());  // at the end: still in range
}

TEST_P(StoreContract, FlushSucceeds) {
  write(3, 4);
  const StoreStatus st = store_->flush();
  EXPECT_TRUE(st.ok()) << st.error().message;
  EXPECT_EQ(read_blocks(*store_, 3, 4), pattern(3, 4, bs_));
}

// GET LBA STATUS: written blocks are never reported deallocated, and the
// answer stays inside the asked range.
TEST_P(StoreContract, ProvisioningNeverCallsWrittenBlocksDeallocated) {
  write(100, 10);
  for (std::uint64_t lba = 100; lba < 110; ++lba) {
    const BackingStore::Extent e = store_->provisioning(lba, kBlocks);
    EXPECT_TRUE(e.mapped) << "LBA " << lba;
    EXPECT_GE(e.blocks, 1U);
    EXPECT_LE(lba + e.blocks, kBlocks);
  }
  const BackingStore::Extent capped = store_->provisioning(100, 3);
  EXPECT_TRUE(capped.mapped);
  EXPECT_EQ(capped.blocks, 3U);
  const BackingStore::Extent last = store_->provisioning(kBlocks - 1, kBlocks);
  EXPECT_EQ(last.blocks, 1U);
}

INSTANTIATE_TEST_SUITE_P(AllStores, StoreContract, ::testing::ValuesIn(store_kinds()),
                         [](const auto& param_info) { return param_info.param.name; });

// ---------------------------------------------------------------------------
// FileStore

class FileStoreTest : public ::testing::Test {
 protected:
  std::unique_ptr<FileStore> open(std::uint64_t blocks, std::uint32_t bs = 512,
                                  DurabilityMode mode = DurabilityMode::kWriteBack) {
    return value_or_fail(FileStore::open(image_, blocks, bs, mode));
  }
  Error open_error(std::uint64_t blocks, std::uint32_t bs = 512) {
    return error_or_fail(FileStore::open(image_, blocks, bs, DurabilityMode::kWriteBack));
  }
  void make_file_of_size(std::uint64_t bytes) {
    std::ofstream(image_).close();
    fs::resize_file(image_, bytes);
  }

  TempDir dir_;
  std::string image_ = dir_.file("lun.img");
};

TEST_F(FileStoreTest, CreatesASparseFileOfExactlyTheLunSize) {
  constexpr std::uint64_t kG2Blocks = 6'750'000;  // G2: 3.456 GB
  const auto store = open(kG2Blocks);
  ASSERT_NE(store, nullptr);
  const struct stat st = stat_of(image_);
  EXPECT_TRUE(S_ISREG(st.st_mode));
  EXPECT_EQ(static_cast<std::uint64_t>(st.st_size), kG2Blocks * 512);
  EXPECT_LT(st.st_blocks, 64) << "allocated " << st.st_blocks << " 512-byte units";
  EXPECT_EQ(st.st_mode & 0777, 0600);
}

TEST_F(FileStoreTest, KeepsDataAcrossReopen) {
  {
    const auto store = open(64);
    ASSERT_NE(store, nullptr);
    ASSERT_TRUE(store->write(7, 3, pattern(7, 3, 512)).ok());
  }
  const auto store = open(64);
  ASSERT_NE(store, nullptr);
  EXPECT_EQ(read_blocks(*store, 7, 3), pattern(7, 3, 512));
}

TEST_F(FileStoreTest, RefusesAnExistingFileOfAnotherSize) {
  make_file_of_size(1 << 20);
  const Error e = open_error(4096);  // 2 MiB
  EXPECT_EQ(e.errno_value, EINVAL);
  EXPECT_THAT(e.message,
              AllOf(HasSubstr(image_), HasSubstr("is 1048576 bytes"),
                    HasSubstr("4096 blocks of 512 bytes = 2097152 bytes"),
                    HasSubstr("it holds 2048 blocks"), HasSubstr("point `backing` at another file"),
                    HasSubstr("truncate -s 2097152 " + image_)));
  EXPECT_EQ(fs::file_size(image_), 1U << 20) << "the file must be left alone";
}

TEST_F(FileStoreTest, WrongSizeThatIsNotWholeBlocksSuggestsNoBlockCount) {
  make_file_of_size(1000);
  const Error e = open_error(4);
  EXPECT_THAT(e.message, AllOf(HasSubstr("not a whole number of 512-byte blocks"),
                               Not(HasSubstr("it holds")), HasSubstr("remove the file")));
}

TEST_F(FileStoreTest, RefusesAnEmptyExistingFile) {
  make_file_of_size(0);
  const Error e = open_error(4);
  EXPECT_THAT(e.message, AllOf(HasSubstr("is 0 bytes"), Not(HasSubstr("it holds 0"))));
}

TEST_F(FileStoreTest, MissingDirectoryIsAClearError) {
  image_ = dir_.file("no-such-dir/lun.img");
  const Error e = open_error(8);
  EXPECT_EQ(e.errno_value, ENOENT);
  EXPECT_THAT(e.message,
              AllOf(HasSubstr("cannot create image " + image_),
                    HasSubstr("directory " + dir_.file("no-such-dir") + " does not exist")));
}

TEST_F(FileStoreTest, RefusesSomethingThatIsNotARegularFile) {
  ASSERT_EQ(::mkfifo(image_.c_str(), 0600), 0);
  const Error e = open_error(8);
  EXPECT_THAT(e.message, HasSubstr(image_ + " is not a regular file"));
  image_ = dir_.path().string();
  EXPECT_THAT(open_error(8).message, HasSubstr("cannot open image " + image_));
}

TEST_F(FileStoreTest, RefusesAnImageInUse) {
  auto first = open(8);
  ASSERT_NE(first, nullptr);
  const Error e = open_error(8);
  EXPECT_THAT(e.message, AllOf(HasSubstr(image_), HasSubstr("in use")));
  first.reset();
  EXPECT_NE(open(8), nullptr) << "the lock goes with the store";
}

TEST_F(FileStoreTest, RefusesImpossibleSizesWithoutCreatingAFile) {
  EXPECT_EQ(open_error(0).errno_value, EINVAL);
  EXPECT_EQ(open_error(8, 0).errno_value, EINVAL);
  const Error big = open_error(std::uint64_t{1} << 62, 4096);
  EXPECT_EQ(big.errno_value, EFBIG);
  EXPECT_THAT(big.message, HasSubstr("too large"));
  EXPECT_FALSE(fs::exists(image_));
}

TEST_F(FileStoreTest, NewFileTheFileSystemCannotHoldIsRemoved) {
  // 2^52 bytes (4 PiB): beyond ext4's 16 TiB limit, within off_t.
  auto result = FileStore::open(image_, std::uint64_t{1} << 40, 4096, DurabilityMode::kWriteBack);
  if (result.ok()) {
    GTEST_SKIP() << "this file system holds 4 PiB sparse files";
  }
  EXPECT_THAT(result.error().message, HasSubstr("cannot size new image"));
  EXPECT_FALSE(fs::exists(image_));
}

TEST_F(FileStoreTest, PunchingAHoleGivesSpaceBack) {
  constexpr std::uint64_t kBlocks = 4096;  // 2 MiB
  const auto store = open(kBlocks);
  ASSERT_NE(store, nullptr);
  ASSERT_TRUE(store->write(0, kBlocks, pattern(0, kBlocks, 512)).ok());
  ASSERT_TRUE(store->flush().ok());  // allocate now, not at writeback time
  const auto before = stat_of(image_).st_blocks;
  ASSERT_GE(before, static_cast<blkcnt_t>(kBlocks)) << "data not allocated";
  ASSERT_TRUE(store->unmap(1024, 2048).ok());
  if (!store->punches_holes()) GTEST_SKIP() << "this file system cannot punch holes";
  const auto after = stat_of(image_).st_blocks;
  EXPECT_LE(after, before - 2048 + 16) << "before " << before << ", after " << after;
  EXPECT_EQ(fs::file_size(image_), kBlocks * 512) << "punching keeps the size";
  EXPECT_EQ(read_blocks(*store, 1024, 2048), zeros(2048, 512));
  EXPECT_EQ(read_blocks(*store, 3072, 1024), pattern(3072, 1024, 512));
}

TEST_F(FileStoreTest, ProvisioningFollowsTheFilesHoles) {
  constexpr std::uint64_t kBlocks = 4096;  // 2 MiB
  const auto store = open(kBlocks);
  ASSERT_NE(store, nullptr);
  ASSERT_TRUE(store->write(1024, 2048, pattern(1024, 2048, 512)).ok());
  ASSERT_TRUE(store->flush().ok());
  const BackingStore::Extent head = store->provisioning(0, kBlocks);
  if (head.mapped) GTEST_SKIP() << "this file system does not report holes (SEEK_HOLE)";
  EXPECT_EQ(head.blocks, 1024U);
  EXPECT_EQ(store->provisioning(10, kBlocks).blocks, 1014U);
  const BackingStore::Extent data = store->provisioning(1024, kBlocks);
  EXPECT_TRUE(data.mapped);
  EXPECT_EQ(data.blocks, 2048U);
  const BackingStore::Extent tail = store->provisioning(3072, kBlocks);
  EXPECT_FALSE(tail.mapped);
  EXPECT_EQ(tail.blocks, 1024U);
  // Unmapping whole file system blocks makes them deallocated again.
  ASSERT_TRUE(store->unmap(1024, 1024).ok());
  if (!store->punches_holes()) GTEST_SKIP() << "this file system cannot punch holes";
  const BackingStore::Extent punched = store->provisioning(0, kBlocks);
  EXPECT_FALSE(punched.mapped);
  EXPECT_EQ(punched.blocks, 2048U);
  EXPECT_TRUE(store->provisioning(2048, kBlocks).mapped);
}

TEST_F(FileStoreTest, VolatileCacheFollowsTheDurabilityMode) {
  EXPECT_TRUE(open(8, 512, DurabilityMode::kWriteBack)->volatile_cache());
  EXPECT_FALSE(open(8, 512, DurabilityMode::kWriteThrough)->volatile_cache());
}

TEST_F(FileStoreTest, DescribeNamesTheFileSizeAndMode) {
  const auto store = open(8, 4096, DurabilityMode::kWriteThrough);
  EXPECT_EQ(store->describe(), "image file " + image_ + " (8 blocks of 4096 bytes, write-through)");
  EXPECT_EQ(store->path(), image_);
}

TEST_F(FileStoreTest, DescriptorIsCloseOnExec) {
  const auto store = open(8);
  ASSERT_NE(store, nullptr);
  int found = 0;
  for (const auto& entry : fs::directory_iterator("/proc/self/fd")) {
    std::error_code ec;
    if (fs::read_symlink(entry.path(), ec) != fs::path(image_)) continue;
    const int fd = std::stoi(entry.path().filename().string());
    EXPECT_NE(::fcntl(fd, F_GETFD) & FD_CLOEXEC, 0);
    ++found;
  }
  EXPECT_EQ(found, 1);
}

// ---------------------------------------------------------------------------
// MemoryStore

TEST(MemoryStore, AG2SizedLunCostsOnlyWhatIsWritten) {
  const auto store = value_or_fail(MemoryStore::create(6'750'000, 512));
  ASSERT_NE(store, nullptr);
  EXPECT_EQ(store->resident_bytes(), 0U);
  ASSERT_TRUE(store->write(6'000'000, 1, pattern(6'000'000, 1, 512)).ok());
  EXPECT_EQ(store->resident_bytes(), 4096U);  // one page's unit, not a 64 KiB chunk
  EXPECT_EQ(read_blocks(*store, 6'000'000, 1), pattern(6'000'000, 1, 512));
  EXPECT_EQ(read_blocks(*store, 6'749'999, 1), zeros(1, 512));
}

TEST(MemoryStore, UnmapFreesUnitsThatBecomeEmpty) {
  const auto store = value_or_fail(MemoryStore::create(1024, 512));  // 8 blocks per unit
  ASSERT_TRUE(store->write(0, 16, pattern(0, 16, 512)).ok());
  EXPECT_EQ(store->resident_bytes(), 2U * 4096);
  ASSERT_TRUE(store->unmap(8, 8).ok());  // a whole unit
  EXPECT_EQ(store->resident_bytes(), 4096U);
  ASSERT_TRUE(store->unmap(0, 5).ok());  // part of a unit: kept
  EXPECT_EQ(store->resident_bytes(), 4096U);
  EXPECT_EQ(read_blocks(*store, 5, 3), pattern(5, 3, 512));
  ASSERT_TRUE(store->unmap(5, 3).ok());  // the rest of it
  EXPECT_EQ(store->resident_bytes(), 0U);
  EXPECT_EQ(read_blocks(*store, 0, 16), zeros(16, 512));
}

// With 520-byte blocks, units and pages do not line up: giving whole pages
// back must not take a byte of the blocks around the range.
TEST(MemoryStore, UnmapKeepsTheBlocksAroundTheRange) {
  const auto store = value_or_fail(MemoryStore::create(64, 520));  // 7 blocks per unit
  ASSERT_TRUE(store->write(0, 40, pattern(0, 40, 520)).ok());
  ASSERT_TRUE(store->unmap(3, 30).ok());  // pages 1..3 lie wholly inside
  EXPECT_EQ(read_blocks(*store, 0, 3), pattern(0, 3, 520));
  EXPECT_EQ(read_blocks(*store, 3, 30), zeros(30, 520));
  EXPECT_EQ(read_blocks(*store, 33, 7), pattern(33, 7, 520));
  // Units 1..3 (blocks 7..27) lay wholly inside the range; units 0, 4 and 5 keep data.
  EXPECT_EQ(store->resident_bytes(), 3U * 7 * 520);
  ASSERT_TRUE(store->write(10, 1, pattern(10, 1, 520)).ok());  // a freed unit takes data again
  EXPECT_EQ(read_blocks(*store, 9, 3), [] {
    Bytes b = zeros(1, 520);
    const Bytes p = pattern(10, 1, 520);
    b.insert(b.end(), p.begin(), p.end());
    const Bytes z = zeros(1, 520);
    b.insert(b.end(), z.begin(), z.end());
    return b;
  }());
}

TEST(MemoryStore, ProvisioningIsTheUnitMap) {
  const auto store = value_or_fail(MemoryStore::create(1024, 512));  // 8 blocks per unit
  auto extent = [&](std::uint64_t lba, std::uint64_t max) {
    const BackingStore::Extent e = store->provisioning(lba, max);
    return std::make_pair(e.mapped, e.blocks);
  };
  EXPECT_EQ(extent(0, 1024), std::make_pair(false, std::uint64_t{1024}));
  ASSERT_TRUE(store->write(300, 1, pattern(300, 1, 512)).ok());  // unit 37: blocks 296..303
  ASSERT_TRUE(store->write(600, 1, pattern(600, 1, 512)).ok());  // unit 75: blocks 600..607
  EXPECT_EQ(extent(0, 1024), std::make_pair(false, std::uint64_t{296}));
  EXPECT_EQ(extent(10, 1024), std::make_pair(false, std::uint64_t{286}));
  EXPECT_EQ(extent(296, 1024), std::make_pair(true, std::uint64_t{8}));
  EXPECT_EQ(extent(304, 1024), std::make_pair(false, std::uint64_t{296}));
  EXPECT_EQ(extent(600, 1024), std::make_pair(true, std::uint64_t{8}));
  EXPECT_EQ(extent(608, 1024), std::make_pair(false, std::uint64_t{416}));
  EXPECT_EQ(extent(0, 100), std::make_pair(false, std::uint64_t{100}));
  EXPECT_EQ(extent(297, 3), std::make_pair(true, std::uint64_t{3}));
  ASSERT_TRUE(store->write(304, 296, pattern(304, 296, 512)).ok());  // fills the gap
  EXPECT_EQ(extent(296, 1024), std::make_pair(true, std::uint64_t{312}));
  ASSERT_TRUE(store->unmap(296, 312).ok());  // every unit becomes empty
  EXPECT_EQ(extent(0, 1024), std::make_pair(false, std::uint64_t{1024}));
}

TEST(MemoryStore, UnitsHoldWholeBlocks) {
  EXPECT_EQ(value_or_fail(MemoryStore::create(8, 512))->unit_bytes(), 4096U);
  EXPECT_EQ(value_or_fail(MemoryStore::create(8, 520))->unit_bytes(), 7U * 520);
  EXPECT_EQ(value_or_fail(MemoryStore::create(8, 1 << 20))->unit_bytes(), 1U << 20);
}

TEST(MemoryStore, HasNoVolatileCache) {
  const auto store = value_or_fail(MemoryStore::create(8, 512));
  EXPECT_FALSE(store->volatile_cache());
  EXPECT_EQ(store->describe(), "memory store (8 blocks of 512 bytes)");
}

TEST(MemoryStore, RefusesImpossibleSizes) {
  EXPECT_EQ(error_or_fail(MemoryStore::create(0, 512)).errno_value, EINVAL);
  EXPECT_EQ(error_or_fail(MemoryStore::create(8, 0)).errno_value, EINVAL);
  EXPECT_THAT(error_or_fail(MemoryStore::create(std::uint64_t{1} << 60, 4096)).message,
              HasSubstr("more than 2^64 bytes"));
  // 2^59 bytes: more than any x86-64 or arm64 address space maps.
  const Error e = error_or_fail(MemoryStore::create(std::uint64_t{1} << 50, 512));
  EXPECT_EQ(e.errno_value, ENOMEM);
  EXPECT_THAT(e.message, HasSubstr("address space"));
}

// ---------------------------------------------------------------------------
// LUN identity

std::string slurp(const std::string& path) {
  std::ifstream in(path);
  std::stringstream ss;
  ss << in.rdbuf();
  return ss.str();
}

bool is_upper_hex16(const std::string& s) {
  return s.size() == 16 && s.find_first_not_of("0123456789ABCDEF") == std::string::npos;
}

TEST(LunIdentity, IsCreatedOnceAndPersists) {
  TempDir dir;
  const std::string image = dir.file("lun.img");
  const LunIdentityRecord first = value_or_fail(load_or_create_identity(image));
  EXPECT_TRUE(is_upper_hex16(first.serial)) << first.serial;
  EXPECT_EQ(first.naa_id >> 60, 3U) << "NAA 3: locally assigned";
  EXPECT_TRUE(fs::exists(image + ".identity"));
  EXPECT_EQ(identity_path(image), image + ".identity");
  const LunIdentityRecord again = value_or_fail(load_or_create_identity(image));
  EXPECT_EQ(again, first);
}

TEST(LunIdentity, DiffersBetweenImages) {
  TempDir dir;
  const auto a = value_or_fail(load_or_create_identity(dir.file("a.img")));
  const auto b = value_or_fail(load_or_create_identity(dir.file("b.img")));
  EXPECT_NE(a.serial, b.serial);
  EXPECT_NE(a.naa_id, b.naa_id);
}

TEST(LunIdentity, FileIsTheDocumentedTextAndLeavesNoTemporaries) {
  TempDir dir;
  const std::string image = dir.file("lun.img");
  const auto id = value_or_fail(load_or_create_identity(image));
  const std::string text = slurp(image + ".identity");
  EXPECT_EQ(text, format_identity(id, image));
  EXPECT_THAT(text, AllOf(HasSubstr("serial = " + id.serial + "\n"), HasSubstr("naa = 0x3")));
  EXPECT_EQ(value_or_fail(parse_identity(text, "x")), id);
  int files = 0;
  for ([[maybe_unused]] const auto& entry : fs::directory_iterator(dir.path())) ++files;
  EXPECT_EQ(files, 1);
}

TEST(LunIdentity, AcceptsAHandEditedFile) {
  const auto id = value_or_fail(parse_identity(
      "# moved from the old array\n\n  serial   =  DISK-0042  \r\nnaa=0X5001405abcdef012\n",
      "edited"));
  EXPECT_EQ(id.serial, "DISK-0042");
  EXPECT_EQ(id.naa_id, 0x5001405abcdef012U);
}

struct Malformed {
  std::string text;
  std::string message;
};

class LunIdentityMalformed : public ::testing::TestWithParam<Malformed> {};

TEST_P(LunIdentityMalformed, IsAnErrorNamingTheLine) {
  const Error e = error_or_fail(parse_identity(GetParam().text, "f.identity"));
  EXPECT_EQ(e.errno_value, EINVAL);
  EXPECT_THAT(e.message, HasSubstr(GetParam().message));
}

INSTANTIATE_TEST_SUITE_P(
    Cases, LunIdentityMalformed,
    ::testing::Values(
        Malformed{"", "f.identity: missing `serial`"},
        Malformed{"serial = ABC\n", "f.identity: missing `naa`"},
        Malformed{"naa = 0x3000000000000001\n", "f.identity: missing `serial`"},
        Malformed{"just words\n", "f.identity:1: expected `key = value`"},
        Malformed{"color = red\n", "f.identity:1: unknown key `color`"},
        Malformed{"serial = A\nserial = B\n", "f.identity:2: `serial` given twice"},
        Malformed{"serial =\n", "f.identity:1: serial must be 1 to 64 characters"},
        Malformed{"serial = " + std::string(65, 'A') + "\n", "serial must be 1 to 64"},
        Malformed{"serial = two words\n", "f.identity:1: serial must be printable ASCII"},
        Malformed{"serial = A\n# c\nnaa = 0x3\n", "f.identity:3: naa must be 0x followed by"},
        Malformed{"naa = 3000000000000001\n", "f.identity:1: naa must be 0x"},
        Malformed{"naa = 0x30000000000000ZZ\n", "f.identity:1: naa must be 0x"},
        Malformed{"naa = 0x30000000000000011\n", "f.identity:1: naa must be 0x"},
        Malformed{"naa = 0x-300000000000001\n", "f.identity:1: naa must be 0x"},
        Malformed{"naa = 0x6000000000000001\n", "f.identity:1: naa must start with NAA field"},
        Malformed{"naa = 0x3000000000000001\nnaa = 0x3000000000000001\n",
                  "f.identity:2: `naa` given twice"}));

TEST(LunIdentity, MalformedFileIsAClearErrorAndIsLeftAlone) {
  TempDir dir;
  const std::string image = dir.file("lun.img");
  const std::string bad = "serial = ABC\nnaa = 0xnothex\n";
  std::ofstream(image + ".identity") << bad;
  const Error e = error_or_fail(load_or_create_identity(image));
  EXPECT_THAT(e.message, AllOf(HasSubstr(image + ".identity:2: naa must be"),
                               HasSubstr("delete it to give the LUN a new identity")));
  EXPECT_EQ(slurp(image + ".identity"), bad);
}

TEST(LunIdentity, OversizedFileIsRefused) {
  TempDir dir;
  const std::string image = dir.file("lun.img");
  std::ofstream(image + ".identity") << std::string(5000, '#');
  EXPECT_THAT(error_or_fail(load_or_create_identity(image)).message,
              HasSubstr("is not a LUN identity file"));
}

TEST(LunIdentity, MissingDirectoryIsAClearError) {
  TempDir dir;
  const Error e = error_or_fail(load_or_create_identity(dir.file("gone/lun.img")));
  EXPECT_EQ(e.errno_value, ENOENT);
  EXPECT_THAT(e.message, HasSubstr("directory " + dir.file("gone") + " does not exist"));
}

TEST(LunIdentity, ForANameIsFixedAndDistinct) {
  const LunIdentityRecord a = identity_for_name("iqn.2024-01.org.memstore:g2/0");
  EXPECT_EQ(identity_for_name("iqn.2024-01.org.memstore:g2/0"), a);
  EXPECT_TRUE(is_upper_hex16(a.serial)) << a.serial;
  EXPECT_EQ(a.naa_id >> 60, 3U);
  const LunIdentityRecord b = identity_for_name("iqn.2024-01.org.memstore:g2/1");
  EXPECT_NE(a.serial, b.serial);
  EXPECT_NE(a.naa_id, b.naa_id);
  // Pinned: hosts key on these, so they must not change between releases.
  EXPECT_EQ(identity_for_name("lun0"), (LunIdentityRecord{"74D1467F0FBC13C5", 0x3E32E63F03C34458}));
}

}  // namespace
}  // namespace memstore::scsi
