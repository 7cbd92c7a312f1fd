#include "target/scsi/memory_store.h"

#include <algorithm>
#include <cerrno>
#include <cstring>
#include <limits>
#include <new>

namespace memstore::scsi {
namespace {

constexpr std::uint32_t kChunkTargetBytes = 64 * 1024;

// The part of a request that falls into one chunk.
struct Segment {
  std::uint64_t chunk;          // chunk index
  std::uint64_t chunk_offset;   // byte offset inside the chunk
  std::uint64_t buffer_offset;  // byte offset inside the caller's buffer
  std::uint64_t bytes;
};

// Calls fn(Segment) for each chunk touched by [lba, lba + count), in order,
// stopping at the first error fn returns.
template <typename Fn>
StoreStatus for_each_segment(std::uint64_t lba, std::uint64_t count, std::uint32_t chunk_blocks,
                             std::uint32_t block_size, Fn fn) {
  std::uint64_t buffer_offset = 0;
  while (count > 0) {
    const std::uint64_t chunk = lba / chunk_blocks;
    const std::uint64_t first = lba % chunk_blocks;
    const std::uint64_t n = std::min<std::uint64_t>(count, chunk_blocks - first);
    const Segment s{chunk, first * block_size, buffer_offset, n * block_size};
    if (auto e = fn(s)) return e;
    lba += n;
    count -= n;
    buffer_offset += s.bytes;
  }
  return std::nullopt;
}

}  // namespace

std::variant<std::unique_ptr<MemoryStore>, StoreError> MemoryStore::create(
    std::uint64_t blocks, std::uint32_t block_size) {
  if (blocks == 0 || block_size == 0) {
    return StoreError{EINVAL, "memory store: a LUN needs at least one block of at least one " +
                                  std::string("byte (got ") + std::to_string(blocks) +
                                  " blocks of " + std::to_string(block_size) + " bytes)"};
  }
  if (blocks > std::numeric_limits<std::uint64_t>::max() / block_size) {
    return StoreError{EINVAL, "memory store: " + std::to_string(blocks) + " blocks of " +
                                  std::to_string(block_size) + " bytes is more than 2^64 bytes"};
  }
  return std::unique_ptr<MemoryStore>(new MemoryStore(blocks, block_size));
}

MemoryStore::MemoryStore(std::uint64_t blocks, std::uint32_t block_size)
    : blocks_(blocks),
      block_size_(block_size),
      chunk_blocks_(std::max<std::uint32_t>(1, kChunkTargetBytes / block_size)) {}

StoreStatus MemoryStore::read(std::uint64_t lba, std::uint64_t count, std::span<std::uint8_t> out) {
  if (auto e = check_access(*this, "read", lba, count, out.size())) return e;
  return for_each_segment(lba, count, chunk_blocks_, block_size_,
                          [&](const Segment& s) -> StoreStatus {
                            std::uint8_t* to = out.data() + s.buffer_offset;
                            const auto it = chunks_.find(s.chunk);
                            if (it == chunks_.end()) {
                              std::memset(to, 0, s.bytes);
                            } else {
                              std::memcpy(to, it->second.get() + s.chunk_offset, s.bytes);
                            }
                            return std::nullopt;
                          });
}

StoreStatus MemoryStore::write(std::uint64_t lba, std::uint64_t count,
                               std::span<const std::uint8_t> in) {
  if (auto e = check_access(*this, "write", lba, count, in.size())) return e;
  return for_each_segment(
      lba, count, chunk_blocks_, block_size_, [&](const Segment& s) -> StoreStatus {
        std::unique_ptr<std::uint8_t[]>& chunk = chunks_[s.chunk];
        if (!chunk) {
          chunk.reset(new (std::nothrow) std::uint8_t[chunk_bytes()]());
          if (!chunk) {
            chunks_.erase(s.chunk);
            return StoreError{ENOMEM, "memory store: out of memory writing chunk " +
                                          std::to_string(s.chunk) + " of " + describe()};
          }
        }
        std::memcpy(chunk.get() + s.chunk_offset, in.data() + s.buffer_offset, s.bytes);
        return std::nullopt;
      });
}

StoreStatus MemoryStore::unmap(std::uint64_t lba, std::uint64_t count) {
  if (auto e = check_access(*this, "unmap", lba, count, std::nullopt)) return e;
  return for_each_segment(
      lba, count, chunk_blocks_, block_size_, [&](const Segment& s) -> StoreStatus {
        const auto it = chunks_.find(s.chunk);
        if (it == chunks_.end()) return std::nullopt;
        std::uint8_t* data = it->second.get();
        if (s.bytes < chunk_bytes()) std::memset(data + s.chunk_offset, 0, s.bytes);
        const bool all_zero =
            s.bytes == chunk_bytes() ||
            std::all_of(data, data + chunk_bytes(), [](std::uint8_t b) { return b == 0; });
        if (all_zero) chunks_.erase(it);
        return std::nullopt;
      });
}

BackingStore::Extent MemoryStore::provisioning(std::uint64_t lba, std::uint64_t max_blocks) const {
  const std::uint64_t end = lba + std::min(max_blocks, blocks_ - lba);
  const std::uint64_t first = lba / chunk_blocks_;
  const bool mapped = chunks_.contains(first);
  // The first chunk past `first` whose allocation differs: for a mapped run,
  // step through the allocated chunks; for a hole, the nearest allocated
  // chunk above. Either way no more work than there are chunks.
  std::uint64_t next = first + 1;
  if (mapped) {
    while (chunks_.contains(next) && next * chunk_blocks_ < end) ++next;
  } else {
    next = std::numeric_limits<std::uint64_t>::max();
    for (const auto& [chunk, data] : chunks_) {
      if (chunk > first && chunk < next) next = chunk;
    }
  }
  const std::uint64_t change = next > (end - 1) / chunk_blocks_ ? end : next * chunk_blocks_;
  return {mapped, change - lba};
}

std::string MemoryStore::describe() const {
  return "memory store (" + std::to_string(blocks_) + " blocks of " + std::to_string(block_size_) +
         " bytes)";
}

}  // namespace memstore::scsi
