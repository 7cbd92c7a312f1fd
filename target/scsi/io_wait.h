// SPDX-License-Identifier: Apache-2.0
// The storage operations of one command that an asynchronous store has
// started and not yet finished (async_store.h). The command's result waits
// for them before it is delivered: a READ's data is still arriving in its
// buffer, a WRITE is not in the file yet.
//
// It owns the buffers those operations read into and write from, so that
// they stay put until the kernel is done with them, even when the result is
// dropped first (its connection closed). Shared (std::shared_ptr) between
// the store's operations and the result; used on the LUN's strand only.
#pragma once

#include <cstdint>
#include <functional>
#include <memory>
#include <utility>
#include <vector>

#include "target/scsi/backing_store.h"
#include "target/scsi/sense.h"

namespace memstore::scsi {

class IoWait {
 public:
  // What a failure reports (the Lun builds the sense from it): the command's
  // first LBA, and whether it was moving data to the medium.
  IoWait(std::uint64_t lba, bool writing) : lba_(lba), writing_(writing) {}

  // The store: one more operation started; one finished, with its status
  // (the first failure is kept, with its cause).
  void started() { ++pending_; }
  void finished(StoreStatus status) {
    if (!status.ok() && error_.ok()) error_ = std::move(status);
    if (--pending_ == 0 && on_ready_) std::exchange(on_ready_, nullptr)();
  }

  // An operation that ends where it starts (refused by the range check, or
  // with nothing to do): started and finished at once, with `status`.
  void finish_now(StoreStatus status) {
    started();
    finished(std::move(status));
  }

  bool ready() const { return pending_ == 0; }
  const StoreStatus& error() const { return error_; }
  std::uint64_t lba() const { return lba_; }
  bool writing() const { return writing_; }

  // Called once, from the store's completion handling, when the last
  // operation finishes (never when ready() already holds). It must not call
  // into the Lun: post instead. Cleared by passing nullptr.
  void on_ready(std::function<void()> f) { on_ready_ = std::move(f); }

  // A buffer that lives as long as this object; returns where it is.
  std::span<std::uint8_t> hold(Bytes buffer) {
    buffers_.push_back(std::move(buffer));
    return buffers_.back();
  }
  // A READ's data: the first buffer held.
  Bytes take_data() { return buffers_.empty() ? Bytes{} : std::move(buffers_.front()); }
  std::vector<Bytes>& buffers() { return buffers_; }

 private:
  std::uint64_t lba_;
  bool writing_;
  std::uint32_t pending_ = 0;
  StoreStatus error_;
  std::function<void()> on_ready_;
  std::vector<Bytes> buffers_;
};

}  // namespace memstore::scsi
