// SPDX-License-Identifier: Apache-2.0
// MemoryStore's asynchronous side (memory_store.h): large operations wait in
// a queue and run a slice per turn of the LUN's event loop, so that a 512 MiB
// WRITE SAME or a 32 MiB READ does not hold the thread that delivers every
// other result of that loop (docs/design.md, "The memory store").
#include <sys/eventfd.h>
#include <unistd.h>

#include <algorithm>
#include <cerrno>
#include <cstring>
#include <string>

#include "target/scsi/memory_store.h"

namespace memstore::scsi {

std::string MemoryStore::io_description() const {
  return "in slices of " + std::to_string(kSliceBytes >> 10) + " KiB above " +
         std::to_string(kAtOnceBytes >> 20) + " MiB";
}

int MemoryStore::completion_fd() const {
  if (event_fd_ < 0) event_fd_ = ::eventfd(0, EFD_NONBLOCK | EFD_CLOEXEC);
  return event_fd_;
}

// Makes completion_fd() readable: the transport then calls reap().
void MemoryStore::signal() const {
  const int fd = completion_fd();
  if (fd < 0) return;  // no descriptor: drain() on the next synchronous call
  const std::uint64_t one = 1;
  while (::write(fd, &one, sizeof one) < 0 && errno == EINTR) {
  }
}

void MemoryStore::enqueue(Queued q) {
  q.wait->started();
  queue_.push_back(std::move(q));
  if (queue_.size() == 1) signal();
}

void MemoryStore::start_read(std::uint64_t lba, std::uint64_t count, std::span<std::uint8_t> out,
                             const std::shared_ptr<IoWait>& wait) {
  if (auto e = check_access(*this, "read", lba, count, out.size()); !e.ok() || count == 0) {
    return wait->finish_now(std::move(e));
  }
  enqueue({Queued::Kind::kRead, lba, count, 0, out.data(), wait});
}

void MemoryStore::start_write(std::uint64_t lba, std::uint64_t count,
                              std::span<const std::uint8_t> in, bool /*durable*/,
                              const std::shared_ptr<IoWait>& wait) {
  if (auto e = check_access(*this, "write", lba, count, in.size()); !e.ok() || count == 0) {
    return wait->finish_now(std::move(e));
  }
  // Only read from for a write; the queue holds one pointer type for both
  // directions.
  enqueue(
      {Queued::Kind::kWrite, lba, count, 0, const_cast<std::uint8_t*>(in.data()), wait});  // NOLINT
}

void MemoryStore::start_unmap(std::uint64_t lba, std::uint64_t count, bool /*durable*/,
                              const std::shared_ptr<IoWait>& wait) {
  if (auto e = check_access(*this, "unmap", lba, count, std::nullopt); !e.ok() || count == 0) {
    return wait->finish_now(std::move(e));
  }
  enqueue({Queued::Kind::kUnmap, lba, count, 0, nullptr, wait});
}

// Nothing is volatile: a flush is done once everything before it is.
void MemoryStore::start_flush(const std::shared_ptr<IoWait>& wait) {
  enqueue({Queued::Kind::kFlush, 0, 0, 0, nullptr, wait});
}

std::uint64_t MemoryStore::run_head(std::uint64_t budget) {
  Queued& q = queue_.front();
  const std::uint64_t blocks =
      std::min(q.count - q.done, std::max<std::uint64_t>(1, budget / block_size_));
  const std::uint64_t lba = q.lba + q.done;
  std::uint8_t* const data = q.data == nullptr ? nullptr : q.data + q.done * block_size_;
  StoreStatus status;
  switch (q.kind) {
    case Queued::Kind::kRead:
      status = read_now(lba, blocks, data);
      break;
    case Queued::Kind::kWrite:
      status = write_now(lba, blocks, data);
      break;
    case Queued::Kind::kUnmap:
      status = unmap_now(lba, blocks);
      break;
    case Queued::Kind::kFlush:
      break;
  }
  q.done += blocks;
  if (q.done == q.count || !status.ok()) {
    std::shared_ptr<IoWait> wait = std::move(q.wait);
    queue_.pop_front();
    wait->finished(std::move(status));
  }
  return std::max<std::uint64_t>(1, blocks * block_size_);  // a flush costs a turn too
}

void MemoryStore::reap() {
  if (event_fd_ >= 0) {
    std::uint64_t count = 0;
    while (::read(event_fd_, &count, sizeof count) < 0 && errno == EINTR) {
    }
  }
  for (std::uint64_t used = 0; !queue_.empty() && used < kSliceBytes;) {
    used += run_head(kSliceBytes - used);
  }
  if (!queue_.empty()) signal();
}

void MemoryStore::drain() {
  while (!queue_.empty()) run_head(queue_.front().count * block_size_);
}

}  // namespace memstore::scsi
