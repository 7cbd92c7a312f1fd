// SPDX-License-Identifier: Apache-2.0
// The write log (target/scsi/write_log.h): dm-log-writes' layout byte for
// byte, and every operation read back in order.
#include "target/scsi/write_log.h"

#include <gmock/gmock.h>
#include <gtest/gtest.h>

#include <fstream>
#include <iterator>

#include "target/scsi/memory_store.h"
#include "target/scsi/volatile_cache.h"
#include "tests/scsi/temp_dir.h"

namespace memstore::scsi {
namespace {

using ::testing::HasSubstr;

constexpr std::uint32_t kBlock = 512;

std::unique_ptr<LoggedStore> logged(const std::string& path, bool with_cache = false) {
  std::unique_ptr<BackingStore> store = std::move(MemoryStore::create(64, kBlock).value());
  if (with_cache)
    store = std::make_unique<VolatileCacheStore>(std::move(store), VolatileCacheConfig{});
  auto opened = LoggedStore::open(std::move(store), path);
  EXPECT_TRUE(opened.ok());
  return std::move(opened.value());
}

std::vector<std::uint8_t> bytes_of(const std::string& path) {
  std::ifstream f(path, std::ios::binary);
  return {std::istreambuf_iterator<char>(f), std::istreambuf_iterator<char>()};
}

std::uint64_t le64(const std::vector<std::uint8_t>& b, std::size_t at) {
  std::uint64_t v = 0;
  for (int i = 7; i >= 0; --i) v = (v << 8) | b.at(at + static_cast<std::size_t>(i));
  return v;
}

TEST(WriteLog, TheLayoutIsDmLogWrites) {
  const testing::TempDir dir;
  const std::string path = dir.file("w.log");
  {
    auto store = logged(path);
    ASSERT_TRUE(store->write(7, 2, std::vector<std::uint8_t>(2 * kBlock, 0xAB)).ok());
    ASSERT_TRUE(store->flush().ok());
  }
  const std::vector<std::uint8_t> b = bytes_of(path);
  ASSERT_EQ(b.size(), 6u * kBlock);  // super, size mark, entry, 2 data blocks, flush entry
  EXPECT_EQ(le64(b, 0), 0x6a736677736872u) << "magic";
  EXPECT_EQ(le64(b, 8), 1u) << "version";
  EXPECT_EQ(le64(b, 16), 3u) << "entries";
  EXPECT_EQ(b[24] | (b[25] << 8), 512) << "sector size";
  EXPECT_EQ(le64(b, 512 + 16), 8u) << "a mark";
  EXPECT_EQ(le64(b, 512 + 24), 18u) << "its length";
  EXPECT_EQ(std::string(b.begin() + 512 + 32, b.begin() + 512 + 50), "memstore blocks 64");
  EXPECT_EQ(le64(b, 1024), 7u) << "sector";
  EXPECT_EQ(le64(b, 1024 + 8), 2u) << "nr_sectors";
  EXPECT_EQ(le64(b, 1024 + 16), 0u) << "flags";
  EXPECT_EQ(b[1536], 0xAB);
  EXPECT_EQ(b[2559], 0xAB);
  EXPECT_EQ(le64(b, 2560 + 16), 1u) << "the flush";
}

TEST(WriteLog, EveryOperationReadsBackInOrder) {
  const testing::TempDir dir;
  const std::string path = dir.file("w.log");
  {
    auto store = logged(path, /*with_cache=*/true);
    ASSERT_TRUE(store->write(1, 1, std::vector<std::uint8_t>(kBlock, 1)).ok());
    ASSERT_TRUE(store->write_durable(2, 3, std::vector<std::uint8_t>(3 * kBlock, 2)).ok());
    ASSERT_TRUE(store->unmap(10, 4).ok());
    ASSERT_TRUE(store->flush().ok());
    ASSERT_TRUE(store->write(5, 1, std::vector<std::uint8_t>(kBlock, 5)).ok());
    ASSERT_TRUE(store->power_cut(CutPolicy::kDropAll, 9).ok());
    EXPECT_EQ(store->entries(), 7u);
  }
  const auto read = write_log::read(path);
  ASSERT_TRUE(read.ok());
  write_log::Log log = read.value();
  EXPECT_EQ(log.block_size, kBlock);
  EXPECT_EQ(log.blocks(), 64u) << "the size mark";
  log.entries.erase(log.entries.begin());
  ASSERT_EQ(log.entries.size(), 6u);
  EXPECT_EQ(log.entries[0].sector, 1u);
  EXPECT_EQ(log.entries[0].data, std::vector<std::uint8_t>(kBlock, 1));
  EXPECT_EQ(log.entries[1].flags, write_log::kFua);
  EXPECT_EQ(log.entries[1].blocks, 3u);
  EXPECT_EQ(log.entries[1].data, std::vector<std::uint8_t>(3 * kBlock, 2));
  EXPECT_EQ(log.entries[2].flags, write_log::kDiscard);
  EXPECT_EQ(log.entries[2].sector, 10u);
  EXPECT_TRUE(log.entries[2].data.empty());
  EXPECT_EQ(log.entries[3].flags, write_log::kFlush);
  EXPECT_EQ(log.entries[4].sector, 5u);
  EXPECT_EQ(log.entries[5].flags, write_log::kMark);
  EXPECT_EQ(log.entries[5].mark, "power-cut drop-all seed 9");
}

TEST(WriteLog, AFileThatIsNotALogIsNamed) {
  const testing::TempDir dir;
  const std::string path = dir.file("not.log");
  std::ofstream(path) << std::string(600, 'x');
  const auto read = write_log::read(path);
  ASSERT_FALSE(read.ok());
  EXPECT_THAT(read.error().message, HasSubstr("write log " + path + ": not a dm-log-writes log"));
  const auto missing = write_log::read(dir.file("absent.log"));
  ASSERT_FALSE(missing.ok());
  EXPECT_THAT(missing.error().message, HasSubstr("cannot open it"));
}

}  // namespace
}  // namespace memstore::scsi
