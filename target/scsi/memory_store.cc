// SPDX-License-Identifier: Apache-2.0
#include "target/scsi/memory_store.h"

#include <sys/mman.h>
#include <unistd.h>

#include <algorithm>
#include <bit>
#include <cerrno>
#include <cstring>
#include <limits>

namespace memstore::scsi {
namespace {

// The tracking granularity: one page's worth of whole blocks.
constexpr std::uint32_t kUnitTargetBytes = 4096;

std::size_t page_size() {
  static const auto size = static_cast<std::size_t>(::sysconf(_SC_PAGESIZE));
  return size;
}

std::size_t round_up_to_page(std::uint64_t bytes) {
  const std::size_t page = page_size();
  return static_cast<std::size_t>((bytes + page - 1) / page * page);
}

// A private anonymous mapping that reserves nothing: pages are allocated,
// already zeroed by the kernel, when first written. Transparent huge pages
// are refused for it, or a 4 KB write could make the kernel zero 2 MiB.
void* sparse_mapping(std::size_t bytes) {
  void* p = ::mmap(nullptr, bytes, PROT_READ | PROT_WRITE,
                   MAP_PRIVATE | MAP_ANONYMOUS | MAP_NORESERVE, -1, 0);
  if (p == MAP_FAILED) return nullptr;
  ::madvise(p, bytes, MADV_NOHUGEPAGE);  // advisory: a kernel without THP refuses, harmlessly
  return p;
}

}  // namespace

Expected<std::unique_ptr<MemoryStore>> MemoryStore::create(std::uint64_t blocks,
                                                           std::uint32_t block_size) {
  if (blocks == 0 || block_size == 0) {
    return Error{EINVAL, "memory store: a LUN needs at least one block of at least one " +
                             std::string("byte (got ") + std::to_string(blocks) + " blocks of " +
                             std::to_string(block_size) + " bytes)"};
  }
  if (blocks > std::numeric_limits<std::uint64_t>::max() / block_size) {
    return Error{EINVAL, "memory store: " + std::to_string(blocks) + " blocks of " +
                             std::to_string(block_size) + " bytes is more than 2^64 bytes"};
  }
  const std::uint64_t bytes = blocks * block_size;
  const std::uint32_t unit_blocks = std::max<std::uint32_t>(1, kUnitTargetBytes / block_size);
  const std::uint64_t units = (blocks + unit_blocks - 1) / unit_blocks;
  auto no_room = [&] {
    return Error{ENOMEM, "memory store: cannot map " + std::to_string(bytes) +
                             " bytes of address space for " + std::to_string(blocks) +
                             " blocks of " + std::to_string(block_size) +
                             " bytes; use a smaller device or a file backing"};
  };
  if (bytes > std::numeric_limits<std::size_t>::max() - page_size()) return no_room();
  const std::size_t data_bytes = round_up_to_page(bytes);
  const std::size_t bits_bytes = round_up_to_page((units + 63) / 64 * 8);
  void* data = sparse_mapping(data_bytes);
  if (data == nullptr) return no_room();
  void* bits = sparse_mapping(bits_bytes);
  if (bits == nullptr) {
    ::munmap(data, data_bytes);
    return no_room();
  }
  return std::unique_ptr<MemoryStore>(
      new MemoryStore(blocks, block_size, static_cast<std::uint8_t*>(data), data_bytes,
                      static_cast<std::uint64_t*>(bits), bits_bytes));
}

MemoryStore::MemoryStore(std::uint64_t blocks, std::uint32_t block_size, std::uint8_t* data,
                         std::size_t data_bytes, std::uint64_t* bits, std::size_t bits_bytes)
    : blocks_(blocks),
      block_size_(block_size),
      unit_blocks_(std::max<std::uint32_t>(1, kUnitTargetBytes / block_size)),
      units_((blocks + unit_blocks_ - 1) / unit_blocks_),
      data_(data),
      data_bytes_(data_bytes),
      bits_(bits),
      bits_bytes_(bits_bytes) {}

MemoryStore::~MemoryStore() {
  if (event_fd_ >= 0) ::close(event_fd_);
  ::munmap(data_, data_bytes_);
  ::munmap(bits_, bits_bytes_);
}

void MemoryStore::set_used(std::uint64_t unit) {
  std::uint64_t& word = bits_[unit / 64];
  const std::uint64_t bit = std::uint64_t{1} << (unit % 64);
  if ((word & bit) == 0) {
    word |= bit;
    ++used_units_;
  }
}

void MemoryStore::clear_used(std::uint64_t unit) {
  std::uint64_t& word = bits_[unit / 64];
  const std::uint64_t bit = std::uint64_t{1} << (unit % 64);
  if ((word & bit) != 0) {
    word &= ~bit;
    --used_units_;
  }
}

std::uint64_t MemoryStore::find_unit(std::uint64_t from, std::uint64_t end, bool value) const {
  while (from < end) {
    // The bits of `from`'s word at and above it, inverted when looking for a 0.
    std::uint64_t word = bits_[from / 64];
    if (!value) word = ~word;
    word &= ~std::uint64_t{0} << (from % 64);
    if (word != 0) return std::min(end, from / 64 * 64 + std::countr_zero(word));
    from = (from / 64 + 1) * 64;
  }
  return end;
}

StoreStatus MemoryStore::read(std::uint64_t lba, std::uint64_t count, std::span<std::uint8_t> out) {
  if (auto e = check_access(*this, "read", lba, count, out.size()); !e.ok()) return e;
  drain();
  return read_now(lba, count, out.data());
}

StoreStatus MemoryStore::write(std::uint64_t lba, std::uint64_t count,
                               std::span<const std::uint8_t> in) {
  if (auto e = check_access(*this, "write", lba, count, in.size()); !e.ok()) return e;
  drain();
  return write_now(lba, count, in.data());
}

StoreStatus MemoryStore::unmap(std::uint64_t lba, std::uint64_t count) {
  if (auto e = check_access(*this, "unmap", lba, count, std::nullopt); !e.ok()) return e;
  drain();
  return unmap_now(lba, count);
}

StoreStatus MemoryStore::flush() {
  drain();
  return {};
}

// The bodies below assume a checked range (check_access).
StoreStatus MemoryStore::read_now(std::uint64_t lba, std::uint64_t count, std::uint8_t* to) {
  while (count > 0) {
    const std::uint64_t unit = lba / unit_blocks_;
    const std::uint64_t n = std::min<std::uint64_t>(count, (unit + 1) * unit_blocks_ - lba);
    const std::size_t bytes = static_cast<std::size_t>(n * block_size_);
    if (used(unit)) {
      std::memcpy(to, data_ + lba * block_size_, bytes);
    } else {
      std::memset(to, 0, bytes);  // never written: not even the zero page is mapped
    }
    to += bytes;
    lba += n;
    count -= n;
  }
  return {};
}

StoreStatus MemoryStore::write_now(std::uint64_t lba, std::uint64_t count, const std::uint8_t* in) {
  if (count == 0) return {};
  std::memcpy(data_ + lba * block_size_, in, static_cast<std::size_t>(count * block_size_));
  const std::uint64_t last = (lba + count - 1) / unit_blocks_;
  for (std::uint64_t u = lba / unit_blocks_; u <= last; ++u) set_used(u);
  return {};
}

StoreStatus MemoryStore::unmap_now(std::uint64_t lba, std::uint64_t count) {
  if (count == 0) return {};
  const std::uint64_t begin = lba * block_size_;
  const std::uint64_t end = begin + count * block_size_;
  // Whole pages inside the range go back to the kernel (they hold no byte of
  // another block) and read as zeros from then on.
  const std::uint64_t page = page_size();
  const std::uint64_t first_page = std::min(end, (begin + page - 1) / page * page);
  const std::uint64_t end_page = std::max(first_page, end / page * page);
  if (first_page < end_page) {
    ::madvise(data_ + first_page, static_cast<std::size_t>(end_page - first_page), MADV_DONTNEED);
  }
  // The rest is zeroed only in units that hold data: a unit without data is
  // all zeros already, and writing zeros into it would allocate its pages.
  // A unit is free once nothing in it is nonzero.
  const std::uint64_t last = (lba + count - 1) / unit_blocks_ + 1;
  for (std::uint64_t u = find_unit(lba / unit_blocks_, last, true); u < last;
       u = find_unit(u + 1, last, true)) {
    const std::uint64_t u_begin = u * unit_blocks_ * block_size_;
    const std::uint64_t u_end = std::min(blocks_, (u + 1) * unit_blocks_) * block_size_;
    const std::uint64_t from = std::max(begin, u_begin);
    const std::uint64_t to = std::min(end, u_end);
    auto zero = [&](std::uint64_t a, std::uint64_t b) {
      if (a < b) std::memset(data_ + a, 0, static_cast<std::size_t>(b - a));
    };
    zero(from, std::min(to, first_page));
    zero(std::max(from, end_page), to);
    if ((from == u_begin && to == u_end) ||
        std::all_of(data_ + u_begin, data_ + u_end, [](std::uint8_t b) { return b == 0; })) {
      clear_used(u);
    }
  }
  return {};
}

BackingStore::Extent MemoryStore::provisioning(std::uint64_t lba, std::uint64_t max_blocks) const {
  // As of every operation started before (a queued WRITE SAME maps its
  // blocks); finishing the queue changes what is stored, not what the
  // store reports, so the query stays const to its callers.
  const_cast<MemoryStore*>(this)->drain();  // NOLINT(cppcoreguidelines-pro-type-const-cast)
  const std::uint64_t end = lba + std::min(max_blocks, blocks_ - lba);
  const std::uint64_t first = lba / unit_blocks_;
  const bool mapped = used(first);
  const std::uint64_t change = find_unit(first + 1, units_, !mapped);
  return {mapped, std::min(end, change * unit_blocks_) - lba};
}

std::string MemoryStore::describe() const {
  return "memory store (" + std::to_string(blocks_) + " blocks of " + std::to_string(block_size_) +
         " bytes)";
}

}  // namespace memstore::scsi
