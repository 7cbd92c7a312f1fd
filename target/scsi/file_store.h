// SPDX-License-Identifier: Apache-2.0
// A LUN backed by a raw image file: block n is bytes [n·block_size,
// (n+1)·block_size) of the file, nothing else in it. The file is sparse:
// created with ftruncate, unmapped blocks punched out.
//
// open():
// - creates the file (mode 0600) at exactly blocks·block_size bytes if it is
//   absent, and fsyncs the directory so the new name survives a power loss;
//   a missing directory is an error (no directories are created);
// - refuses an existing file of another size, saying both sizes and how to fix
//   it, and refuses anything that is not a regular file;
// - takes an exclusive flock(2) on the image, so a second memstored (or a
//   second LUN in the same process) cannot use it at the same time; the lock
//   goes away with the descriptor, also when the process is killed.
// The descriptor is O_CLOEXEC.
//
// Durability (see backing_store.h for the contract):
// - kWriteBack (WCE=1): write() leaves data in the page cache; flush() is
//   fdatasync(2). The LUN calls flush() for FUA and SYNCHRONIZE CACHE.
// - kWriteThrough (WCE=0): write() and unmap() call fdatasync(2) before they
//   return, so flush() finds nothing to do. (An explicit fdatasync rather than
//   O_DSYNC so that unmap's fallocate is covered by the same rule.)
// Once an fdatasync has failed, every later flush() (and every write-through
// write) fails too: the kernel may have dropped the unwritten pages, and a
// retry that succeeds would claim durability for data that is gone.
// The destructor does not flush: an orderly shutdown calls flush() first.
//
// Asynchronous I/O (start_async()): reads, writes, hole punches and
// fdatasyncs go through io_uring, so the thread that starts them never waits
// for the disk; buffered writes the kernel cannot do at once run on its
// io-wq workers. Operations on overlapping blocks run in the order they were
// started, others concurrently (async_store.h). The synchronous calls stay
// available and first wait for every asynchronous operation.
//
// unmap() punches a hole (fallocate PUNCH_HOLE | KEEP_SIZE). On a file system
// that cannot punch holes (EOPNOTSUPP) it writes zeros instead, from then on
// without trying to punch again — reads are zeros either way, only the space
// is not given back.
#pragma once

#include <cstdint>
#include <memory>
#include <string>
#include <variant>

#include "base/expected.h"
#include "target/scsi/async_store.h"
#include "target/scsi/backing_store.h"

namespace memstore::scsi {

enum class DurabilityMode : std::uint8_t {
  kWriteBack,     // WCE=1: volatile until flush() (FUA / SYNCHRONIZE CACHE)
  kWriteThrough,  // WCE=0: every write is durable when it returns
};

class FileStore final : public BackingStore, public AsyncStore {
 public:
  static Expected<std::unique_ptr<FileStore>> open(const std::string& path, std::uint64_t blocks,
                                                   std::uint32_t block_size, DurabilityMode mode);
  ~FileStore() override;
  FileStore(const FileStore&) = delete;
  FileStore& operator=(const FileStore&) = delete;

  std::uint64_t blocks() const override { return blocks_; }
  std::uint32_t block_size() const override { return block_size_; }
  StoreStatus read(std::uint64_t lba, std::uint64_t count, std::span<std::uint8_t> out) override;
  StoreStatus write(std::uint64_t lba, std::uint64_t count,
                    std::span<const std::uint8_t> in) override;
  StoreStatus unmap(std::uint64_t lba, std::uint64_t count) override;
  StoreStatus flush() override;
  // From the file's holes (lseek SEEK_DATA/SEEK_HOLE): a block holding any
  // data is mapped; a file system that does not track holes says mapped.
  Extent provisioning(std::uint64_t lba, std::uint64_t max_blocks) const override;
  bool volatile_cache() const override { return mode_ == DurabilityMode::kWriteBack; }
  std::string describe() const override;

