// SPDX-License-Identifier: Apache-2.0
// A store that can start an operation and finish it later, so that the
// thread delivering completions never waits for the disk (docs/design.md,
// "Storage I/O"). FileStore implements it on io_uring.
//
// Ordering: operations take effect as if run one at a time in the order
// they were started: a read started after a write of the same blocks
// returns the written data, and of two overlapping writes the later one
// wins. Operations that do not overlap run concurrently.
//
// The caller keeps every buffer alive until the operation finishes: the
// Lun puts them in the command's IoWait. Completions are handled only by
// reap(), when completion_fd() is readable (the transport watches it);
// nothing runs on another thread.
#pragma once

#include <cstdint>
#include <memory>
#include <span>
#include <string>

#include "target/scsi/io_wait.h"

namespace memstore::scsi {

class AsyncStore {
 public:
  virtual ~AsyncStore() = default;
  // Same REQUIRES as BackingStore::read/write/unmap (checked; a violation
  // finishes the operation at once with ERANGE/EINVAL). `durable`: the data
  // is on stable storage before the operation finishes (FUA, WCE=0).
  virtual void start_read(std::uint64_t lba, std::uint64_t count, std::span<std::uint8_t> out,
                          const std::shared_ptr<IoWait>& wait) = 0;
  virtual void start_write(std::uint64_t lba, std::uint64_t count, std::span<const std::uint8_t> in,
                           bool durable, const std::shared_ptr<IoWait>& wait) = 0;
  virtual void start_unmap(std::uint64_t lba, std::uint64_t count, bool durable,
                           const std::shared_ptr<IoWait>& wait) = 0;
  // Makes every write and unmap that finished before this call durable.
  virtual void start_flush(const std::shared_ptr<IoWait>& wait) = 0;

  // Readable when completions are waiting for reap().
  virtual int completion_fd() const = 0;
  // Handles every completion that is ready; never blocks.
  virtual void reap() = 0;
  // Operations started and not finished.
  virtual std::size_t in_flight() const = 0;
  // Whether an operation of `bytes` may rather be done synchronously, now,
  // through BackingStore (same effect, no completion to wait for): a store
  // whose work is a short memory copy says so while nothing is in flight.
  virtual bool at_once(std::uint64_t /*bytes*/) const { return false; }
  // How the operations run, for the LUN's log line ("io_uring").
  virtual std::string io_description() const = 0;
};

}  // namespace memstore::scsi
