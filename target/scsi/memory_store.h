// A LUN held in memory, for tests, benchmarks and throwaway targets. Sparse:
// memory is spent only on 64 KiB chunks that hold written data, so a 3.4 GB
// G2 LUN that was never written costs nothing. A chunk holds whole blocks
// (max(1, 64 KiB / block_size) of them). unmap() frees a chunk once nothing
// in it is nonzero; unmapped and never-written blocks read as zeros.
//
// Nothing is durable, and nothing is volatile either: volatile_cache() is
// false (WCE=0) and flush() does nothing. Out of memory is an ENOMEM error,
// not an exception.
#pragma once

#include <cstdint>
#include <memory>
#include <string>
#include <unordered_map>
#include <variant>

#include "target/scsi/backing_store.h"

namespace memstore::scsi {

class MemoryStore final : public BackingStore {
 public:
  // Errors: zero blocks or block size, or a size beyond 2^64 bytes.
  static std::variant<std::unique_ptr<MemoryStore>, StoreError> create(std::uint64_t blocks,
                                                                       std::uint32_t block_size);

  std::uint64_t blocks() const override { return blocks_; }
  std::uint32_t block_size() const override { return block_size_; }
  StoreStatus read(std::uint64_t lba, std::uint64_t count, std::span<std::uint8_t> out) override;
  StoreStatus write(std::uint64_t lba, std::uint64_t count,
                    std::span<const std::uint8_t> in) override;
  StoreStatus unmap(std::uint64_t lba, std::uint64_t count) override;
  StoreStatus flush() override { return std::nullopt; }
  // Mapped = its chunk is allocated (64 KiB granularity). O(allocated chunks).
  Extent provisioning(std::uint64_t lba, std::uint64_t max_blocks) const override;
  bool volatile_cache() const override { return false; }
  std::string describe() const override;

  // Bytes of block data currently allocated (whole chunks).
  std::uint64_t resident_bytes() const { return chunks_.size() * chunk_bytes(); }
  std::uint64_t chunk_bytes() const { return std::uint64_t{chunk_blocks_} * block_size_; }

 private:
  MemoryStore(std::uint64_t blocks, std::uint32_t block_size);

  std::uint64_t blocks_;
  std::uint32_t block_size_;
  std::uint32_t chunk_blocks_;
  std::unordered_map<std::uint64_t, std::unique_ptr<std::uint8_t[]>> chunks_;  // by chunk index
};

}  // namespace memstore::scsi
