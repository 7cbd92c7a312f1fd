// SPDX-License-Identifier: Apache-2.0
#include "target/scsi/write_log.h"

#include <fcntl.h>
#include <unistd.h>

#include <cerrno>
#include <cstring>
#include <string_view>

#include "target/scsi/posix_file.h"

namespace memstore::scsi {
namespace {

void put64(std::uint8_t* p, std::uint64_t v) {
  for (int i = 0; i < 8; ++i) p[i] = static_cast<std::uint8_t>(v >> (8 * i));
}
void put32(std::uint8_t* p, std::uint32_t v) {
  for (int i = 0; i < 4; ++i) p[i] = static_cast<std::uint8_t>(v >> (8 * i));
}
std::uint64_t get64(const std::uint8_t* p) {
  std::uint64_t v = 0;
  for (int i = 7; i >= 0; --i) v = (v << 8) | p[i];
  return v;
}
std::uint32_t get32(const std::uint8_t* p) {
  std::uint32_t v = 0;
  for (int i = 3; i >= 0; --i) v = (v << 8) | p[i];
  return v;
}

constexpr std::size_t kEntryBytes = 32;  // four u64
constexpr std::string_view kSizeMark = "memstore blocks ";
constexpr std::size_t kSuperBytes = 28;  // three u64 and a u32

Error system_error(const std::string& path, const char* what, int e = errno) {
  return {e, "write log " + path + ": " + what + ": " + errno_text(e)};
}

// All of `bytes` written (read) at byte `at`, or false.
bool write_at(int fd, std::span<const std::uint8_t> bytes, std::uint64_t at) {
  std::size_t done = 0;
  return transfer_all(::pwrite, fd, bytes, at, done) == 0;
}
bool read_at(int fd, std::span<std::uint8_t> bytes, std::uint64_t at) {
  std::size_t done = 0;
  return transfer_all(::pread, fd, bytes, at, done) == 0;
}

}  // namespace

Expected<std::unique_ptr<LoggedStore>> LoggedStore::open(std::unique_ptr<BackingStore> store,
                                                         const std::string& path) {
  const int fd = ::open(path.c_str(), O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0644);
  if (fd < 0) return system_error(path, "cannot create it");
  std::unique_ptr<LoggedStore> logged(new LoggedStore(std::move(store), fd, path));
  if (auto e = logged->mark(std::string(kSizeMark) + std::to_string(logged->blocks())); !e.ok()) {
    return e.error();
  }
  if (auto e = logged->write_super(); !e.ok()) return e.error();
  return logged;
}

LoggedStore::LoggedStore(std::unique_ptr<BackingStore> store, int fd, std::string path)
    : store_(std::move(store)), fd_(fd), path_(std::move(path)) {}

LoggedStore::~LoggedStore() {
  (void)write_super();
  ::close(fd_);
}

StoreStatus LoggedStore::write_super() {
  std::vector<std::uint8_t> block(block_size(), 0);
  put64(block.data(), write_log::kMagic);
  put64(block.data() + 8, write_log::kVersion);
  put64(block.data() + 16, entries_);
  put32(block.data() + 24, block_size());
  if (!write_at(fd_, block, 0)) return system_error(path_, "write");
  return {};
}

StoreStatus LoggedStore::append(const write_log::Entry& e, std::span<const std::uint8_t> data) {
  if (!failed_.ok()) return failed_;
  const std::uint64_t bs = block_size();
  std::vector<std::uint8_t> head(bs, 0);
  put64(head.data(), e.sector);
  put64(head.data() + 8, e.blocks);
  put64(head.data() + 16, e.flags);
  put64(head.data() + 24, e.mark.size());
  std::memcpy(head.data() + kEntryBytes, e.mark.data(), e.mark.size());
  if (!write_at(fd_, head, next_block_ * bs) ||
      (!data.empty() && !write_at(fd_, data, (next_block_ + 1) * bs))) {
    failed_ = system_error(path_, "write");
    return failed_;
  }
  next_block_ += 1 + data.size() / bs;
  ++entries_;
  return {};
}

StoreStatus LoggedStore::write(std::uint64_t lba, std::uint64_t count,
                               std::span<const std::uint8_t> in) {
  if (auto e = store_->write(lba, count, in); !e.ok()) return e;
  return append({.sector = lba, .blocks = count, .flags = 0, .mark = {}, .data = {}}, in);
}

StoreStatus LoggedStore::write_durable(std::uint64_t lba, std::uint64_t count,
                                       std::span<const std::uint8_t> in) {
  if (auto e = store_->write_durable(lba, count, in); !e.ok()) return e;
  return append({.sector = lba, .blocks = count, .flags = write_log::kFua, .mark = {}, .data = {}},
                in);
}

StoreStatus LoggedStore::unmap(std::uint64_t lba, std::uint64_t count) {
  if (auto e = store_->unmap(lba, count); !e.ok()) return e;
  return append(
      {.sector = lba, .blocks = count, .flags = write_log::kDiscard, .mark = {}, .data = {}}, {});
}

StoreStatus LoggedStore::flush() {
  if (auto e = store_->flush(); !e.ok()) return e;
  if (auto e = append(
          {.sector = 0, .blocks = 0, .flags = write_log::kFlush, .mark = {}, .data = {}}, {});
      !e.ok()) {
    return e;
  }
  return write_super();
}

StoreStatus LoggedStore::mark(const std::string& text) {
  const std::string cut = text.substr(0, block_size() - kEntryBytes);
  return append({.sector = 0, .blocks = 0, .flags = write_log::kMark, .mark = cut, .data = {}}, {});
}

Expected<PowerCutReport> LoggedStore::power_cut(CutPolicy policy, std::uint64_t seed) {
  auto report = store_->power_cut(policy, seed);
  if (report.ok()) {
    if (auto e = mark("power-cut " + std::string(cut_policy_name(policy)) + " seed " +
                      std::to_string(seed));
        !e.ok()) {
      return e.error();
    }
    if (auto e = write_super(); !e.ok()) return e.error();
  }
  return report;
}

std::string LoggedStore::describe() const {
  return store_->describe() + ", every write logged to " + path_;
}

namespace write_log {

std::optional<std::uint64_t> Log::blocks() const {
  if (entries.empty() || !entries[0].mark.starts_with(kSizeMark)) return {};
  try {
    return std::stoull(entries[0].mark.substr(kSizeMark.size()));
  } catch (const std::exception&) {
    return {};
  }
}

Expected<Log> read(const std::string& path) {
  const int fd = ::open(path.c_str(), O_RDONLY | O_CLOEXEC);
  if (fd < 0) return system_error(path, "cannot open it");
  const auto fail = [&](const std::string& what) {
    ::close(fd);
    return Error{EINVAL, "write log " + path + ": " + what};
  };
  std::uint8_t super[kSuperBytes];
  if (!read_at(fd, super, 0)) {
    return fail("shorter than its super block");
  }
  if (get64(super) != kMagic) return fail("not a dm-log-writes log (wrong magic)");
  if (get64(super + 8) != kVersion) return fail("version " + std::to_string(get64(super + 8)));
  Log log;
  log.block_size = get32(super + 24);
  if (log.block_size < 512 || log.block_size > (1u << 16) ||
      (log.block_size & (log.block_size - 1)) != 0) {
    return fail("block size " + std::to_string(log.block_size));
  }
  const std::uint64_t count = get64(super + 16);
  const std::uint64_t bs = log.block_size;
  std::vector<std::uint8_t> head(bs);
  std::uint64_t at = 1;
  for (std::uint64_t i = 0; i < count; ++i) {
    if (!read_at(fd, head, at * bs)) {
      return fail("entry " + std::to_string(i) + " is past the end of the file");
    }
    Entry e;
    e.sector = get64(head.data());
    e.blocks = get64(head.data() + 8);
    e.flags = get64(head.data() + 16);
    const std::uint64_t data_len = get64(head.data() + 24);
    ++at;
    if ((e.flags & kMark) != 0) {
      if (data_len > bs - kEntryBytes)
        return fail("entry " + std::to_string(i) + ": mark too long");
      e.mark.assign(reinterpret_cast<const char*>(head.data() + kEntryBytes), data_len);
    } else if ((e.flags & (kFlush | kDiscard)) == 0 && e.blocks > 0) {
      if (e.blocks > (std::uint64_t{1} << 24)) {
        return fail("entry " + std::to_string(i) + ": " + std::to_string(e.blocks) + " blocks");
      }
      e.data.resize(e.blocks * bs);
      if (!read_at(fd, e.data, at * bs)) {
        return fail("entry " + std::to_string(i) + ": its data is past the end of the file");
      }
      at += e.blocks;
    }
    log.entries.push_back(std::move(e));
  }
  ::close(fd);
  return log;
}

}  // namespace write_log
}  // namespace memstore::scsi