  // Starts io_uring with room for `depth` operations in the kernel at once
  // (more wait their turn); from then on async() is this store. Errors: the
  // kernel refuses io_uring (too old, or disabled by the administrator).
  StoreStatus start_async(unsigned depth = 128);
  // The most kernel worker threads one submitting thread's writes use at
  // once (file_store_uring.cc, start_async()).
  static constexpr unsigned kIoWorkers = 2;
  // The most bytes one write system call (or io_uring write) carries. The
  // page cache makes a folio as large as the write that creates it, and on
  // ext4 every later small write into a folio walks all of its blocks, under
  // the inode lock (so more threads do not help): here (kernel 6.18) a
  // random 4 KB pwrite costs 23 us after 1 MB writes, 11 us after 256 KB,
  // 7 us after 64 KB and 4 us after 4 KB ones (bench/pwrite-cost). 64 KB
  // pieces cost a few more system calls per large command and keep later
  // small writes cheap (docs/benchmarks/log/2026-11-26.md, "Random writes to
  // the file store").
  static constexpr std::size_t kWritePieceBytes = std::size_t{64} << 10;
  // The most bytes one io_uring read carries. The kernel copies a read from
  // the page cache inline, in the io_uring_enter of the thread that submits
  // it, and a read of a hole first fills the cache with zeroed pages: here,
  // as one read, a 32 MiB READ holds the event loop for 70 ms in that call,
  // and another LUN's 4 KB reads wait up to 85 ms (bench/large-commands, BACKING=file
  // A_PATTERN=seqread). 256 KiB, as the memory store's slices
  // (memory_store.h), is a fraction of a millisecond into new pages.
  static constexpr std::size_t kReadPieceBytes = std::size_t{256} << 10;
  // The most bytes of reads and writes one store has in the kernel at once.
  // What the kernel cannot do in the submitting thread waits for a thread
  // of the io-wq, which all the stores of that thread share (kIoWorkers),
  // in order: with 128 operations in the ring, a 512 MiB WRITE SAME on
  // tmpfs, where every operation goes there, makes another LUN's 4 KB reads
  // wait 5 ms each behind its pieces (bench/large-commands). 1 MiB is 16
  // write pieces, or 8 reads of 128 KB.
  static constexpr std::size_t kKernelBytes = std::size_t{1} << 20;
  // This store, asynchronous; started on the first call (nullptr when the
  // kernel refuses io_uring: async_error() says why).
  AsyncStore* async() override;
  const StoreStatus& async_error() const { return async_error_; }
  void start_read(std::uint64_t lba, std::uint64_t count, std::span<std::uint8_t> out,
                  const std::shared_ptr<IoWait>& wait) override;
  void start_write(std::uint64_t lba, std::uint64_t count, std::span<const std::uint8_t> in,
                   bool durable, const std::shared_ptr<IoWait>& wait) override;
  void start_unmap(std::uint64_t lba, std::uint64_t count, bool durable,
                   const std::shared_ptr<IoWait>& wait) override;
  void start_flush(const std::shared_ptr<IoWait>& wait) override;
  int completion_fd() const override;
  void reap() override;
  std::size_t in_flight() const override;
  std::string io_description() const override { return "io_uring"; }

  const std::string& path() const { return path_; }
  // False once the file system refused to punch a hole (unmap writes zeros).
  bool punches_holes() const { return punch_holes_; }

 private:
  FileStore(int fd, std::string path, std::uint64_t blocks, std::uint32_t block_size,
            DurabilityMode mode);
  // io_uring (file_store_uring.cc).
  struct RingOp;
  struct Ring;
  void issue();
  void start(RingOp* op);
  void complete(RingOp* op, int res);
  void finish(RingOp* op, StoreStatus status);
  void wait_idle();  // every asynchronous operation finished
  StoreStatus sync_if_write_through(const char* op);
  StoreStatus write_zeros(std::uint64_t offset, std::uint64_t length);
  Error error(int errno_value, const std::string& what) const;

  int fd_;
  std::string path_;
  std::uint64_t blocks_;
  std::uint32_t block_size_;
  DurabilityMode mode_;
  bool punch_holes_ = true;
  StoreStatus flush_error_;  // sticky: see flush()
  std::unique_ptr<Ring> ring_;
  StoreStatus async_error_;
};

}  // namespace memstore::scsi
