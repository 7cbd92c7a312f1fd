// SPDX-License-Identifier: Apache-2.0
// One bound on memory that remote initiators make the daemon hold, shared by
// every LUN that draws on it, whatever thread each runs on: the data buffers
// of commands waiting for their modeled completion and the buffers kept for
// reuse (LunConfig::buffer_budget), and the MEMS BATCH results kept for
// MEMS BATCH RESULTS (LunConfig::batch_budget). docs/memstored.md, "Limits
// on what an initiator holds", lists the defaults.
#pragma once

#include <atomic>
#include <cstddef>
#include <memory>
#include <utility>

namespace memstore::scsi {

class MemoryBudget {
 public:
  explicit MemoryBudget(std::size_t limit) : limit_(limit) {}
  MemoryBudget(const MemoryBudget&) = delete;
  MemoryBudget& operator=(const MemoryBudget&) = delete;

  // Takes `bytes` if the budget's use stays within `ceiling` (at most the
  // limit), all or nothing.
  bool try_take(std::size_t bytes) { return try_take(bytes, limit_); }
  bool try_take(std::size_t bytes, std::size_t ceiling) {
    ceiling = ceiling < limit_ ? ceiling : limit_;
    std::size_t used = used_.load(std::memory_order_relaxed);
    do {
      if (used > ceiling || bytes > ceiling - used) return false;
    } while (!used_.compare_exchange_weak(used, used + bytes, std::memory_order_relaxed));
    return true;
  }
  // Takes `bytes` even past the limit, for what must be kept regardless.
  void take(std::size_t bytes) { used_.fetch_add(bytes, std::memory_order_relaxed); }
  void give(std::size_t bytes) { used_.fetch_sub(bytes, std::memory_order_relaxed); }

  std::size_t used() const { return used_.load(std::memory_order_relaxed); }
  std::size_t limit() const { return limit_; }

 private:
  const std::size_t limit_;
  std::atomic<std::size_t> used_{0};
};

// Bytes taken from a budget, given back when the hold ends, however it ends
// (delivered, aborted, the LUN reset or destroyed).
// It keeps the budget alive: a result may outlive its LUN in a transport's
// queue.
class BudgetHold {
 public:
  BudgetHold() = default;
  BudgetHold(BudgetHold&& o) noexcept
      : budget_(std::move(o.budget_)), bytes_(std::exchange(o.bytes_, 0)) {}
  BudgetHold& operator=(BudgetHold&& o) noexcept {
    if (this != &o) {
      release();
      budget_ = std::move(o.budget_);
      bytes_ = std::exchange(o.bytes_, 0);
    }
    return *this;
  }
  ~BudgetHold() { release(); }

  // Adds bytes already taken from `budget` (always the same one) to the hold.
  void add(const std::shared_ptr<MemoryBudget>& budget, std::size_t bytes) {
    if (!budget_) budget_ = budget;
    bytes_ += bytes;
  }
  // Gives `bytes` of the hold back now.
  void give(std::size_t bytes) {
    if (budget_) budget_->give(bytes);
    bytes_ -= bytes;
  }
  std::size_t bytes() const { return bytes_; }
  void release() {
    if (budget_ && bytes_ > 0) budget_->give(bytes_);
    bytes_ = 0;
  }

 private:
  std::shared_ptr<MemoryBudget> budget_;
  std::size_t bytes_ = 0;
};

}  // namespace memstore::scsi
