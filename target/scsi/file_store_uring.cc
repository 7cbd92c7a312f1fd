// SPDX-License-Identifier: Apache-2.0
// FileStore's asynchronous operations on io_uring (file_store.h). Kept
// apart from the synchronous store so that liburing is seen by this file
// only.
#include <fcntl.h>
#include <liburing.h>
#include <sys/eventfd.h>
#include <unistd.h>

#include <algorithm>
#include <array>
#include <cerrno>
#include <cstring>
#include <system_error>
#include <vector>

#include "target/scsi/file_store.h"

namespace memstore::scsi {

// One asynchronous operation, from start() to finish(); reused.
struct FileStore::RingOp {
  enum class Kind : std::uint8_t { kRead, kWrite, kPunch, kSync };
  Kind kind = Kind::kRead;
  std::uint64_t offset = 0;  // bytes
  std::uint64_t length = 0;
  std::uint64_t done = 0;  // bytes moved so far (a short transfer goes on from there)
  std::uint8_t* data = nullptr;
  bool durable = false;  // fdatasync once the data is in
  bool issued = false;   // in the kernel
  std::shared_ptr<IoWait> wait;
  unsigned piece = 0;  // bytes of the read or write in the kernel now (issue())

  bool writes() const { return kind == Kind::kWrite || kind == Kind::kPunch; }
  // Whether this operation must wait for `earlier` (async_store.h,
  // "Ordering"): the two touch the same bytes and one of them changes them;
  // or this is a flush of the command that started `earlier` (it covers
  // that command's own writes: WRITE SAME, WRITE AND VERIFY).
  bool must_wait_for(const RingOp& earlier) const {
    if (kind == Kind::kSync) return earlier.wait == wait && earlier.kind != Kind::kSync;
    if (earlier.kind == Kind::kSync || (!writes() && !earlier.writes())) return false;
    return offset < earlier.offset + earlier.length && earlier.offset < offset + length;
  }
};

struct FileStore::Ring {
  using Op = RingOp;
  io_uring ring{};
  int event_fd = -1;
  unsigned depth = 0;
  unsigned in_kernel = 0;
  std::size_t bytes_in_kernel = 0;  // the pieces of reads and writes issued, not yet reaped
  bool unsubmitted = false;
  std::vector<RingOp*> active;  // started and not finished, in the order started
  std::vector<std::unique_ptr<RingOp>> ops;
  std::vector<RingOp*> free_ops;

  ~Ring() {
    io_uring_queue_exit(&ring);
    if (event_fd >= 0) ::close(event_fd);
  }

