// SPDX-License-Identifier: Apache-2.0
// Where a LUN keeps its blocks. The LUN validates the CDB and the LBA range
// first and then calls the store; the store checks ranges again and never
// touches anything past its last block, but its errors are for the failures
// the LUN cannot rule out (I/O errors, a full file system, no memory).
//
// Errors are values, never exceptions: every call that can fail returns a
// StoreStatus (base/expected.h's Status). Its `errno_value` lets the LUN pick the sense
// data: ENOSPC → SPACE ALLOCATION FAILED WRITE PROTECT (27h/07h), anything
// else → MEDIUM ERROR (write error 0Ch/00h, unrecovered read error 11h/00h).
// Misuse (range, buffer size) is EINVAL/ERANGE and means a LUN bug.
//
// Semantics the LUN relies on:
// - Blocks never written, and blocks unmapped, read as zeros.
// - read() copies the data as it is when called: the LUN calls it when the
//   command arrives, so a read returns data as of its arrival even though its
//   completion is delivered later at the modeled time.
// - Durability: after write() returns, the data is durable when
//   volatile_cache() is false (write-through, WCE=0); otherwise it is durable
//   after the next successful flush(). FUA and SYNCHRONIZE CACHE are both
//   "write(), then flush()" — flush() covers the whole store, which is more
//   than FUA asks for and is what a single-queue drive does anyway.
// - unmap() is durable on the same terms as write().
//
// Asynchronous stores (async_store.h) also keep these calls correct while
// asynchronous operations are in flight: a synchronous call first waits for
// all of them.
//
// Thread safety: stores are NOT thread-safe. A Lun serialises every call to
// its store; anyone else sharing a store between threads must lock around it.
#pragma once

#include <cerrno>
#include <cstddef>
#include <cstdint>
#include <optional>
#include <span>
#include <string>

#include "base/expected.h"
#include "target/scsi/power_cut.h"

namespace memstore::scsi {

class AsyncStore;

// Its Error: the errno of the failed system call, or EINVAL/ERANGE/ENOMEM,
// and a complete sentence naming the store and the operation. (In this
// namespace `Status` is the SCSI status byte, sense.h.)
using StoreStatus = memstore::Status;

class BackingStore {
 public:
  virtual ~BackingStore() = default;

  virtual std::uint64_t blocks() const = 0;
  virtual std::uint32_t block_size() const = 0;

  // REQUIRES (else ERANGE/EINVAL, nothing touched): lba + count <= blocks(),
  // out.size() == count * block_size(). count == 0 is a no-op.
  [[nodiscard]] virtual StoreStatus read(std::uint64_t lba, std::uint64_t count,
                                         std::span<std::uint8_t> out) = 0;
  // Same REQUIRES with in.size() == count * block_size().
  [[nodiscard]] virtual StoreStatus write(std::uint64_t lba, std::uint64_t count,
                                          std::span<const std::uint8_t> in) = 0;
  // A write that must be durable when it returns (FUA, or WCE = 0: SBC-3
  // §4.15): by default write() then flush(), which makes more durable than
  // asked; a store with a volatile cache puts only these blocks on its medium.
  [[nodiscard]] virtual StoreStatus write_durable(std::uint64_t lba, std::uint64_t count,
                                                  std::span<const std::uint8_t> in) {
    if (auto e = write(lba, count, in); !e.ok()) return e;
    return flush();
  }
  // Deallocates the blocks (UNMAP, WRITE SAME with UNMAP); they read as zeros
  // afterwards. REQUIRES lba + count <= blocks().
  [[nodiscard]] virtual StoreStatus unmap(std::uint64_t lba, std::uint64_t count) = 0;
  // Makes every completed write() and unmap() durable.
  [[nodiscard]] virtual StoreStatus flush() = 0;

  // Whether the blocks from `lba` on hold storage (mapped) or not
  // (deallocated: never written, or unmapped), and for how many blocks from
  // `lba` that stays so, looking at no more than `max_blocks` of them — GET
  // LBA STATUS (SBC-3 §5.20). "Mapped" is always a true answer (SBC-3:
  // "mapped or unknown"), so a store that cannot tell, or a block that is
  // only partly deallocated, says mapped; this default says it for all.
  // REQUIRES: lba < blocks(), max_blocks >= 1. Result: 1 <= blocks <= max_blocks.
  struct Extent {
    bool mapped = true;
    std::uint64_t blocks = 0;
  };
  virtual Extent provisioning(std::uint64_t lba, std::uint64_t max_blocks) const {
    return {true, max_blocks < blocks() - lba ? max_blocks : blocks() - lba};
  }

  // True when write() leaves data in a volatile cache until flush(): the
  // Caching mode page reports WCE = volatile_cache().
  virtual bool volatile_cache() const = 0;

  // A power cut (docs/crash-consistency.md): what a volatile cache holds is
  // kept, lost or torn as `policy` says, drawn from `seed`. A store without
  // one holds nothing a cut can take: the report lists no write.
  virtual Expected<PowerCutReport> power_cut(CutPolicy policy, std::uint64_t seed) {
    return PowerCutReport{.policy = policy, .seed = seed, .flushes = 0, .writes = {}};
  }

  // One line for logs: kind, location, size, durability mode.
  virtual std::string describe() const = 0;

  // The store's asynchronous interface (async_store.h), or nullptr when it
  // has none or it is not started.
  virtual AsyncStore* async() { return nullptr; }
};

// For implementations: the REQUIRES of read/write/unmap as one check.
// `op` names the operation in the message; buffer_bytes is ignored for unmap
// (pass std::nullopt).
inline StoreStatus check_access(const BackingStore& store, const char* op, std::uint64_t lba,
                                std::uint64_t count, std::optional<std::size_t> buffer_bytes) {
  const std::uint64_t blocks = store.blocks();
  if (count > blocks || lba > blocks - count) {
    return Error{ERANGE, std::string(op) + " of " + std::to_string(count) + " blocks at LBA " +
                             std::to_string(lba) + " is beyond the end of " + store.describe()};
  }
  // No overflow: count <= blocks and blocks * block_size fits (checked at creation).
  const std::uint64_t want = count * store.block_size();
  if (buffer_bytes && *buffer_bytes != want) {
    return Error{EINVAL, std::string(op) + " of " + std::to_string(count) +
                             " blocks needs a buffer of " + std::to_string(want) + " bytes, got " +
                             std::to_string(*buffer_bytes)};
  }
  return {};
}

}  // namespace memstore::scsi
