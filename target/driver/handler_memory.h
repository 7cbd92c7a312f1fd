// SPDX-License-Identifier: Apache-2.0
// Memory for one outstanding Asio operation at a time, so that the target's
// steady READ/WRITE path allocates nothing: Asio allocates every pending
// operation (a socket read, a write, a timer wait) through the completion
// handler's associated allocator, and Boost 1.74's default recycles only one
// block per thread, which the reader, the writer and the timers keep evicting
// from each other. Each of those gets its own HandlerMemory instead.
//
// Usage: asio::async_read(socket, buffers, with_memory(memory_, handler)).
// Only for operations that are never outstanding twice on the same memory.
#pragma once

#include <cstddef>
#include <new>
#include <type_traits>
#include <utility>

namespace memstore::driver {

class HandlerMemory {
 public:
  HandlerMemory() = default;
  HandlerMemory(const HandlerMemory&) = delete;
  HandlerMemory& operator=(const HandlerMemory&) = delete;

  void* allocate(std::size_t size) {
    if (!in_use_ && size <= sizeof(storage_)) {
      in_use_ = true;
      return &storage_;
    }
    return ::operator new(size);  // a second operation at once, or a big one
  }
  void deallocate(void* p) {
    if (p == &storage_) {
      in_use_ = false;
    } else {
      ::operator delete(p);
    }
  }

 private:
  alignas(std::max_align_t) unsigned char storage_[1024];
  bool in_use_ = false;
};

// The allocator Asio finds through the handler's allocator_type.
template <typename T>
class HandlerAllocator {
 public:
  using value_type = T;
  explicit HandlerAllocator(HandlerMemory& m) : memory_(&m) {}
  template <typename U>
  HandlerAllocator(const HandlerAllocator<U>& other) noexcept : memory_(other.memory_) {}
  T* allocate(std::size_t n) { return static_cast<T*>(memory_->allocate(sizeof(T) * n)); }
  void deallocate(T* p, std::size_t) { memory_->deallocate(p); }
  template <typename U>
  bool operator==(const HandlerAllocator<U>& other) const noexcept {
    return memory_ == other.memory_;
  }

 private:
  template <typename>
  friend class HandlerAllocator;
  HandlerMemory* memory_;
};

template <typename Handler>
class MemoryHandler {
 public:
  using allocator_type = HandlerAllocator<Handler>;
  MemoryHandler(HandlerMemory& m, Handler h) : memory_(m), handler_(std::move(h)) {}
  allocator_type get_allocator() const noexcept { return allocator_type(memory_); }
  template <typename... Args>
  void operator()(Args&&... args) {
    handler_(std::forward<Args>(args)...);
  }

 private:
  HandlerMemory& memory_;
  Handler handler_;
};

template <typename Handler>
MemoryHandler<std::decay_t<Handler>> with_memory(HandlerMemory& m, Handler&& h) {
  return MemoryHandler<std::decay_t<Handler>>(m, std::forward<Handler>(h));
}

}  // namespace memstore::driver