  RingOp* make() {
    if (free_ops.empty()) {
      ops.push_back(std::make_unique<RingOp>());
      return ops.back().get();
    }
    RingOp* op = free_ops.back();
    free_ops.pop_back();
    return op;
  }
  void release(RingOp* op) {
    op->wait.reset();
    op->data = nullptr;
    free_ops.push_back(op);
  }
};

// Here rather than in file_store.cc: they need the complete Ring.
FileStore::FileStore(int fd, std::string path, std::uint64_t blocks, std::uint32_t block_size,
                     DurabilityMode mode)
    : fd_(fd), path_(std::move(path)), blocks_(blocks), block_size_(block_size), mode_(mode) {}

FileStore::~FileStore() {
  wait_idle();  // the kernel may still be reading or writing the callers' buffers
  ring_.reset();
  ::close(fd_);
}

StoreStatus FileStore::start_async(unsigned depth) {
  if (ring_) return {};
  auto r = std::make_unique<Ring>();
  r->depth = depth;
  if (const int rc = io_uring_queue_init(depth, &r->ring, 0); rc < 0) {
    return error(-rc, "io_uring setup (asynchronous I/O)");
  }
  r->event_fd = ::eventfd(0, EFD_NONBLOCK | EFD_CLOEXEC);
  if (r->event_fd < 0) {
    const int e = errno;
    io_uring_queue_exit(&r->ring);
    r->ring = {};
    return error(e, "eventfd for io_uring completions");
  }
  if (const int rc = io_uring_register_eventfd(&r->ring, r->event_fd); rc < 0) {
    return error(-rc, "io_uring eventfd registration");
  }
  // Writes the kernel cannot do at once (buffered writes that must wait for
  // page cache or writeback) go to io-wq worker threads, by default up to
  // 4 per CPU per submitting thread. Each copies its data and waits on
  // writeback, on the same CPUs as the delivery threads: a 512 MiB WRITE SAME
  // then delays every other LUN's deliveries by milliseconds. Two workers
  // keep the store busy; the rest wait their turn in the kernel's queue. The
  // limit holds for the submitting thread's io-wq, shared by its rings. A
  // kernel without the call (before 5.15) keeps its default.
  std::array<unsigned, 2> workers{kIoWorkers, 0};  // bounded, unbounded (0: unchanged)
  (void)io_uring_register_iowq_max_workers(&r->ring, workers.data());
  // No readahead. The kernel reads ahead inside the read that finds the
  // next pages missing, and an io_uring read runs in the submitting thread
  // when it can: where the block device reads ahead far (read_ahead_kb 8192
  // here), one 256 KiB read of a hole makes 8 MiB of zeroed page cache and
  // holds the event loop for 16 ms (bench/large-commands, A_PATTERN=seqread).
  // Without readahead a read allocates its own pages only; a read that must
  // wait for the disk still goes to io-wq. Advice, so a failure changes
  // nothing but the speed.
  (void)::posix_fadvise(fd_, 0, 0, POSIX_FADV_RANDOM);
  ring_ = std::move(r);
  return {};
}

// Started on first use, so that a store only ever used synchronously (the
// TCMU handler, tests) has no ring. Without io_uring the store stays
// synchronous; async_error() says why.
AsyncStore* FileStore::async() {
  if (!ring_ && async_error_.ok()) async_error_ = start_async();
  return ring_ ? this : nullptr;
}

int FileStore::completion_fd() const {
  return ring_ ? ring_->event_fd : -1;
}

std::size_t FileStore::in_flight() const {
  return ring_ ? ring_->active.size() : 0;
}

// Hands every started operation that waits for nothing earlier to the
// kernel, as far as the ring has room and kKernelBytes allows, then submits
// them in one call.
void FileStore::issue() {
  Ring& r = *ring_;
  for (std::size_t i = 0; i < r.active.size() && r.in_kernel < r.depth; ++i) {
    RingOp& op = *r.active[i];
    if (op.issued) continue;
    // A read or write a piece at a time (kReadPieceBytes, kWritePieceBytes);
    // complete() issues the rest at a later reap, so one command's pieces
    // take turns with the rest of the loop's work.
    const auto left = static_cast<unsigned>(op.length - op.done);
    op.piece = op.kind == RingOp::Kind::kRead    ? std::min<unsigned>(left, kReadPieceBytes)
               : op.kind == RingOp::Kind::kWrite ? std::min<unsigned>(left, kWritePieceBytes)
                                                 : 0;
    // The operations behind wait too: they were started later.
    if (op.piece > 0 && r.bytes_in_kernel > 0 && r.bytes_in_kernel + op.piece > kKernelBytes) {
      break;
    }
    bool blocked = false;
    for (std::size_t j = 0; j < i && !blocked; ++j) blocked = op.must_wait_for(*r.active[j]);
    if (blocked) continue;
    io_uring_sqe* sqe = io_uring_get_sqe(&r.ring);
    if (sqe == nullptr) break;
    const std::uint64_t at = op.offset + op.done;
    switch (op.kind) {
      case RingOp::Kind::kRead:
        io_uring_prep_read(sqe, fd_, op.data + op.done, op.piece, at);
        break;
      case RingOp::Kind::kWrite:
        io_uring_prep_write(sqe, fd_, op.data + op.done, op.piece, at);
        break;
      case RingOp::Kind::kPunch:
        io_uring_prep_fallocate(sqe, fd_, FALLOC_FL_PUNCH_HOLE | FALLOC_FL_KEEP_SIZE,
                                static_cast<off_t>(op.offset), static_cast<off_t>(op.length));
        break;
      case RingOp::Kind::kSync:
        io_uring_prep_fsync(sqe, fd_, IORING_FSYNC_DATASYNC);
        break;
    }
    io_uring_sqe_set_data(sqe, &op);
    op.issued = true;
    ++r.in_kernel;
    r.bytes_in_kernel += op.piece;
    r.unsubmitted = true;
  }
  if (r.unsubmitted) {
    // EINTR/EAGAIN/EBUSY leave the entries queued: the next call submits them.
    if (io_uring_submit(&r.ring) >= 0) r.unsubmitted = false;
  }
}

void FileStore::start(RingOp* op) {
  ring_->active.push_back(op);
  op->wait->started();
  issue();
}

void FileStore::finish(RingOp* op, StoreStatus status) {
  Ring& r = *ring_;
  r.active.erase(std::find(r.active.begin(), r.active.end(), op));
  std::shared_ptr<IoWait> wait = std::move(op->wait);
  r.release(op);
  wait->finished(std::move(status));
}

// One completion: the operation goes on (a short transfer, the fdatasync
// after a durable write) or finishes with its status.
void FileStore::complete(RingOp* op, int res) {
  op->issued = false;
  --ring_->in_kernel;
  ring_->bytes_in_kernel -= op->piece;
  if (res == -EINTR || res == -EAGAIN) return;  // issued again below
  switch (op->kind) {
    case RingOp::Kind::kRead:
    case RingOp::Kind::kWrite: {
      const bool reading = op->kind == RingOp::Kind::kRead;
      if (res <= 0) {
        const int e = res == 0 ? EIO : -res;  // 0: the file ended early
        return finish(op, error(e, std::string(reading ? "read" : "write") + " at byte " +
                                       std::to_string(op->offset + op->done)));
      }
      op->done += static_cast<std::uint64_t>(res);
      if (op->done < op->length) return;  // the rest is issued again
      break;
    }
    case RingOp::Kind::kPunch:
      if (res == -EOPNOTSUPP || res == -ENOSYS) {
        // A file system without holes: zeros instead, from now on (as unmap()).
        // Synchronous, and rare: only on such file systems.
        punch_holes_ = false;
        if (auto e = write_zeros(op->offset, op->length); !e.ok()) return finish(op, std::move(e));
      } else if (res < 0) {
        return finish(op,
                      error(-res, "unmap (punching a hole) at byte " + std::to_string(op->offset)));
      }
      break;
    case RingOp::Kind::kSync:
      if (res < 0 && flush_error_.ok()) {
        flush_error_ = error(-res, "fdatasync (data written since may be lost)");
      }
      return finish(op, flush_error_);
  }
  if (op->durable || mode_ == DurabilityMode::kWriteThrough) {
    // The data is in; now the fdatasync that makes it durable.
    if (!flush_error_.ok()) return finish(op, flush_error_);
    op->kind = RingOp::Kind::kSync;
    return;
  }
  finish(op, {});
}

void FileStore::reap() {
  if (!ring_) return;
  Ring& r = *ring_;
  std::uint64_t count = 0;
  while (::read(r.event_fd, &count, sizeof count) < 0 && errno == EINTR) {
  }
  io_uring_cqe* cqe = nullptr;
  while (io_uring_peek_cqe(&r.ring, &cqe) == 0) {
    auto* op = static_cast<RingOp*>(io_uring_cqe_get_data(cqe));
    const int res = cqe->res;
    io_uring_cqe_seen(&r.ring, cqe);
    complete(op, res);
  }
  issue();
}

void FileStore::wait_idle() {
  if (!ring_) return;
  Ring& r = *ring_;
  while (!r.active.empty()) {
    issue();
    io_uring_cqe* cqe = nullptr;
    const int rc = io_uring_wait_cqe(&r.ring, &cqe);
    if (rc == -EINTR) continue;
    if (rc < 0) break;  // cannot happen with a valid ring; do not spin
    auto* op = static_cast<RingOp*>(io_uring_cqe_get_data(cqe));
    const int res = cqe->res;
    io_uring_cqe_seen(&r.ring, cqe);
    complete(op, res);
  }
}

void FileStore::start_read(std::uint64_t lba, std::uint64_t count, std::span<std::uint8_t> out,
                           const std::shared_ptr<IoWait>& wait) {
  if (auto e = check_access(*this, "read", lba, count, out.size()); !e.ok() || count == 0) {
    return wait->finish_now(std::move(e));
  }
  RingOp* op = ring_->make();
  *op =
      RingOp{RingOp::Kind::kRead, lba * block_size_, out.size(), 0, out.data(), false, false, wait};
  start(op);
}

void FileStore::start_write(std::uint64_t lba, std::uint64_t count,
                            std::span<const std::uint8_t> in, bool durable,
                            const std::shared_ptr<IoWait>& wait) {
  if (auto e = check_access(*this, "write", lba, count, in.size()); !e.ok() || count == 0) {
    return wait->finish_now(std::move(e));
  }
  RingOp* op = ring_->make();
  // The kernel only reads from `data` for a write.
  *op = RingOp{RingOp::Kind::kWrite,
               lba * block_size_,
               in.size(),
               0,
               const_cast<std::uint8_t*>(in.data()),
               durable,
               false,
               wait};
  start(op);
}

void FileStore::start_unmap(std::uint64_t lba, std::uint64_t count, bool durable,
                            const std::shared_ptr<IoWait>& wait) {
  if (auto e = check_access(*this, "unmap", lba, count, std::nullopt); !e.ok() || count == 0) {
    return wait->finish_now(std::move(e));
  }
  if (!punch_holes_) {
    // Known not to punch: the synchronous unmap writes zeros, and it first
    // waits for every operation in flight, so the order of overlapping
    // operations holds.
    StoreStatus e = unmap(lba, count);
    if (e.ok() && durable) e = flush();
    return wait->finish_now(std::move(e));
  }
  RingOp* op = ring_->make();
  *op = RingOp{RingOp::Kind::kPunch,
               lba * block_size_,
               count * block_size_,
               0,
               nullptr,
               durable,
               false,
               wait};
  start(op);
}

void FileStore::start_flush(const std::shared_ptr<IoWait>& wait) {
  if (!flush_error_.ok()) {  // sticky (flush())
    return wait->finish_now(flush_error_);
  }
  RingOp* op = ring_->make();
  *op = RingOp{RingOp::Kind::kSync, 0, 0, 0, nullptr, false, false, wait};
  start(op);
}

}  // namespace memstore::scsi
