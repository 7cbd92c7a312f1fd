// SPDX-License-Identifier: Apache-2.0
// A record of every write, discard and flush a LUN's store is given, in the
// on-disk format of Linux's dm-log-writes target (write_log = "PATH",
// docs/crash-consistency.md), so that the tools made for that format read
// it, and memstore's own replays crash states from it.
//
// The format, all integers little-endian, in blocks of the LUN's block size:
//   block 0      the super block: magic 0x6a736677736872, version 1, the
//                number of entries, the block size (u64, u64, u64, u32)
//   then, per entry, one block that starts with the entry (sector,
//   nr_sectors, flags, data_len: four u64; sector and nr_sectors in blocks)
//   followed by the data of a write, nr_sectors blocks. flags: 1 flush,
//   2 FUA, 4 discard, 8 mark (its text follows the entry in its block,
//   data_len bytes).
// The first entry is a mark, "memstore blocks N", that gives the LUN's size
// (the format has no field for it). An entry is written when the store is
// given the operation, which for a
// LUN is when the command arrives (the order its data reaches the store);
// the super block's count is brought up to date at every flush and when
// the log is closed.
#pragma once

#include <cstdint>
#include <memory>
#include <optional>
#include <span>
#include <string>
#include <variant>
#include <vector>

#include "base/expected.h"
#include "target/scsi/backing_store.h"

namespace memstore::scsi {

namespace write_log {
inline constexpr std::uint64_t kMagic = 0x6a736677736872;
inline constexpr std::uint64_t kVersion = 1;
inline constexpr std::uint64_t kFlush = 1 << 0;
inline constexpr std::uint64_t kFua = 1 << 1;
inline constexpr std::uint64_t kDiscard = 1 << 2;
inline constexpr std::uint64_t kMark = 1 << 3;

struct Entry {
  std::uint64_t sector = 0;  // in blocks
  std::uint64_t blocks = 0;
  std::uint64_t flags = 0;
  std::string mark;                // kMark's text
  std::vector<std::uint8_t> data;  // a write's blocks
};

// Reads a whole log. Errors name the file and what is wrong with it.
struct Log {
  std::uint32_t block_size = 0;
  std::vector<Entry> entries;
  // The LUN's size from the first mark, when a LoggedStore wrote the log.
  std::optional<std::uint64_t> blocks() const;
};
Expected<Log> read(const std::string& path);
}  // namespace write_log

class LoggedStore final : public BackingStore {
 public:
  // Creates (or truncates) `path` and records what `store` is given from
  // now on. Errors name the file.
  static Expected<std::unique_ptr<LoggedStore>> open(std::unique_ptr<BackingStore> store,
                                                     const std::string& path);
  ~LoggedStore() override;
  LoggedStore(const LoggedStore&) = delete;
  LoggedStore& operator=(const LoggedStore&) = delete;

  std::uint64_t blocks() const override { return store_->blocks(); }
  std::uint32_t block_size() const override { return store_->block_size(); }
  StoreStatus read(std::uint64_t lba, std::uint64_t count, std::span<std::uint8_t> out) override {
    return store_->read(lba, count, out);
  }
  StoreStatus write(std::uint64_t lba, std::uint64_t count,
                    std::span<const std::uint8_t> in) override;
  StoreStatus write_durable(std::uint64_t lba, std::uint64_t count,
                            std::span<const std::uint8_t> in) override;
  StoreStatus unmap(std::uint64_t lba, std::uint64_t count) override;
  StoreStatus flush() override;
  Extent provisioning(std::uint64_t lba, std::uint64_t max_blocks) const override {
    return store_->provisioning(lba, max_blocks);
  }
  bool volatile_cache() const override { return store_->volatile_cache(); }
  Expected<PowerCutReport> power_cut(CutPolicy policy, std::uint64_t seed) override;
  std::string describe() const override;

  // A named point in the log (dm-log-writes' mark), e.g. where a power cut fell.
  StoreStatus mark(const std::string& text);
  std::uint64_t entries() const { return entries_; }

 private:
  LoggedStore(std::unique_ptr<BackingStore> store, int fd, std::string path);
  StoreStatus append(const write_log::Entry& e, std::span<const std::uint8_t> data);
  StoreStatus write_super();

  std::unique_ptr<BackingStore> store_;
  int fd_ = -1;
  std::string path_;
  std::uint64_t next_block_ = 1;  // where the next entry goes
  std::uint64_t entries_ = 0;
  StoreStatus failed_;  // once the log cannot be written, every write fails
};

}  // namespace memstore::scsi
