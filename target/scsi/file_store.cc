// SPDX-License-Identifier: Apache-2.0
#include "target/scsi/file_store.h"

#include <fcntl.h>
#include <sys/file.h>
#include <sys/stat.h>
#include <unistd.h>

#include <algorithm>
#include <array>
#include <cerrno>
#include <cstring>
#include <limits>
#include <utility>

#include "target/scsi/posix_file.h"

namespace memstore::scsi {
namespace {

// Closes the descriptor unless released; only for the steps of open().
class FdGuard {
 public:
  explicit FdGuard(int fd) : fd_(fd) {}
  ~FdGuard() {
    if (fd_ >= 0) ::close(fd_);
  }
  FdGuard(const FdGuard&) = delete;
  FdGuard& operator=(const FdGuard&) = delete;
  int get() const { return fd_; }
  int release() { return std::exchange(fd_, -1); }

 private:
  int fd_;
};

std::string wrong_size_message(const std::string& path, std::uint64_t actual, std::uint64_t blocks,
                               std::uint32_t block_size) {
  const std::uint64_t expected = blocks * block_size;
  std::string msg = "image " + path + " is " + std::to_string(actual) +
                    " bytes, but the LUN is configured for " + std::to_string(blocks) +
                    " blocks of " + std::to_string(block_size) +
                    " bytes = " + std::to_string(expected) + " bytes; ";
  if (actual >= block_size && actual % block_size == 0) {
    msg += "it holds " + std::to_string(actual / block_size) +
           " blocks, as an image of another device would: point `backing` at another file, or ";
  } else {
    msg += "the file is not a whole number of " + std::to_string(block_size) + "-byte blocks, so ";
  }
  msg += "remove the file or resize it (truncate -s " + std::to_string(expected) + " " + path + ")";
  return msg;
}

}  // namespace

Expected<std::unique_ptr<FileStore>> FileStore::open(const std::string& path, std::uint64_t blocks,
                                                     std::uint32_t block_size,
                                                     DurabilityMode mode) {
  constexpr auto kMaxBytes = static_cast<std::uint64_t>(std::numeric_limits<off_t>::max());
  if (blocks == 0 || block_size == 0) {
    return Error{EINVAL, "image " + path + ": a LUN needs at least one block of at least " +
                             "one byte (got " + std::to_string(blocks) + " blocks of " +
                             std::to_string(block_size) + " bytes)"};
  }
  if (blocks > kMaxBytes / block_size) {
    return Error{EFBIG, "image " + path + ": " + std::to_string(blocks) + " blocks of " +
                            std::to_string(block_size) + " bytes is too large for a file"};
  }
  const std::uint64_t size = blocks * block_size;

  bool created = false;
  int raw = ::open(path.c_str(), O_RDWR | O_CLOEXEC);
  if (raw < 0 && errno == ENOENT) {
    raw = ::open(path.c_str(), O_RDWR | O_CREAT | O_EXCL | O_CLOEXEC, 0600);
    if (raw >= 0) {
      created = true;
    } else if (errno == EEXIST) {  // another process created it just now
      raw = ::open(path.c_str(), O_RDWR | O_CLOEXEC);
    }
  }
  if (raw < 0) {
    const int e = errno;
    if (e == ENOENT) {
      return Error{e, "cannot create image " + path + ": directory " + parent_directory(path) +
                          " does not exist"};
    }
    return Error{e, "cannot open image " + path + ": " + errno_text(e)};
  }
  FdGuard fd(raw);

  if (::flock(fd.get(), LOCK_EX | LOCK_NB) != 0) {
    const int e = errno;
    if (e == EWOULDBLOCK) {
      return Error{e, "image " + path + " is in use by another LUN or process (it holds " +
                          "a lock on the file)"};
    }
    return Error{e, "cannot lock image " + path + ": " + errno_text(e)};
  }
  // From here on the file is ours; a file we created is removed on failure.
  auto fail = [&](int e, const std::string& what) -> Error {
    if (created) ::unlink(path.c_str());
    return Error{e, what + ": " + errno_text(e)};
  };

  struct stat st {};
  if (::fstat(fd.get(), &st) != 0) return fail(errno, "cannot stat image " + path);
  if (!S_ISREG(st.st_mode)) {
    return Error{EINVAL, "image " + path + " is not a regular file"};
  }
  if (created) {
    if (::ftruncate(fd.get(), static_cast<off_t>(size)) != 0) {
      return fail(errno,
                  "cannot size new image " + path + " to " + std::to_string(size) + " bytes");
    }
    if (const int e = fsync_directory(parent_directory(path)); e != 0) {
      return fail(e, "cannot make new image " + path + " durable (fsync of " +
                         parent_directory(path) + ")");
    }
  } else if (static_cast<std::uint64_t>(st.st_size) != size) {
    return Error{EINVAL, wrong_size_message(path, static_cast<std::uint64_t>(st.st_size), blocks,
                                            block_size)};
  }
  return std::unique_ptr<FileStore>(new FileStore(fd.release(), path, blocks, block_size, mode));
}

StoreStatus FileStore::read(std::uint64_t lba, std::uint64_t count, std::span<std::uint8_t> out) {
  wait_idle();
  if (auto e = check_access(*this, "read", lba, count, out.size()); !e.ok()) return e;
  const std::uint64_t offset = lba * block_size_;
  std::size_t done = 0;
  if (const int e = transfer_all(::pread, fd_, out, offset, done); e != 0) {
    return error(e, "read at byte " + std::to_string(offset + done));
  }
  return {};
}

StoreStatus FileStore::write(std::uint64_t lba, std::uint64_t count,
                             std::span<const std::uint8_t> in) {
  wait_idle();
  if (auto e = check_access(*this, "write", lba, count, in.size()); !e.ok()) return e;
  const std::uint64_t offset = lba * block_size_;
  std::size_t done = 0;
  if (const int e = transfer_all(::pwrite, fd_, in, offset, done, kWritePieceBytes); e != 0) {
    return error(e, "write at byte " + std::to_string(offset + done));
  }
  return sync_if_write_through("write");
}

StoreStatus FileStore::unmap(std::uint64_t lba, std::uint64_t count) {
  wait_idle();
  if (auto e = check_access(*this, "unmap", lba, count, std::nullopt); !e.ok()) return e;
  if (count == 0) return {};
  const std::uint64_t offset = lba * block_size_;
  const std::uint64_t length = count * block_size_;
  if (punch_holes_) {
    int rc = 0;
    do {
      rc = ::fallocate(fd_, FALLOC_FL_PUNCH_HOLE | FALLOC_FL_KEEP_SIZE, static_cast<off_t>(offset),
                       static_cast<off_t>(length));
    } while (rc != 0 && errno == EINTR);
    if (rc != 0 && errno != EOPNOTSUPP && errno != ENOSYS) {
      return error(errno, "unmap (punching a hole) at byte " + std::to_string(offset));
    }
    if (rc != 0) punch_holes_ = false;
  }
  if (!punch_holes_) {
    if (auto e = write_zeros(offset, length); !e.ok()) return e;
  }
  return sync_if_write_through("unmap");
}

StoreStatus FileStore::flush() {
  // After a failed fdatasync the kernel may have marked the lost pages clean,
  // so a second call could succeed without the data ever reaching the disk.
  // Once it has failed, every later flush fails too.
  wait_idle();  // an asynchronous fdatasync may fail meanwhile
  if (!flush_error_.ok()) return flush_error_;
  int rc = 0;
  do {
    rc = ::fdatasync(fd_);
  } while (rc != 0 && errno == EINTR);
  if (rc != 0) flush_error_ = error(errno, "fdatasync (data written since may be lost)");
  return flush_error_;
}

BackingStore::Extent FileStore::provisioning(std::uint64_t lba, std::uint64_t max_blocks) const {
  const std::uint64_t limit = std::min(max_blocks, blocks_ - lba);
  const Extent unknown{true, limit};
  const auto start = static_cast<off_t>(lba * block_size_);
  const off_t data = ::lseek(fd_, start, SEEK_DATA);
  if (data < 0) {
    // ENXIO: no data from `start` to the end of the file.
    return errno == ENXIO ? Extent{false, limit} : unknown;
  }
  const auto bs = static_cast<off_t>(block_size_);
  if (data >= start + bs) {
    // Whole blocks of hole before the data (a block the data starts in is mapped).
    return {false, std::min<std::uint64_t>(limit, static_cast<std::uint64_t>((data - start) / bs))};
  }
  const off_t hole = ::lseek(fd_, data, SEEK_HOLE);  // the end of the file is a hole
  if (hole < 0) return unknown;
  const auto mapped = static_cast<std::uint64_t>((hole - start + bs - 1) / bs);
  return {true, std::clamp<std::uint64_t>(mapped, 1, limit)};
}

std::string FileStore::describe() const {
  return "image file " + path_ + " (" + std::to_string(blocks_) + " blocks of " +
         std::to_string(block_size_) + " bytes, " +
         (mode_ == DurabilityMode::kWriteBack ? "write-back" : "write-through") + ")";
}

StoreStatus FileStore::sync_if_write_through(const char* op) {
  if (mode_ != DurabilityMode::kWriteThrough) return {};
  if (auto e = flush(); !e.ok()) {
    e.error().message = std::string(op) + " not durable: " + e.error().message;
    return e;
  }
  return {};
}

StoreStatus FileStore::write_zeros(std::uint64_t offset, std::uint64_t length) {
  static const std::array<std::uint8_t, std::size_t{64} * 1024> kZeros{};
  while (length > 0) {
    const std::size_t n = length < kZeros.size() ? static_cast<std::size_t>(length) : kZeros.size();
    std::size_t done = 0;
    if (const int e = transfer_all(::pwrite, fd_, std::span(kZeros.data(), n), offset, done);
        e != 0) {
      return error(e, "unmap (writing zeros) at byte " + std::to_string(offset + done));
    }
    offset += n;
    length -= n;
  }
  return {};
}

Error FileStore::error(int errno_value, const std::string& what) const {
  return Error{errno_value, "image " + path_ + ": " + what + ": " + errno_text(errno_value)};
}

}  // namespace memstore::scsi
